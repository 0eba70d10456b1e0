// config.json of a Hugging Face model folder on arbitrary text: a configuration or an
// InputError naming the field, never a crash; an accepted configuration has sane sizes (within
// model_config.h's bounds, heads × head_dim too) and numbers the maths can use (θ, ε > 0).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/common/error.h"
#include "core/model/hf_model.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const attnviz::model::ModelConfig config = attnviz::model::parse_hf_config(text, "config.json");
    if (config.num_layers < 1 || config.num_heads < 1 || config.num_kv_heads < 1 || config.head_dim < 1 ||
        config.d_model < 1)
      std::abort();
    if (config.num_heads % config.num_kv_heads != 0) std::abort();
    using namespace attnviz::model;
    if (config.head_dim > kMaxHeadDim || config.num_heads > kMaxHeads || config.num_layers > kMaxLayers ||
        config.d_model > kMaxModelWidth || config.d_ff > kMaxMlpWidth || config.vocab_size > kMaxVocabulary) {
      std::abort();
    }
    if (static_cast<long long>(config.num_heads) * config.head_dim > kMaxAttentionWidth) std::abort();
    if (!(config.norm_eps > 0) || !(config.rope.theta > 0)) std::abort();
  } catch (const attnviz::InputError&) {
  }
  return 0;
}
