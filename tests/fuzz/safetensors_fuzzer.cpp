// The safetensors reader (core/model) on arbitrary bytes (safetensors_checks.h says what is
// checked).

#include <cstddef>
#include <cstdint>

#include "safetensors_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  attnviz::fuzzing::check_safetensors(std::span<const std::byte>(reinterpret_cast<const std::byte*>(data), size));
  return 0;
}
