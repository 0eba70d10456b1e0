// The result reader (core/attention/result_json, for tests and tools) on arbitrary bytes: a
// Result or an error (InputError, or the JSON library's type errors), never a crash.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/attention/result_json.h"
#include "core/common/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)attnviz::parse_result(text, "fuzz.json");
  } catch (const attnviz::InputError&) {
  } catch (const nlohmann::json::exception&) {
  }
  return 0;
}
