#include "core/model/gguf.h"

#include <cstring>

#include "core/common/error.h"
#include "core/common/text_excerpt.h"
#include "core/model/cancelled.h"
#include "core/model/checked.h"

namespace attnviz::model {
namespace {

constexpr std::uint32_t kMaxNameBytes = 1 << 16;
constexpr int kMaxArrayNesting = 4;

enum ValueType : std::uint32_t {
  kUint8 = 0,
  kInt8 = 1,
  kUint16 = 2,
  kInt16 = 3,
  kUint32 = 4,
  kInt32 = 5,
  kFloat32 = 6,
  kBool = 7,
  kString = 8,
  kArray = 9,
  kUint64 = 10,
  kInt64 = 11,
  kFloat64 = 12,
};

// ggml's tensor type numbers (ggml.h), with the names llama.cpp gives them.
struct GgmlType {
  TensorType type;
  const char* name;
};
GgmlType ggml_type(std::uint32_t id) {
  static const char* const names[] = {"F32",     "F16",    "Q4_0",    "Q4_1",  "Q4_2",   "Q4_3",  "Q5_0",  "Q5_1",
                                      "Q8_0",    "Q8_1",   "Q2_K",    "Q3_K",  "Q4_K",   "Q5_K",  "Q6_K",  "Q8_K",
                                      "IQ2_XXS", "IQ2_XS", "IQ3_XXS", "IQ1_S", "IQ4_NL", "IQ3_S", "IQ2_S", "IQ4_XS",
                                      "I8",      "I16",    "I32",     "I64",   "F64",    "IQ1_M", "BF16"};
  switch (id) {
    case 0: return {TensorType::F32, "F32"};
    case 1: return {TensorType::F16, "F16"};
    case 2: return {TensorType::Q4_0, "Q4_0"};
    case 8: return {TensorType::Q8_0, "Q8_0"};
    case 12: return {TensorType::Q4_K, "Q4_K"};
    case 14: return {TensorType::Q6_K, "Q6_K"};
    case 30: return {TensorType::BF16, "BF16"};
    default: break;
  }
  return {TensorType::Other, id < std::size(names) ? names[id] : nullptr};
}

// Reads the file front to back; every read is bounds-checked by MappedFile::bytes.
class Cursor {
 public:
  explicit Cursor(const MappedFile& file) : file_(file) {}

  template <typename T>
  T read(const std::string& what) {
    T value{};
    std::memcpy(&value, file_.bytes(offset_, sizeof(T), what).data(), sizeof(T));
    offset_ += sizeof(T);
    return value;
  }

  std::string string(const std::string& what, std::uint64_t max_bytes = UINT64_MAX) {
    const auto length = read<std::uint64_t>(what);
    if (length > max_bytes)
      fail(what, "a string of " + std::to_string(length) + " bytes is longer than allowed (" +
                     std::to_string(max_bytes) + ")");
    const auto bytes = file_.bytes(offset_, length, what);
    offset_ += length;
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
  }

  // A count of items, each at least `min_item_bytes` long: more than the rest of the file holds
  // is refused before anything is allocated for them.
  std::uint64_t count(const std::string& what, std::uint64_t min_item_bytes) {
    const auto n = read<std::uint64_t>(what);
    const std::uint64_t left = file_.size() - offset_;
    if (min_item_bytes > 0 && n > left / min_item_bytes) {
      fail(what, "claims " + std::to_string(n) + " items, more than the " + std::to_string(left) +
                     " bytes left in the file can hold: the file is truncated or its header is wrong");
    }
    return n;
  }

  [[noreturn]] void fail(const std::string& what, const std::string& problem) const {
    throw InputError(file_.path(), what, problem);
  }
  [[nodiscard]] std::uint64_t offset() const { return offset_; }

