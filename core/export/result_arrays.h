#pragma once
// attnviz compute --format npy: a Result as NPY arrays in a folder, with a small JSON file that
// says what they hold (docs/design.md "Result arrays"). Four bytes a number instead of the
// twelve or so of JSON text, and each array streamed from the Result a row at a time.
//
//   DIR/result.json   {"format": "attnviz-result-arrays/1", "backend", "device", "tokens",
//                      "source_tokens", "masked_rows", "heads": [0, 1, …], "arrays": {…},
//                      "timing_ms"}
//   DIR/scores.npy    float32, heads × N × M (the heads listed in result.json, in that order)
//   DIR/weights.npy   float32, heads × N × M
//   DIR/context.npy   float32, heads × N × d_v
//   DIR/output.npy    float32, N × (H·d_v or d_out)
//   DIR/mask.npy      uint8, N × M, 1 = visible

#include <cstdint>
#include <filesystem>
#include <vector>

#include "core/attention/result.h"

namespace attnviz::exporting {

// The bytes write_result_arrays writes for these shapes (`heads` of them written; `matrices`
// false when the scores and weights are empty, as the tiled kernel leaves them): known before
// anything is computed, so an output too large can be refused first.
std::uint64_t result_arrays_bytes(std::uint64_t heads, std::uint64_t n, std::uint64_t m, std::uint64_t d_v,
                                  std::uint64_t d_out, std::uint64_t tokens_text_bytes, bool matrices);

// Writes the arrays of `heads` (every head when empty) into the folder `dir` (created when
// missing), all or nothing (file_set.h). Returns the files written. Throws FileWriteError.
std::vector<std::filesystem::path> write_result_arrays(const Result& result, const std::vector<int>& heads,
                                                       const std::filesystem::path& dir);

}  // namespace attnviz::exporting
