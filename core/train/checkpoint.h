#pragma once
// The folders `attnviz train` writes, which every other view opens as a GPT-2 model folder:
//   config.json        GPT2LMHeadModel, the Hugging Face field names core/model reads
//   model.safetensors  F32, Hugging Face GPT-2 tensor names, Conv1D weights [in, out]
//   vocab.json, merges.txt   the byte-level tokenizer (256 byte tokens, no merges), or the
//                      tokenizer files of the model training began from (--init)
//   task.json          {"task", "context", "token_ids"}
// and, to resume, optimizer.safetensors (Adam's moments as "m.NAME", "v.NAME") and
// training_state.json. Every file is written atomically (core/common/atomic_file.h); a
// checkpoint folder is written under a temporary name and renamed, so a full disk leaves the
// previous checkpoint whole.

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "core/train/parameters.h"

namespace attnviz::train {

// What a model folder holds besides the weights.
struct FolderContents {
  std::string task;  // "induction" | "text"
  int context = 0;
  std::vector<int> token_ids;
  long step = 0;  // written into the safetensors metadata
  // The tokenizer's files to copy into the folder (an --init model's); empty: the byte-level one.
  std::vector<std::filesystem::path> tokenizer_files;
};

// config.json, model.safetensors, vocab.json, merges.txt and task.json into `folder` (created).
void write_model_folder(const std::filesystem::path& folder, const ModelShape& shape, std::span<const float> parameters,
                        const FolderContents& contents);

// `folder`/checkpoints/step-N as write_model_folder, complete or not at all.
void write_checkpoint(const std::filesystem::path& folder, const ModelShape& shape, std::span<const float> parameters,
                      const FolderContents& contents);

// The tensors of layout as one safetensors file: `prefix` + name, F32, metadata {"step": step}.
void write_safetensors(const std::filesystem::path& path, const std::vector<TensorSpec>& layout,
                       const std::vector<std::pair<std::string, std::span<const float>>>& buffers, long step);

// An F32 safetensors file read back: each tensor's floats by name, and the metadata.
struct SafetensorsFile {
  std::map<std::string, std::vector<float>> tensors;
  std::map<std::string, std::vector<int>> shapes;
  nlohmann::json metadata;
};
SafetensorsFile read_safetensors(const std::filesystem::path& path);

// The byte-level tokenizer's vocab.json: GPT-2's printable spelling of each byte, id = byte.
std::string byte_vocab_json();

}  // namespace attnviz::train
