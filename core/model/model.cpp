#include "core/model/model.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <system_error>
#include <sstream>

#include "core/common/error.h"
#include "core/common/float_text.h"
#include "core/common/input_file.h"
#include "core/model/bundled.h"
#include "core/model/cancelled.h"
#include "core/model/gguf.h"
#include "core/model/gguf_model.h"
#include "core/model/hf_model.h"
#include "core/model/safetensors.h"
#include "core/tokenizers/tokenizer_files.h"

namespace attnviz::model {
namespace {

namespace fs = std::filesystem;

std::string gib(std::uint64_t bytes) {
  std::ostringstream text;
  text.precision(bytes >= (10ull << 30) ? 3 : 2);
  text << std::fixed << static_cast<double>(bytes) / static_cast<double>(1ull << 30) << " GiB";
  return text.str();
}

std::uint64_t read_number_file(const std::string& path, const std::string& key) {
  std::ifstream file(path);
  std::string line;
  while (std::getline(file, line)) {
    if (key.empty()) {
      if (line == "max") return UINT64_MAX;
      try {
        return std::stoull(line);
      } catch (const std::exception&) {
        return UINT64_MAX;
      }
    }
    if (line.starts_with(key)) {
      std::istringstream fields(line.substr(key.size()));
      std::uint64_t kib = 0;
      fields >> kib;
      return kib * 1024;
    }
  }
  return UINT64_MAX;
}

// What is at `path`, or nullopt when nothing is; a symbolic link loop and an unreadable path are
// refused by name (fs::exists would throw a filesystem_error that blames nothing in particular).
std::optional<fs::file_status> status_of(const fs::path& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error == std::errc::too_many_symbolic_link_levels) {
    throw InputError(path.string(), "", "is a symbolic link loop (or a chain of too many links)");
  }
  const bool missing = error == std::errc::no_such_file_or_directory || error == std::errc::not_a_directory;
  if (error && !missing) throw InputError(path.string(), "", "cannot be read: " + error.message());
  if (missing || !fs::exists(status)) return std::nullopt;
  return status;
}

bool starts_with_gguf(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  char magic[4] = {};
  file.read(magic, 4);
  return file.gcount() == 4 && std::memcmp(magic, "GGUF", 4) == 0;
}

tokenizers::TokenizerHint hint_for(Architecture architecture) {
  switch (architecture) {
    case Architecture::Gpt2: return tokenizers::TokenizerHint::ByteLevelBpe;
    case Architecture::Llama: return tokenizers::TokenizerHint::SentencePieceBpe;
    case Architecture::Bert: return tokenizers::TokenizerHint::WordPiece;
  }
  return tokenizers::TokenizerHint::ByteLevelBpe;
}

void report(const LoadOptions& options, const std::string& stage, double fraction) {
  if (options.stop.stop_requested()) throw Cancelled();
  if (options.progress) options.progress({stage, fraction});
}

std::string stored_types(const TensorSet& tensors) {
  std::map<std::string, std::uint64_t> bytes_by_type;
  for (const auto& [name, record] : tensors.all()) bytes_by_type[record.type_name] += record.data.size();
  std::vector<std::pair<std::uint64_t, std::string>> sorted;
  for (const auto& [type, bytes] : bytes_by_type) sorted.emplace_back(bytes, type);
  std::sort(sorted.rbegin(), sorted.rend());
  std::string text;
  for (const auto& [bytes, type] : sorted) text += (text.empty() ? "" : ", ") + type;
  return text;
}

// The tokenizer file a folder's tokenizer was read from (tokenizer_files.h's order).
std::string tokenizer_file(const fs::path& folder) {
  for (const char* name : {"tokenizer.json", "vocab.json", "vocab.txt"}) {
    if (status_of(folder / name)) return (folder / name).string();
  }
  return folder.string();
}

// Every id the tokenizer can give must have a row in the embedding table: checked when the model
// opens, naming the tokenizer's file, rather than blaming a text that happens to use such an id.
void check_tokenizer_fits(const tokenizers::Tokenizer& tokenizer, const ModelConfig& c, const std::string& origin,
                          const std::string& field, const std::string& table) {
  const int tokens = tokenizer.vocab_size();
  if (tokens <= c.vocab_size) return;
  throw InputError(origin, field,
                   "the tokenizer has " + std::to_string(tokens) + " tokens (ids 0.." + std::to_string(tokens - 1) +
                       ") but the model's embedding table " + table + " has " + std::to_string(c.vocab_size) +
                       " rows: the tokenizer does not belong to these weights");
}

}  // namespace

