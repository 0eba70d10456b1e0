#pragma once
// What the safetensors fuzz targets check on a file's bytes (safetensors_fuzzer on arbitrary
// bytes, safetensors_structured_fuzzer on generated files): tensors or an InputError, never a
// crash; every tensor it accepts lies inside the input and overlaps no other, and its values can
// be read; a message never carries an escape character raw (names are quoted).

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include "core/common/error.h"
#include "core/model/dequantize.h"
#include "core/model/safetensors.h"

namespace attnviz::fuzzing {

inline void check_safetensors(std::span<const std::byte> bytes) {
  const auto file = attnviz::model::MappedFile::borrow("fuzz.safetensors", bytes);
  attnviz::model::TensorSet tensors;
  try {
    attnviz::model::read_safetensors(file, tensors);
  } catch (const attnviz::InputError& e) {
    if (std::strchr(e.what(), '\x1b') != nullptr) std::abort();
    return;
  }
  std::vector<std::span<const std::byte>> spans;
  for (const auto& [name, tensor] : tensors.all()) {
    if (tensor.data.data() < bytes.data() || tensor.data.data() + tensor.data.size() > bytes.data() + bytes.size())
      std::abort();
    if (!tensor.data.empty()) spans.push_back(tensor.data);
    if (tensor.type == attnviz::model::TensorType::Other || tensor.element_count() > (1u << 20)) continue;
    std::vector<float> values(tensor.element_count());
    attnviz::model::dequantize(tensor.type, tensor.data, tensor.element_count(), values.data());
  }
  std::sort(spans.begin(), spans.end(), [](auto a, auto b) { return a.data() < b.data(); });
  for (std::size_t i = 1; i < spans.size(); ++i) {
    if (spans[i].data() < spans[i - 1].data() + spans[i - 1].size()) std::abort();
  }
}

}  // namespace attnviz::fuzzing
