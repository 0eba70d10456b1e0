#include "core/model/safetensors.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>
#include <filesystem>

#include "core/common/error.h"
#include "core/common/input_file.h"
#include "core/common/text_excerpt.h"
#include "core/model/cancelled.h"
#include "core/model/checked.h"
#include "core/scenario/json_error_pointer.h"
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
  if (name == "I8" || name == "U8" || name == "BOOL" || name == "F8_E4M3" || name == "F8_E5M2")
    return {TensorType::Other, 1};
  return {TensorType::Other, 0};
}

std::uint64_t unsigned_field(const json& value, const std::string& file, const std::string& where) {
  if (!value.is_number_unsigned()) throw InputError(file, where, "must be a whole number ≥ 0");
  return value.get<std::uint64_t>();
}

TensorRecord read_entry(const MappedFile& file, const std::string& name, const json& entry, std::uint64_t data_start,
                        std::uint64_t data_size) {
  const std::string& path = file.path();
  const std::string shown = shown_name(name);  // for messages: a name may hold escape codes
  if (!entry.is_object()) throw InputError(path, shown, "the header's entry is not an object");
  if (!entry.contains("dtype") || !entry["dtype"].is_string()) {
    throw InputError(path, shown + "/dtype", "missing or not a string");
  }
  if (!entry.contains("shape") || !entry["shape"].is_array())
    throw InputError(path, shown + "/shape", "missing or not a list");
  if (!entry.contains("data_offsets") || !entry["data_offsets"].is_array() || entry["data_offsets"].size() != 2) {
    throw InputError(path, shown + "/data_offsets", "must be a list [BEGIN, END]");
  }
  TensorRecord record;
  record.name = name;
  record.file = &file;
  record.type_name = entry["dtype"].get<std::string>();
  const DtypeInfo dtype = dtype_info(record.type_name);
  record.type = dtype.type;
  if (entry["shape"].size() > 8) throw InputError(path, shown + "/shape", "has more than 8 dimensions");
  std::uint64_t elements = 1;
  for (std::size_t i = 0; i < entry["shape"].size(); ++i) {
    const std::uint64_t dim = unsigned_field(entry["shape"][i], path, shown + "/shape/" + std::to_string(i));
    record.shape.push_back(dim);
    elements = checked_mul(elements, dim, path, shown + "/shape");
  }
  const std::uint64_t begin = unsigned_field(entry["data_offsets"][0], path, shown + "/data_offsets/0");
  const std::uint64_t end = unsigned_field(entry["data_offsets"][1], path, shown + "/data_offsets/1");
  if (end < begin) {
    throw InputError(path, shown + "/data_offsets",
                     "END " + std::to_string(end) + " is before BEGIN " + std::to_string(begin));
  }
  if (end > data_size) {
    throw InputError(path, shown + "/data_offsets",
                     "END " + std::to_string(end) + " lies past the end of the data (" + std::to_string(data_size) +
                         " bytes): the file is truncated or its header is wrong");
  }
  if (dtype.bytes != 0) {
    const std::uint64_t expected = checked_mul(elements, dtype.bytes, path, shown + "/shape");
    if (expected != end - begin) {
      throw InputError(path, shown,
                       "shape " + record.shape_text() + " of " + shown_name(record.type_name, 20) + " needs " +
                           std::to_string(expected) + " bytes but data_offsets hold " + std::to_string(end - begin));
    }
  }
  record.data = file.bytes(data_start + begin, end - begin, shown);
  return record;
}

// The JSON reader keeps the last of two equal keys: a tensor named twice (or an entry with two
// "data_offsets") would silently lose one. Refused, naming the key.
void refuse_duplicate_keys(const std::string& path, std::string_view header_text) {
  const std::vector<std::string> duplicates = duplicate_key_pointers(header_text);
  if (duplicates.empty()) return;
  const std::string& pointer = duplicates.front();
  const bool tensor = pointer.find('/', 1) == std::string::npos;
  throw InputError(path, shown_name(pointer.substr(1)),
                   tensor ? "the header names this tensor twice (the JSON reader would keep only the last)"
                          : "the header gives this field twice in one tensor's entry");
}