std::uint64_t available_memory_bytes() {
  std::uint64_t available = read_number_file("/proc/meminfo", "MemAvailable:");
  const std::uint64_t cgroup_limit = read_number_file("/sys/fs/cgroup/memory.max", "");
  if (cgroup_limit != UINT64_MAX) {
    const std::uint64_t used = read_number_file("/sys/fs/cgroup/memory.current", "");
    const std::uint64_t left = used == UINT64_MAX || used > cgroup_limit ? 0 : cgroup_limit - used;
    available = std::min(available, left);
  }
  return available;
}

Model::~Model() = default;

// The dry run checks every shape and adds up the memory; the real run dequantises.
template <typename Build>
void load_weights(const TensorSet& tensors, const std::string& origin, const LoadOptions& options,
                  WeightStorage& storage, ModelConfig& config, ModelWeights& weights, std::uint64_t& parameters,
                  std::uint64_t& weight_bytes, Build build) {
  WeightBuilder plan(tensors, origin, nullptr, options.stop);
  ModelConfig planned = config;
  (void)build(plan, planned);
  const WeightTally& need = plan.tally();
  const std::uint64_t bytes = need.copied_bytes + need.mapped_bytes;
  parameters = need.parameters;
  weight_bytes = bytes;
  if (!options.weights) {
    config = planned;
    return;
  }
  const std::uint64_t limit = options.memory_limit.value_or(available_memory_bytes());
  if (bytes > limit) {
    throw InputError(origin, "weights",
                     "the model needs " + gib(bytes) + " of memory for its " + std::to_string(need.parameters) +
                         " weights (float32 in place, other types as stored, dequantised as they are used) but only " +
                         gib(limit) + " is available");
  }
  const std::uint64_t total = std::max<std::uint64_t>(need.file_bytes, 1);
  WeightBuilder builder(tensors, origin, &storage, options.stop, [&](std::uint64_t done) {
    report(options, "weights", 0.05 + 0.95 * static_cast<double>(done) / static_cast<double>(total));
  });
  weights = build(builder, config);
}

std::unique_ptr<Model> Model::open(const std::string& given_path, const LoadOptions& options) {
  const std::string path = resolve_model_path(given_path);  // "bundled:NAME" is a folder the app ships
  std::unique_ptr<Model> model(new Model());
  model->path_ = path;
  model->memory_limit_ = options.memory_limit;
  const fs::path given(path);
  const std::optional<fs::file_status> status = status_of(given);
  if (!status) throw InputError(path, "", "no such file or folder");
  report(options, "header", 0.0);

  TensorSet tensors;
  const bool is_folder = fs::is_directory(*status);
  if (!is_folder && !fs::is_regular_file(*status)) {
    // Before anything opens it: a FIFO's open() would wait for a writer forever.
    throw InputError(path, "",
                     "is not a regular file (a FIFO, a socket or a device): a model is a folder or a .gguf file");
  }
  if (!is_folder && (given.extension() == ".gguf" || starts_with_gguf(given))) {
    const MappedFile& file = model->files_.emplace_back(path);
    GgufFile gguf = read_gguf(file, options.stop);
    model->config_ = gguf_config(gguf, path);
    model->tokenizer_ = tokenizers::make_gguf_tokenizer(gguf_tokenizer_data(gguf, path), path);
    check_tokenizer_fits(*model->tokenizer_, model->config_, path, "tokenizer.ggml.tokens", "token_embd.weight");
    model->stored_types_ = stored_types(gguf.tensors);
    load_weights(gguf.tensors, path, options, model->storage_, model->config_, model->weights_, model->parameters_,
                 model->weight_bytes_, [](WeightBuilder& b, ModelConfig& c) { return build_gguf_weights(b, c); });
  } else {
    const fs::path folder = is_folder ? given : given.parent_path().empty() ? fs::path(".") : given.parent_path();
    if (!is_folder && given.filename() != "config.json" && given.extension() != ".safetensors" &&
        given.filename() != "model.safetensors.index.json") {
      throw InputError(
          path, "",
          "is not a model: attnviz opens a Hugging Face folder (config.json + model.safetensors) or a .gguf file");
    }
    const fs::path config_path = folder / "config.json";
    if (!status_of(config_path)) {
      throw InputError(folder.string(), "config.json", "missing: a Hugging Face model folder has a config.json");
    }
    model->config_ =
        parse_hf_config(read_input_file(config_path.string(), {.kind = "model configuration"}), config_path.string());
    const fs::path single = folder / "model.safetensors";
    const fs::path index_path = folder / "model.safetensors.index.json";
    if (status_of(single)) {
      read_safetensors(model->files_.emplace_back(single.string()), tensors, options.stop);
    } else if (status_of(index_path)) {
      const ShardIndex index = read_shard_index(index_path.string());
      for (const std::string& shard : index.shards) {
        report(options, "header", 0.0);
        read_safetensors(model->files_.emplace_back((folder / shard).string()), tensors, options.stop);
      }
      check_shard_index(index, tensors, index_path.string());
    } else {
      const bool pickle = status_of(folder / "pytorch_model.bin").has_value();
      throw InputError(
          folder.string(), "model.safetensors",
          pickle
              ? "missing: the folder has pytorch_model.bin only (PyTorch's pickle format, which attnviz does not read); "
                "a safetensors copy is usually on the model's page"
              : "missing: the folder has neither model.safetensors nor model.safetensors.index.json");
    }
    model->tokenizer_ = tokenizers::load_tokenizer_folder(folder, hint_for(model->config_.architecture));
    check_tokenizer_fits(*model->tokenizer_, model->config_, tokenizer_file(folder), "",
                         "(vocab_size " + std::to_string(model->config_.vocab_size) + " in config.json)");
    model->stored_types_ = stored_types(tensors);
    load_weights(tensors, folder.string(), options, model->storage_, model->config_, model->weights_,
                 model->parameters_, model->weight_bytes_,
                 [](WeightBuilder& b, ModelConfig& c) { return build_hf_weights(b, c); });
  }
  report(options, "ready", 1.0);
  return model;
}

