#include "core/train/checkpoint.h"

#include <cstring>
#include <system_error>

#include "core/common/atomic_file.h"
#include "core/common/error.h"
#include "core/common/input_file.h"
#include "core/tokenizers/bpe_tokenizer.h"
#include "core/tokenizers/unicode.h"

namespace attnviz::train {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json config_json(const ModelShape& s) {
  return {{"architectures", {"GPT2LMHeadModel"}},
          {"model_type", "gpt2"},
          {"n_embd", s.d_model},
          {"n_layer", s.layers},
          {"n_head", s.heads},
          {"n_positions", s.positions},
          {"n_ctx", s.positions},
          {"n_inner", s.d_ff()},
          {"vocab_size", s.vocab},
          {"layer_norm_epsilon", 1e-5},
          {"activation_function", "gelu_new"},
          {"tie_word_embeddings", true}};
}

void write_json_file(const fs::path& path, const json& value) { write_file_atomically(path, value.dump(2) + "\n"); }

}  // namespace

std::string byte_vocab_json() {
  json vocab = json::object();
  const std::vector<char32_t>& table = tokenizers::byte_to_unicode();
  for (std::size_t byte = 0; byte < 256; ++byte) vocab[tokenizers::encode_utf8(table[byte])] = byte;
  return vocab.dump() + "\n";
}

void write_safetensors(const fs::path& path, const std::vector<TensorSpec>& layout,
                       const std::vector<std::pair<std::string, std::span<const float>>>& buffers, long step) {
  json header = json::object();
  std::size_t offset = 0;
  for (const auto& [prefix, buffer] : buffers) {
    for (const TensorSpec& spec : layout) {
      const std::size_t bytes = spec.size * sizeof(float);
      header[prefix + spec.name] = {
          {"dtype", "F32"}, {"shape", spec.shape}, {"data_offsets", {offset, offset + bytes}}};
      offset += bytes;
    }
  }
  header["__metadata__"] = {{"format", "pt"}, {"step", std::to_string(step)}};
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // the data starts 8-byte aligned, as the library writes it
  std::uint64_t length = text.size();
  AtomicFileWriter file(path);
  file.write(std::string_view(reinterpret_cast<const char*>(&length), sizeof length));  // little-endian hosts only
  file.write(text);
  for (const auto& [prefix, buffer] : buffers) {
    // json orders the header's names, but the data follows layout order: the offsets say where.
    file.write(std::string_view(reinterpret_cast<const char*>(buffer.data()), buffer.size() * sizeof(float)));
  }
  file.commit();
}

SafetensorsFile read_safetensors(const fs::path& path) {
  const std::string bytes = read_input_file(path.string(), {.regular_files_only = true, .kind = "safetensors file"});
  std::uint64_t length = 0;
  if (bytes.size() < sizeof length) throw InputError(path.string(), "header", "the file is too short");
  std::memcpy(&length, bytes.data(), sizeof length);
  if (length > bytes.size() - sizeof length) throw InputError(path.string(), "header", "the header runs past the end");
  const json header = json::parse(bytes.substr(sizeof length, length), nullptr, false);
  if (!header.is_object()) throw InputError(path.string(), "header", "is not a JSON object");
  SafetensorsFile file;
  const std::size_t data = sizeof length + length;
  for (const auto& [name, info] : header.items()) {
    if (name == "__metadata__") {
      file.metadata = info;
      continue;
    }
    if (!info.is_object() || info.value("dtype", "") != "F32")
      throw InputError(path.string(), name, "is not an F32 tensor");
    const std::size_t begin = info["data_offsets"][0].get<std::size_t>();
    const std::size_t end = info["data_offsets"][1].get<std::size_t>();
    if (end < begin || data + end > bytes.size() || (end - begin) % sizeof(float) != 0) {
      throw InputError(path.string(), name, "its data_offsets lie outside the file");
    }
    std::vector<float> values((end - begin) / sizeof(float));
    std::memcpy(values.data(), bytes.data() + data + begin, end - begin);
    file.tensors[name] = std::move(values);
    file.shapes[name] = info["shape"].get<std::vector<int>>();
  }
  return file;
}

void write_model_folder(const fs::path& folder, const ModelShape& shape, std::span<const float> parameters,
                        const FolderContents& contents) {
  fs::create_directories(folder);
  write_json_file(folder / "config.json", config_json(shape));
  write_safetensors(folder / "model.safetensors", parameter_layout(shape), {{"", parameters}}, contents.step);
  if (contents.tokenizer_files.empty()) {
    write_file_atomically(folder / "vocab.json", byte_vocab_json());
    write_file_atomically(folder / "merges.txt", "#version: 0.2\n");
  }
  for (const fs::path& file : contents.tokenizer_files) {
    if (fs::exists(folder / file.filename()) && fs::equivalent(file, folder / file.filename())) continue;  // resumed
    write_file_atomically(folder / file.filename(), read_input_file(file.string(), {.kind = "tokenizer file"}));
  }
  write_json_file(folder / "task.json",
                  {{"task", contents.task}, {"context", contents.context}, {"token_ids", contents.token_ids}});
}

void write_checkpoint(const fs::path& folder, const ModelShape& shape, std::span<const float> parameters,
                      const FolderContents& contents) {
  const fs::path checkpoints = folder / "checkpoints";
  const fs::path final_path = checkpoints / ("step-" + std::to_string(contents.step));
  const fs::path partial = checkpoints / (".step-" + std::to_string(contents.step) + ".partial");
  fs::remove_all(partial);
  write_model_folder(partial, shape, parameters, contents);
  fs::remove_all(final_path);  // a checkpoint of the same step from an earlier run
  std::error_code error;
  fs::rename(partial, final_path, error);
  if (error) throw FileWriteError(final_path, error.message(), false);
}

}  // namespace attnviz::train