// Two tensors whose bytes overlap: a header that lies (each would read the other's values).
void refuse_overlaps(const std::string& path, std::vector<const TensorRecord*> records) {
  std::erase_if(records, [](const TensorRecord* r) { return r->data.empty(); });
  std::sort(records.begin(), records.end(), [](const TensorRecord* a, const TensorRecord* b) {
    return a->data.data() < b->data.data() || (a->data.data() == b->data.data() && a->name < b->name);
  });
  for (std::size_t i = 1; i < records.size(); ++i) {
    const TensorRecord& before = *records[i - 1];
    const TensorRecord& after = *records[i];
    if (after.data.data() < before.data.data() + before.data.size()) {
      const auto offsets = [&](const TensorRecord& r) {
        const auto begin = static_cast<std::uint64_t>(r.data.data() - records.front()->file->all().data());
        return std::to_string(begin) + ".." + std::to_string(begin + r.data.size());
      };
      throw InputError(path, shown_name(after.name) + "/data_offsets",
                       "its bytes (" + offsets(after) + " in the file) overlap those of tensor " +
                           shown_name(before.name) + " (" + offsets(before) + "): the header is wrong");
    }
  }
}

}  // namespace

void read_safetensors(const MappedFile& file, TensorSet& tensors, std::stop_token stop) {
  const std::string& path = file.path();
  if (file.size() < 8) {
    throw InputError(path, "header",
                     "the file has " + std::to_string(file.size()) + " bytes, too few for a safetensors header");
  }
  std::uint64_t header_size = 0;
  std::memcpy(&header_size, file.all().data(), 8);
  if (header_size > kMaxSafetensorsHeader) {
    throw InputError(path, "header",
                     "claims " + std::to_string(header_size) +
                         " bytes; a safetensors header has at most 100 MiB (is this a safetensors file?)");
  }
  const auto header = file.bytes(8, header_size, "header");
  const std::uint64_t data_start = 8 + header_size;
  const std::uint64_t data_size = file.size() - data_start;
  const std::string_view header_text(reinterpret_cast<const char*>(header.data()), header.size());
  const json root = tokenizers::parse_model_json(header_text, path, "header");
  if (!root.is_object()) throw InputError(path, "header", "must be a JSON object of tensors");
  refuse_duplicate_keys(path, header_text);
  std::size_t read = 0;
  std::vector<const TensorRecord*> in_this_file;
  for (const auto& [name, entry] : root.items()) {
    if (read++ % 256 == 0 && stop.stop_requested()) throw Cancelled();
    if (name == "__metadata__") continue;
    TensorRecord record = read_entry(file, name, entry, data_start, data_size);
    const std::string kept_name = record.name;
    tensors.add(std::move(record));
    in_this_file.push_back(tensors.find(kept_name));
  }
  refuse_overlaps(path, in_this_file);
}

ShardIndex read_shard_index(const std::string& path) {
  const std::string text = read_input_file(path, {.kind = "safetensors index"});
  const json root = tokenizers::parse_model_json(text, path);
  if (!root.is_object() || !root.contains("weight_map") || !root["weight_map"].is_object()) {
    throw InputError(path, "/weight_map", "missing or not an object of tensor names and shard files");
  }
  ShardIndex index;
  for (const auto& [tensor, shard] : root["weight_map"].items()) {
    const std::string where = shown_name(tokenizers::json_field("/weight_map", tensor));
    if (!shard.is_string()) throw InputError(path, where, "must be a shard file name");
    const std::string name = shard.get<std::string>();
    const bool plain = shown_name(name) == name;  // no control characters, quotes or backslashes
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == ".." || !plain) {
      throw InputError(path, where, quoted_excerpt(name, 60) + " is not a file name in the model's folder");
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
    const std::string where = shown_name(tokenizers::json_field("/weight_map", tensor));
    if (!record) throw InputError(index_path, where, "the tensor is not in " + shard);
    if (std::filesystem::path(record->file->path()).filename() != shard) {
      throw InputError(index_path, where, "the tensor is in " + record->file->path() + ", not in " + shard);
    }
  }
}

}  // namespace attnviz::model
