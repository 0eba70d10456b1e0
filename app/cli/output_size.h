#pragma once
// How large `attnviz compute`'s output will be, known from the problem's shapes before anything
// is computed, and the limit beyond which it is refused unless asked for (--max-output): eight
// heads of 4096 tokens are about 3 GB of JSON, which a user trying the command should not find
// on their disk without a word.

#include <cstdint>
#include <optional>
#include <string>

#include "core/scenario/problem.h"

namespace attnviz::cli {

inline constexpr std::uint64_t kDefaultMaxOutput = std::uint64_t{1} << 30;  // 1 GiB

struct OutputPlan {
  int heads = 0;         // heads written (of the problem's)
  bool matrices = true;  // N × M scores and weights (not with --kernel tiled)
};

// The JSON text's size, estimated (the numbers' text varies; about 12 bytes a number with its
// separator, measured on weights and scores), and the NPY folder's, exact.
std::uint64_t estimated_json_bytes(const Problem& problem, const OutputPlan& plan);
std::uint64_t npy_bytes(const Problem& problem, const OutputPlan& plan);

// --max-output: "500M", "2G", "1.5G", "800K", "12345" (bytes), or "none". Throws InputError
// naming the option.
std::optional<std::uint64_t> parse_max_output(const std::string& text);

// "2.9 GB", "380 MB", "12 KB": decimal units, two or three significant digits.
std::string size_text(std::uint64_t bytes);

}  // namespace attnviz::cli