std::string parameter_count_text(std::uint64_t count) {
  if (count < 1'000'000) return group_thousands(static_cast<long long>(count));
  const bool billions = count >= 1'000'000'000;
  const double value = static_cast<double>(count) / (billions ? 1e9 : 1e6);
  char text[32];
  std::snprintf(text, sizeof text, "%.*f %s", value < 10.0 ? 2 : value < 100.0 ? 1 : 0, value, billions ? "B" : "M");
  return text;
}

std::string Model::description() const {
  std::ostringstream text;
  text << config_.architecture_name << " (" << config_.family() << "), " << config_.num_layers << " layers × "
       << config_.num_heads << " heads";
  if (config_.num_kv_heads != config_.num_heads) text << " (" << config_.num_kv_heads << " key/value heads)";
  text << ", d_model " << config_.d_model << ", " << parameter_count_text(parameters_) << " parameters, "
       << config_.format << " " << stored_types_;
  return text.str();
}

std::string ModelConfig::family() const {
  switch (architecture) {
    case Architecture::Gpt2: return "GPT-2";
    case Architecture::Llama: return "Llama family";
    case Architecture::Bert: return "BERT";
  }
  return "";
}

const Linear& Model::projection(int layer, Projection which) const {
  const LayerWeights& w = weights_.layers.at(static_cast<std::size_t>(layer));
  return which == Projection::Query ? w.q : which == Projection::Key ? w.k : w.v;
}

Matrix Model::head_weight(int layer, int head, Projection which) const {
  const Linear& linear = projection(layer, which);
  const int group = which == Projection::Query ? head : head / (config_.num_heads / config_.num_kv_heads);
  const int d = config_.head_dim;
  Matrix slice(linear.in, d);
  std::vector<float> column(static_cast<std::size_t>(linear.in));
  for (int c = 0; c < d; ++c) {
    linear.output_weights(group * d + c, column.data());
    for (int r = 0; r < linear.in; ++r) slice.at(r, c) = column[static_cast<std::size_t>(r)];
  }
  return slice;
}

std::vector<float> Model::head_bias(int layer, int head, Projection which) const {
  const Linear& linear = projection(layer, which);
  if (!linear.bias) return {};
  const int group = which == Projection::Query ? head : head / (config_.num_heads / config_.num_kv_heads);
  const int d = config_.head_dim;
  return {linear.bias + group * d, linear.bias + (group + 1) * d};
}

}  // namespace attnviz::model