 private:
  const MappedFile& file_;
  std::uint64_t offset_ = 0;
};

std::uint64_t scalar_bytes(std::uint32_t type) {
  switch (type) {
    case kUint8:
    case kInt8:
    case kBool: return 1;
    case kUint16:
    case kInt16: return 2;
    case kUint32:
    case kInt32:
    case kFloat32: return 4;
    case kUint64:
    case kInt64:
    case kFloat64: return 8;
    case kString: return 8;  // at least its length
    default: return 0;
  }
}

// One scalar as an integer or a float (kind says which).
void read_scalar(Cursor& cursor, std::uint32_t type, const std::string& key, GgufValue& out) {
  out.kind = GgufValue::Kind::Integer;
  switch (type) {
    case kUint8: out.integer = cursor.read<std::uint8_t>(key); return;
    case kInt8: out.integer = cursor.read<std::int8_t>(key); return;
    case kUint16: out.integer = cursor.read<std::uint16_t>(key); return;
    case kInt16: out.integer = cursor.read<std::int16_t>(key); return;
    case kUint32: out.integer = cursor.read<std::uint32_t>(key); return;
    case kInt32: out.integer = cursor.read<std::int32_t>(key); return;
    case kInt64: out.integer = cursor.read<std::int64_t>(key); return;
    case kUint64: {
      const auto value = cursor.read<std::uint64_t>(key);
      out.integer = value > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(value);
      return;
    }
    case kBool: {
      const auto value = cursor.read<std::uint8_t>(key);
      if (value > 1) cursor.fail(key, "a bool must be 0 or 1, not " + std::to_string(value));
      out.kind = GgufValue::Kind::Bool;
      out.integer = value;
      return;
    }
    case kFloat32:
      out.kind = GgufValue::Kind::Float;
      out.number = cursor.read<float>(key);
      return;
    case kFloat64:
      out.kind = GgufValue::Kind::Float;
      out.number = cursor.read<double>(key);
      return;
    default: cursor.fail(key, "unknown value type " + std::to_string(type));
  }
}

void skip_array(Cursor& cursor, const std::string& key, int depth);

void read_array(Cursor& cursor, const std::string& key, GgufValue& out) {
  const auto type = cursor.read<std::uint32_t>(key);
  if (type == kArray) {
    // Arrays of arrays: no key attnviz reads has them; skipped, bounded in depth.
    const std::uint64_t n = cursor.count(key, 12);
    for (std::uint64_t i = 0; i < n; ++i) skip_array(cursor, key, 1);
    out.kind = GgufValue::Kind::Other;
    return;
  }
  const std::uint64_t min_bytes = scalar_bytes(type);
  if (min_bytes == 0) cursor.fail(key, "unknown array element type " + std::to_string(type));
  const std::uint64_t n = cursor.count(key, min_bytes);
  if (type == kString) {
    out.kind = GgufValue::Kind::StringArray;
    out.strings.reserve(n);
    for (std::uint64_t i = 0; i < n; ++i)
      out.strings.push_back(cursor.string(key + "/" + std::to_string(i), kMaxNameBytes));
    return;
  }
  const bool floats = type == kFloat32 || type == kFloat64;
  out.kind = floats ? GgufValue::Kind::FloatArray : GgufValue::Kind::IntegerArray;
  (floats ? out.numbers.reserve(n) : out.integers.reserve(n));
  GgufValue item;
  for (std::uint64_t i = 0; i < n; ++i) {
    read_scalar(cursor, type, key, item);
    if (floats)
      out.numbers.push_back(item.number);
    else
      out.integers.push_back(item.integer);
  }
}

void skip_array(Cursor& cursor, const std::string& key, int depth) {
  if (depth > kMaxArrayNesting)
    cursor.fail(key, "arrays nested more than " + std::to_string(kMaxArrayNesting) + " deep");
  const auto type = cursor.read<std::uint32_t>(key);
  if (type == kArray) {
    const std::uint64_t n = cursor.count(key, 12);
    for (std::uint64_t i = 0; i < n; ++i) skip_array(cursor, key, depth + 1);
    return;
  }
  const std::uint64_t min_bytes = scalar_bytes(type);
  if (min_bytes == 0) cursor.fail(key, "unknown array element type " + std::to_string(type));
  const std::uint64_t n = cursor.count(key, min_bytes);
  GgufValue item;
  for (std::uint64_t i = 0; i < n; ++i) {
    if (type == kString)
      (void)cursor.string(key, kMaxNameBytes);
    else
      read_scalar(cursor, type, key, item);
  }
}

GgufValue read_value(Cursor& cursor, const std::string& key) {
  const auto type = cursor.read<std::uint32_t>(key);
  GgufValue value;
  if (type == kString) {
    value.kind = GgufValue::Kind::String;
    value.text = cursor.string(key);
  } else if (type == kArray) {
    read_array(cursor, key, value);
  } else {
    read_scalar(cursor, type, key, value);
  }
  return value;
}

struct PendingTensor {
  TensorRecord record;
  std::uint64_t offset = 0;
  std::uint64_t bytes = 0;  // 0 for a type attnviz does not read (its size is unknown)
};

PendingTensor read_tensor_info(Cursor& cursor, const std::string& path, std::uint64_t index) {
  PendingTensor pending;
  TensorRecord& record = pending.record;
  record.name = cursor.string("tensor " + std::to_string(index) + " name", kMaxNameBytes);
  const std::string name = shown_name(record.name);  // for messages: a name may hold escape codes
  const auto dims = cursor.read<std::uint32_t>(name);
  if (dims > 8) cursor.fail(name, "has " + std::to_string(dims) + " dimensions; GGUF allows at most 8 here");
  std::vector<std::uint64_t> innermost_first(dims);
  std::uint64_t elements = 1;
  for (auto& dim : innermost_first) {
    dim = cursor.read<std::uint64_t>(name);
    elements = checked_mul(elements, dim, path, name);
  }
  record.shape.assign(innermost_first.rbegin(), innermost_first.rend());
  const auto type_id = cursor.read<std::uint32_t>(name);
  const GgmlType type = ggml_type(type_id);
  record.type = type.type;
  record.type_name = type.name ? type.name : "type " + std::to_string(type_id);
  pending.offset = cursor.read<std::uint64_t>(name);
  if (record.type != TensorType::Other) {
    const BlockLayout layout = block_layout(record.type);
    const std::uint64_t row = innermost_first.empty() ? 1 : innermost_first.front();
    if (row % layout.elements != 0) {
      cursor.fail(name, "rows of " + std::to_string(row) + " elements are not whole " + record.type_name +
                            " blocks of " + std::to_string(layout.elements));
    }
    pending.bytes = checked_mul(elements / layout.elements, layout.bytes, path, name);
  }
  return pending;
}

std::uint64_t alignment_of(const GgufFile& gguf, const std::string& path) {
  const auto it = gguf.metadata.find("general.alignment");
  if (it == gguf.metadata.end()) return 32;
  const GgufValue& value = it->second;
  if (value.kind != GgufValue::Kind::Integer || value.integer <= 0 || value.integer > (1 << 20) ||
      (value.integer & (value.integer - 1)) != 0) {
    throw InputError(path, "general.alignment", "must be a power of two up to 1048576");
  }
  return static_cast<std::uint64_t>(value.integer);
}

}  // namespace

GgufFile read_gguf(const MappedFile& file, std::stop_token stop) {
  const std::string& path = file.path();
  Cursor cursor(file);
  if (file.size() < 4 || std::memcmp(file.all().data(), "GGUF", 4) != 0) {
    throw InputError(path, "header", "does not start with \"GGUF\": not a GGUF file");
  }
  (void)cursor.read<std::uint32_t>("header");
  GgufFile gguf;
  gguf.version = cursor.read<std::uint32_t>("version");
  if (gguf.version != 2 && gguf.version != 3) {
    throw InputError(path, "version",
                     "GGUF version " + std::to_string(gguf.version) + " is not read (versions 2 and 3 are)");
  }
  const std::uint64_t tensor_count = cursor.read<std::uint64_t>("tensor count");
  const std::uint64_t kv_count = cursor.count("metadata count", 13);
  auto check_stop = [&](std::uint64_t i) {
    if (i % 256 == 0 && stop.stop_requested()) throw Cancelled();
  };
  for (std::uint64_t i = 0; i < kv_count; ++i) {
    check_stop(i);
    std::string key = cursor.string("metadata key " + std::to_string(i), kMaxNameBytes);
    const std::string shown = shown_name(key);  // for messages: a key may hold escape codes
    GgufValue value = read_value(cursor, shown);
    if (!gguf.metadata.emplace(std::move(key), std::move(value)).second) {
      cursor.fail(shown, "the metadata gives this key twice (which one holds?)");
    }
  }
  if (tensor_count > (file.size() - cursor.offset()) / 24) {
    cursor.fail("tensor count", "claims " + std::to_string(tensor_count) + " tensors, more than the file can describe");
  }
  std::vector<PendingTensor> pending;
  pending.reserve(tensor_count);
  for (std::uint64_t i = 0; i < tensor_count; ++i) {
    check_stop(i);
    pending.push_back(read_tensor_info(cursor, path, i));
  }
  const std::uint64_t alignment = alignment_of(gguf, path);
  const std::uint64_t data_start =
      checked_add(cursor.offset(), alignment - 1, path, "tensor data") / alignment * alignment;
  for (PendingTensor& tensor : pending) {
    const std::string shown = shown_name(tensor.record.name);
    if (tensor.offset % alignment != 0) {
      cursor.fail(shown, "offset " + std::to_string(tensor.offset) + " is not a multiple of the alignment " +
                             std::to_string(alignment));
    }
    const std::uint64_t begin = checked_add(data_start, tensor.offset, path, shown);
    tensor.record.data = file.bytes(begin, tensor.bytes, shown);
    tensor.record.file = &file;
    gguf.tensors.add(std::move(tensor.record));
  }
  return gguf;
}

const GgufValue& GgufMetadata::value(const std::string& key) const {
  const auto it = gguf_.metadata.find(key);
  if (it == gguf_.metadata.end()) throw InputError(path_, key, "missing from the file's metadata");
  return it->second;
}

std::string GgufMetadata::string(const std::string& key) const {
  const GgufValue& v = value(key);
  if (v.kind != GgufValue::Kind::String) throw InputError(path_, key, "must be a string");
  return v.text;
}

std::int64_t GgufMetadata::integer(const std::string& key) const {
  const GgufValue& v = value(key);
  if (v.kind != GgufValue::Kind::Integer) throw InputError(path_, key, "must be a whole number");
  return v.integer;
}

std::optional<std::int64_t> GgufMetadata::optional_integer(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  return integer(key);
}

double GgufMetadata::number(const std::string& key) const {
  const GgufValue& v = value(key);
  if (v.kind == GgufValue::Kind::Integer) return static_cast<double>(v.integer);
  if (v.kind != GgufValue::Kind::Float) throw InputError(path_, key, "must be a number");
  return v.number;
}

std::optional<double> GgufMetadata::optional_number(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  return number(key);
}

std::optional<bool> GgufMetadata::optional_bool(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  const GgufValue& v = value(key);
  if (v.kind != GgufValue::Kind::Bool && v.kind != GgufValue::Kind::Integer)
    throw InputError(path_, key, "must be a bool");
  return v.integer != 0;
}

const std::vector<std::string>& GgufMetadata::strings(const std::string& key) const {
  const GgufValue& v = value(key);
  if (v.kind != GgufValue::Kind::StringArray) throw InputError(path_, key, "must be an array of strings");
  return v.strings;
}

std::vector<double> GgufMetadata::numbers(const std::string& key) const {
  const GgufValue& v = value(key);
  if (v.kind == GgufValue::Kind::FloatArray) return v.numbers;
  if (v.kind == GgufValue::Kind::IntegerArray) return {v.integers.begin(), v.integers.end()};
  throw InputError(path_, key, "must be an array of numbers");
}

}  // namespace attnviz::model
