#pragma once
// The safetensors format (Hugging Face): an 8-byte little-endian header length, a JSON header
// {"NAME": {"dtype": "F32", "shape": [..], "data_offsets": [BEGIN, END]}, "__metadata__": {..}}
// and the tensors' bytes, offsets counted from the end of the header. Every offset and shape is
// checked against the file before anything is read.

#include <stop_token>
#include <string>
#include <vector>

#include "core/model/mapped_file.h"
#include "core/model/tensor.h"

namespace attnviz::model {

// A header larger than this is refused (the format's own limit).
inline constexpr std::uint64_t kMaxSafetensorsHeader = 100ull << 20;

// Every tensor of `file` into `tensors`. Throws InputError(file, tensor or "header", problem),
// Cancelled (cancelled.h) once `stop` is requested.
void read_safetensors(const MappedFile& file, TensorSet& tensors, std::stop_token stop = {});

// A sharded checkpoint's model.safetensors.index.json: the shard file names (in the index's
// folder) in first-use order, each tensor's shard checked after the shards are read.
struct ShardIndex {
  std::vector<std::string> shards;
  std::vector<std::pair<std::string, std::string>> tensor_shards;  // tensor name, shard file name
};
ShardIndex read_shard_index(const std::string& path);
// Throws InputError when a tensor the index names is not in the shard it names.
void check_shard_index(const ShardIndex& index, const TensorSet& tensors, const std::string& index_path);

}  // namespace attnviz::model
