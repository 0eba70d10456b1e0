#include "core/model/safetensors.h"

#include <cstring>
#include <filesystem>

#include "core/common/error.h"
#include "core/common/input_file.h"
#include "core/model/checked.h"
#include "core/tokenizers/json_input.h"

namespace attnviz::model {
namespace {

using nlohmann::json;

struct DtypeInfo {
  TensorType type;
  std::uint64_t bytes;  // per element; 0 for a name this reader does not know
};

DtypeInfo dtype_info(const std::string& name) {
  if (name == "F32") return {TensorType::F32, 4};
  if (name == "F16") return {TensorType::F16, 2};
  if (name == "BF16") return {TensorType::BF16, 2};
  // Types a checkpoint may hold besides its weights (BERT's int64 position ids): read as
  // Other, an error only when a tensor of that type is needed.
  if (name == "F64" || name == "I64" || name == "U64") return {TensorType::Other, 8};
  if (name == "I32" || name == "U32") return {TensorType::Other, 4};
  if (name == "I16" || name == "U16") return {TensorType::Other, 2};
  if (name == "I8" || name == "U8" || name == "BOOL" || name == "F8_E4M3" || name == "F8_E5M2") return {TensorType::Other, 1};
  return {TensorType::Other, 0};
}

std::uint64_t unsigned_field(const json& value, const std::string& file, const std::string& where) {
  if (!value.is_number_unsigned()) throw InputError(file, where, "must be a whole number ≥ 0");
  return value.get<std::uint64_t>();
}

TensorRecord read_entry(const MappedFile& file, const std::string& name, const json& entry, std::uint64_t data_start,
                        std::uint64_t data_size) {
  const std::string& path = file.path();
  if (!entry.is_object()) throw InputError(path, name, "the header's entry is not an object");
  if (!entry.contains("dtype") || !entry["dtype"].is_string()) throw InputError(path, name + "/dtype", "missing or not a string");
  if (!entry.contains("shape") || !entry["shape"].is_array()) throw InputError(path, name + "/shape", "missing or not a list");
  if (!entry.contains("data_offsets") || !entry["data_offsets"].is_array() || entry["data_offsets"].size() != 2) {
    throw InputError(path, name + "/data_offsets", "must be a list [BEGIN, END]");
  }
  TensorRecord record;
  record.name = name;
  record.file = &file;
  record.type_name = entry["dtype"].get<std::string>();
  const DtypeInfo dtype = dtype_info(record.type_name);
  record.type = dtype.type;
  if (entry["shape"].size() > 8) throw InputError(path, name + "/shape", "has more than 8 dimensions");
  std::uint64_t elements = 1;
  for (std::size_t i = 0; i < entry["shape"].size(); ++i) {
    const std::uint64_t dim = unsigned_field(entry["shape"][i], path, name + "/shape/" + std::to_string(i));
    record.shape.push_back(dim);
    elements = checked_mul(elements, dim, path, name + "/shape");
  }
  const std::uint64_t begin = unsigned_field(entry["data_offsets"][0], path, name + "/data_offsets/0");
  const std::uint64_t end = unsigned_field(entry["data_offsets"][1], path, name + "/data_offsets/1");
  if (end < begin) throw InputError(path, name + "/data_offsets", "END " + std::to_string(end) + " is before BEGIN " + std::to_string(begin));
  if (end > data_size) {
    throw InputError(path, name + "/data_offsets",
                     "END " + std::to_string(end) + " lies past the end of the data (" + std::to_string(data_size) +
                         " bytes): the file is truncated or its header is wrong");
  }
  if (dtype.bytes != 0) {
    const std::uint64_t expected = checked_mul(elements, dtype.bytes, path, name + "/shape");
    if (expected != end - begin) {
      throw InputError(path, name,
                       "shape " + record.shape_text() + " of " + record.type_name + " needs " + std::to_string(expected) +
                           " bytes but data_offsets hold " + std::to_string(end - begin));
    }
  }
  record.data = file.bytes(data_start + begin, end - begin, name);
  return record;
}

}  // namespace

void read_safetensors(const MappedFile& file, TensorSet& tensors) {
  const std::string& path = file.path();
  if (file.size() < 8) {
    throw InputError(path, "header", "the file has " + std::to_string(file.size()) + " bytes, too few for a safetensors header");
  }
  std::uint64_t header_size = 0;
  std::memcpy(&header_size, file.all().data(), 8);
  if (header_size > kMaxSafetensorsHeader) {
    throw InputError(path, "header", "claims " + std::to_string(header_size) + " bytes; a safetensors header has at most 100 MiB (is this a safetensors file?)");
  }
  const auto header = file.bytes(8, header_size, "header");
  const std::uint64_t data_start = 8 + header_size;
  const std::uint64_t data_size = file.size() - data_start;
  const json root = tokenizers::parse_model_json(
      std::string_view(reinterpret_cast<const char*>(header.data()), header.size()), path, "header");
  if (!root.is_object()) throw InputError(path, "header", "must be a JSON object of tensors");
  for (const auto& [name, entry] : root.items()) {
    if (name == "__metadata__") continue;
    tensors.add(read_entry(file, name, entry, data_start, data_size));
  }
}

ShardIndex read_shard_index(const std::string& path) {
  const std::string text = read_input_file(path, {.kind = "safetensors index"});
  const json root = tokenizers::parse_model_json(text, path);
  if (!root.is_object() || !root.contains("weight_map") || !root["weight_map"].is_object()) {
    throw InputError(path, "/weight_map", "missing or not an object of tensor names and shard files");
  }
  ShardIndex index;
  for (const auto& [tensor, shard] : root["weight_map"].items()) {
    const std::string where = tokenizers::json_field("/weight_map", tensor);
    if (!shard.is_string()) throw InputError(path, where, "must be a shard file name");
    const std::string name = shard.get<std::string>();
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") {
      throw InputError(path, where, "\"" + name.substr(0, 60) + "\" is not a file name in the model's folder");
    }
    if (std::find(index.shards.begin(), index.shards.end(), name) == index.shards.end()) index.shards.push_back(name);
    index.tensor_shards.emplace_back(tensor, name);
  }
  if (index.shards.empty()) throw InputError(path, "/weight_map", "names no tensors");
  return index;
}

void check_shard_index(const ShardIndex& index, const TensorSet& tensors, const std::string& index_path) {
  for (const auto& [tensor, shard] : index.tensor_shards) {
    const TensorRecord* record = tensors.find(tensor);
    const std::string where = tokenizers::json_field("/weight_map", tensor);
    if (!record) throw InputError(index_path, where, "the tensor is not in " + shard);
    if (std::filesystem::path(record->file->path()).filename() != shard) {
      throw InputError(index_path, where, "the tensor is in " + record->file->path() + ", not in " + shard);
    }
  }
}

}  // namespace attnviz::model
