#include "core/model/tensor.h"

#include "core/common/error.h"
#include "core/common/text_excerpt.h"

namespace attnviz::model {

std::uint64_t TensorRecord::element_count() const {
  std::uint64_t count = 1;
  for (const std::uint64_t dim : shape) count *= dim;  // checked against overflow by the readers
  return count;
}

std::string TensorRecord::shape_text() const {
  if (shape.empty()) return "a scalar";
  std::string text;
  for (const std::uint64_t dim : shape) text += (text.empty() ? "" : "×") + std::to_string(dim);
  return text;
}

void TensorSet::add(TensorRecord record) {
  const std::string name = record.name;
  const std::string file = record.file ? record.file->path() : "";
  const auto [it, inserted] = tensors_.emplace(name, std::move(record));
  if (!inserted) {
    const std::string other = it->second.file ? it->second.file->path() : std::string("another file");
    throw InputError(file, shown_name(name),
                     other == file ? "the file has two tensors of this name" : "the tensor is also in " + other);
  }
}

const TensorRecord* TensorSet::find(const std::string& name) const {
  const auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : &it->second;
}

const TensorRecord& TensorSet::require(const std::string& name, const std::string& origin) const {
  if (const TensorRecord* record = find(name)) return *record;
  throw InputError(origin, shown_name(name),
                   "the model has no tensor of this name (" + std::to_string(tensors_.size()) + " tensors read)");
}

BlockLayout block_layout(TensorType type) {
  switch (type) {
    case TensorType::F32: return {1, 4};
    case TensorType::F16:
    case TensorType::BF16: return {1, 2};
    case TensorType::Q8_0: return {32, 34};    // f16 scale, 32 int8
    case TensorType::Q4_0: return {32, 18};    // f16 scale, 16 bytes of nibbles
    case TensorType::Q4_K: return {256, 144};  // f16 d, f16 dmin, 12 bytes of 6-bit scales, 128 bytes of nibbles
    case TensorType::Q6_K: return {256, 210};  // 128 bytes low nibbles, 64 bytes high bits, 16 int8 scales, f16 d
    case TensorType::Other: break;
  }
  return {1, 0};
}

const char* type_name(TensorType type) {
  switch (type) {
    case TensorType::F32: return "F32";
    case TensorType::F16: return "F16";
    case TensorType::BF16: return "BF16";
    case TensorType::Q8_0: return "Q8_0";
    case TensorType::Q4_0: return "Q4_0";
    case TensorType::Q4_K: return "Q4_K";
    case TensorType::Q6_K: return "Q6_K";
    case TensorType::Other: break;
  }
  return "unknown";
}

}  // namespace attnviz::model
