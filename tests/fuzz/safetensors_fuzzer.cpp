// The safetensors reader (core/model) on arbitrary bytes: tensors or an InputError, never a
// crash; every tensor it accepts lies inside the input, and its float values can be read.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "core/common/error.h"
#include "core/model/dequantize.h"
#include "core/model/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  const auto file = attnviz::model::MappedFile::borrow("fuzz.safetensors", bytes);
  attnviz::model::TensorSet tensors;
  try {
    attnviz::model::read_safetensors(file, tensors);
  } catch (const attnviz::InputError&) {
    return 0;
  }
  for (const auto& [name, tensor] : tensors.all()) {
    if (tensor.data.data() < bytes.data() || tensor.data.data() + tensor.data.size() > bytes.data() + bytes.size()) std::abort();
    if (tensor.type == attnviz::model::TensorType::Other || tensor.element_count() > (1u << 20)) continue;
    std::vector<float> values(tensor.element_count());
    attnviz::model::dequantize(tensor.type, tensor.data, tensor.element_count(), values.data());
  }
  return 0;
}
