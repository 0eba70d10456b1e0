#pragma once
// attnviz-result/1 (docs/design.md "Result file").

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/attention/result.h"

namespace attnviz {

// Writes the result's JSON to `sink` in pieces of about 1 MiB, as it goes: besides the Result
// it holds one piece, however many numbers there are (16 heads of 4096 × 4096 scores and
// weights are 537 million numbers, several GB of text). One matrix row per line, every float
// in the shortest text that reads back to the same float32, non-finite values as null.
// `heads`: only these heads, in this order, each with its "head" number (attnviz compute
// --heads); null: every head, as the format has always been written.
void write_result_json(const Result& result, const std::function<void(std::string_view)>& sink,
                       const std::vector<int>* heads = nullptr);

// The same bytes in one string (tests, small results).
std::string result_to_json(const Result& result);

// For tests and tools that read results back. Throws InputError on malformed input.
Result parse_result(std::string_view json_text, const std::string& origin);

}  // namespace attnviz
