// The GGUF reader and everything a model file drives in core/model on arbitrary bytes
// (gguf_checks.h says what is checked).

#include <cstddef>
#include <cstdint>

#include "gguf_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  attnviz::fuzzing::check_gguf(std::span<const std::byte>(reinterpret_cast<const std::byte*>(data), size));
  return 0;
}
