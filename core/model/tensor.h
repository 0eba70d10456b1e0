#pragma once
// A tensor as a model file holds it: its name, element type, shape and bytes (inside a
// MappedFile), and the set of a model's tensors by name. Shapes are in PyTorch's order,
// outermost first, in both formats (GGUF lists dimensions innermost first; the reader reverses
// them): a linear layer's weight is {outputs, inputs} as nn.Linear stores it, GPT-2's Conv1D
// {inputs, outputs}.

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "core/model/mapped_file.h"

namespace attnviz::model {

// The element types attnviz dequantises; Other is any other type a file names (an int64
// position table, a quantisation attnviz does not read): it is an error only when the tensor
// is needed.
enum class TensorType { F32, F16, BF16, Q8_0, Q4_0, Q4_K, Q6_K, Other };

struct TensorRecord {
  std::string name;
  TensorType type = TensorType::F32;
  std::string type_name;             // as the file names it: "F32", "BF16", "Q4_K", "I64", "type 23"
  std::vector<std::uint64_t> shape;  // outermost first
  std::span<const std::byte> data;   // exactly the tensor's bytes, inside `file`
  const MappedFile* file = nullptr;

  [[nodiscard]] std::uint64_t element_count() const;  // checked when the file was read
  [[nodiscard]] std::string shape_text() const;       // "768×2304"
};

class TensorSet {
 public:
  // Throws InputError when a tensor of the same name is already there (two shards disagree).
  void add(TensorRecord record);
  [[nodiscard]] const TensorRecord* find(const std::string& name) const;
  [[nodiscard]] bool contains(const std::string& name) const { return find(name) != nullptr; }
  // The tensor, or InputError naming `origin` (the model's folder or file) and the tensor.
  [[nodiscard]] const TensorRecord& require(const std::string& name, const std::string& origin) const;
  [[nodiscard]] const std::map<std::string, TensorRecord>& all() const { return tensors_; }

 private:
  std::map<std::string, TensorRecord> tensors_;
};

// Elements per block and bytes per block of a type (1 and the element size for float types).
struct BlockLayout {
  std::uint64_t elements = 1;
  std::uint64_t bytes = 4;
};
BlockLayout block_layout(TensorType type);
const char* type_name(TensorType type);

}  // namespace attnviz::model
