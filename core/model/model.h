#pragma once
// A pretrained model opened from the user's files: a Hugging Face folder (config.json, one or
// several .safetensors, tokenizer files) or a GGUF file. Holds the mapped files, the weights
// (weights.h: float32 tensors and the stored matrices of other types in place, dequantised a
// block of rows at a time as they are used; vectors dequantised once) and the tokenizer. Everything the window and the command line need goes through this and forward.h:
//
//   auto model = Model::open("gpt2/", options);          // progress, cancellation, memory limit
//   auto encoding = model->tokenizer().encode("The cat sat");
//   ForwardPass pass(*model, backend);
//   ForwardResult r = pass.run(encoding, {});            // every layer's attention, next tokens

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/common/matrix.h"
#include "core/model/mapped_file.h"
#include "core/model/model_config.h"
#include "core/model/weight_builder.h"
#include "core/model/weights.h"
#include "core/tokenizers/tokenizer.h"

namespace attnviz::model {

// How far a long load or forward pass is: a stage ("mapping", "weights", "layer 3 of 12") and
// the fraction of the whole done, 0..1.
struct Progress {
  std::string stage;
  double fraction = 0.0;
};
using ProgressCallback = std::function<void(const Progress&)>;

struct LoadOptions {
  // The memory the weights may take (float32 tensors and stored ones as they are in the file,
  // float32 copies of the rest); nullopt: what the system says is available (MemAvailable,
  // and the cgroup's limit when there is one).
  std::optional<std::uint64_t> memory_limit;
  ProgressCallback progress;
  std::stop_token stop;  // throws Cancelled (cancelled.h) between tensors once requested
  // false: the configuration and the tokenizer only, every tensor header checked but no weight
  // read (attnviz tokenize).
  bool weights = true;
};

enum class Projection { Query, Key, Value };

class Model {
 public:
  // `path`: a model folder, a file inside one (config.json, a .safetensors), or a .gguf file.
  // Throws InputError naming the file and the tensor or field (a truncated file, a header that
  // lies, an unknown architecture or tensor type, a missing tokenizer, a model too large for
  // memory with the memory it needs), Cancelled when stopped.
  static std::unique_ptr<Model> open(const std::string& path, const LoadOptions& options = {});

  [[nodiscard]] const ModelConfig& config() const { return config_; }
  [[nodiscard]] const ModelWeights& weights() const { return weights_; }
  [[nodiscard]] const tokenizers::Tokenizer& tokenizer() const { return *tokenizer_; }
  [[nodiscard]] const std::string& path() const { return path_; }  // as given
  [[nodiscard]] std::uint64_t parameter_count() const { return parameters_; }
  [[nodiscard]] std::uint64_t float32_bytes() const { return parameters_ * 4; }
  // The memory the weights take (float32 in place, other types as stored, copies) and the
  // limit LoadOptions gave (nullopt: what the system has, asked when a pass starts): a forward
  // pass checks its activations against them.
  [[nodiscard]] std::uint64_t weight_bytes() const { return weight_bytes_; }
  [[nodiscard]] std::optional<std::uint64_t> memory_limit() const { return memory_limit_; }
  // "GPT2LMHeadModel (GPT-2), 12 layers × 12 heads, d_model 768, safetensors F32"
  [[nodiscard]] std::string description() const;
  // The weights' stored types as description() names them ("F32", "F16+Q8_0").
  [[nodiscard]] const std::string& weight_types() const { return stored_types_; }

  // Head h's slice of W_Q (or of the shared W_K / W_V of its key/value head) as x·W uses it:
  // d_model × head_dim; and the matching bias slice (empty without one).
  [[nodiscard]] Matrix head_weight(int layer, int head, Projection which) const;
  [[nodiscard]] std::vector<float> head_bias(int layer, int head, Projection which) const;

  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;
  ~Model();

 private:
  Model() = default;
  const Linear& projection(int layer, Projection which) const;

  std::string path_;
  ModelConfig config_;
  ModelWeights weights_;
  std::unique_ptr<tokenizers::Tokenizer> tokenizer_;
  std::deque<MappedFile> files_;
  WeightStorage storage_;
  std::uint64_t parameters_ = 0;
  std::uint64_t weight_bytes_ = 0;
  std::optional<std::uint64_t> memory_limit_;
  std::string stored_types_;
};

// The memory the system can give now: MemAvailable, capped by the cgroup's memory.max.
std::uint64_t available_memory_bytes();

// A parameter count as model sizes are quoted, to three digits: "1.47 M", "124 M", "1.10 B";
// below a million, every digit (Model::description says it).
std::string parameter_count_text(std::uint64_t count);

}  // namespace attnviz::model
