#pragma once
// attnviz-result/1 (docs/design.md "Result file").

#include <string>
#include <string_view>

#include "core/attention/result.h"

namespace attnviz {

std::string result_to_json(const Result& result);
// For tests and tools that read results back. Throws InputError on malformed input.
Result parse_result(std::string_view json_text, const std::string& origin);

}  // namespace attnviz
