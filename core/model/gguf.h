#pragma once
// GGUF, llama.cpp's model format (versions 2 and 3): a header, typed metadata key/values (the
// architecture's sizes, the tokenizer's vocabulary), tensor descriptions and the aligned tensor
// data. Dimensions are listed innermost first in the file; TensorRecord::shape has them
// outermost first like the safetensors reader. Every count, length and offset is checked
// against the file before it is used.

#include <cstdint>
#include <map>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/model/mapped_file.h"
#include "core/model/tensor.h"

namespace attnviz::model {

// One metadata value: a number, a bool, a string, or an array of numbers or strings.
struct GgufValue {
  enum class Kind { Integer, Float, Bool, String, IntegerArray, FloatArray, StringArray, Other };
  Kind kind = Kind::Other;
  std::int64_t integer = 0;  // Integer, Bool (0 or 1)
  double number = 0.0;       // Float
  std::string text;          // String
  std::vector<std::int64_t> integers;
  std::vector<double> numbers;
  std::vector<std::string> strings;
};

struct GgufFile {
  std::uint32_t version = 0;
  std::map<std::string, GgufValue> metadata;
  TensorSet tensors;
};

// Throws InputError(file, key or tensor name, problem), Cancelled (cancelled.h) once `stop` is
// requested (checked between metadata values and tensor descriptions).
GgufFile read_gguf(const MappedFile& file, std::stop_token stop = {});

// Typed access to metadata, naming the file and the key on error.
class GgufMetadata {
 public:
  GgufMetadata(const GgufFile& gguf, std::string path) : gguf_(gguf), path_(std::move(path)) {}
  [[nodiscard]] bool has(const std::string& key) const { return gguf_.metadata.contains(key); }
  [[nodiscard]] std::string string(const std::string& key) const;
  [[nodiscard]] std::int64_t integer(const std::string& key) const;
  [[nodiscard]] std::optional<std::int64_t> optional_integer(const std::string& key) const;
  [[nodiscard]] double number(const std::string& key) const;  // an integer or a float
  [[nodiscard]] std::optional<double> optional_number(const std::string& key) const;
  [[nodiscard]] std::optional<bool> optional_bool(const std::string& key) const;
  [[nodiscard]] const std::vector<std::string>& strings(const std::string& key) const;
  [[nodiscard]] std::vector<double> numbers(const std::string& key) const;  // integer or float arrays
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  const GgufValue& value(const std::string& key) const;
  const GgufFile& gguf_;
  std::string path_;
};

}  // namespace attnviz::model
