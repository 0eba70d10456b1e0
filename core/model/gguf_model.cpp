#include "core/model/gguf_model.h"

#include <cmath>

#include "core/common/error.h"
#include "core/common/text_excerpt.h"

namespace attnviz::model {
namespace {

// A whole number from 1 to `max` (model_config.h's bounds), or `fallback` when absent.
int size_of(const GgufMetadata& m, const std::string& key, int max, std::optional<int> fallback = std::nullopt) {
  if (!m.has(key)) {
    if (fallback) return *fallback;
    throw InputError(m.path(), key, "missing from the file's metadata: the model's size cannot be known without it");
  }
  const std::int64_t value = m.integer(key);
  if (value < 1 || value > max) {
    throw InputError(m.path(), key,
                     "must be a whole number from 1 to " + std::to_string(max) + " (beyond any real model), not " +
                         std::to_string(value));
  }
  return static_cast<int>(value);
}

// The head size and the queries' width (heads × head size) within their bounds, in 64 bits.
void check_attention_width(const std::string& path, const ModelConfig& c, const std::string& key) {
  if (c.head_dim > kMaxHeadDim) {
    throw InputError(path, key,
                     "makes heads of " + std::to_string(c.head_dim) + " dimensions, beyond any real model's (at most " +
                         std::to_string(kMaxHeadDim) + ")");
  }
  const std::int64_t width = static_cast<std::int64_t>(c.num_heads) * c.head_dim;
  if (width > kMaxAttentionWidth) {
    throw InputError(path, key,
                     std::to_string(c.num_heads) + " heads × " + std::to_string(c.head_dim) +
                         " dimensions = " + std::to_string(width) + ", beyond any real model's query width (at most " +
                         std::to_string(kMaxAttentionWidth) + ")");
  }
}

// A number that enters the maths as a divisor or a base (an epsilon, RoPE's base): finite and > 0.
double positive(const GgufMetadata& m, const std::string& key, double fallback) {
  const double value = m.optional_number(key).value_or(fallback);
  if (!std::isfinite(value) || !(value > 0)) {
    throw InputError(m.path(), key, "must be a finite number > 0, not " + std::to_string(value));
  }
  return value;
}

// The embedding length against the token embeddings' rows, first: a wrong one would otherwise
// surface as a head size that disagrees with rope.dimension_count, blaming the wrong key.
void check_embedding_length(const GgufFile& gguf, const std::string& path, const std::string& key, int d_model) {
  const TensorRecord* embedding = gguf.tensors.find("token_embd.weight");
  if (!embedding || embedding->shape.size() != 2 || embedding->shape[1] == static_cast<std::uint64_t>(d_model)) return;
  throw InputError(path, key,
                   "is " + std::to_string(d_model) + " but token_embd.weight holds rows of " +
                       std::to_string(embedding->shape[1]) + " values");
}

std::string blk(int layer, const std::string& rest) { return "blk." + std::to_string(layer) + "." + rest; }

// The vocabulary's size: the embedding table's rows (metadata may lack it).
int vocab_rows(const GgufFile& gguf, const std::string& path, int d_model) {
  const TensorRecord& embedding = gguf.tensors.require("token_embd.weight", path);
  if (embedding.shape.size() != 2 || embedding.shape[1] != static_cast<std::uint64_t>(d_model) ||
      embedding.shape[0] == 0 || embedding.shape[0] > static_cast<std::uint64_t>(kMaxVocabulary)) {
    throw InputError(path, "token_embd.weight",
                     "has shape " + embedding.shape_text() + " but needs vocabulary × " + std::to_string(d_model));
  }
  return static_cast<int>(embedding.shape[0]);
}

ModelWeights llama_weights(WeightBuilder& b, ModelConfig& c) {
  const int d = c.d_model;
  ModelWeights w;
  w.token_embedding = b.table("token_embd.weight", c.vocab_size, d);
  for (int l = 0; l < c.num_layers; ++l) {
    auto bias = [&](const std::string& name) { return b.has(blk(l, name)) ? blk(l, name) : std::string(); };
    LayerWeights layer;
    layer.attention_norm = b.norm(blk(l, "attn_norm.weight"), "", d);
    layer.q = b.linear_unpermuted(blk(l, "attn_q.weight"), bias("attn_q.bias"), d, c.num_heads, c.head_dim);
    layer.k = b.linear_unpermuted(blk(l, "attn_k.weight"), bias("attn_k.bias"), d, c.num_kv_heads, c.head_dim);
    layer.v = b.linear(blk(l, "attn_v.weight"), bias("attn_v.bias"), d, c.num_kv_heads * c.head_dim);
    layer.o = b.linear(blk(l, "attn_output.weight"), bias("attn_output.bias"), c.num_heads * c.head_dim, d);
    layer.mlp_norm = b.norm(blk(l, "ffn_norm.weight"), "", d);
    layer.gate = b.linear(blk(l, "ffn_gate.weight"), "", d, c.d_ff);
    layer.up = b.linear(blk(l, "ffn_up.weight"), "", d, c.d_ff);
    layer.down = b.linear(blk(l, "ffn_down.weight"), "", c.d_ff, d);
    w.layers.push_back(layer);
  }
  w.final_norm = b.norm("output_norm.weight", "", d);
  if (b.has("output.weight"))
    w.lm_head = b.linear("output.weight", "", d, c.vocab_size);
  else
    w.lm_head = WeightBuilder::tied_to(w.token_embedding);
  if (b.has("rope_freqs.weight")) {
    const float* factors = b.vector("rope_freqs.weight", c.head_dim / 2);
    if (factors) c.rope.frequency_factors.assign(factors, factors + c.head_dim / 2);
    for (std::size_t i = 0; i < c.rope.frequency_factors.size(); ++i) {
      // Each frequency is divided by its factor: 0 or less makes angles that are not numbers.
      if (!(c.rope.frequency_factors[i] > 0)) {
        throw InputError(b.origin(), "rope_freqs.weight",
                         "factor " + std::to_string(i) + " is " + std::to_string(c.rope.frequency_factors[i]) +
                             "; each must be > 0");
      }
    }
  }
  return w;
}

ModelWeights gpt2_weights(WeightBuilder& b, ModelConfig& c) {
  const int d = c.d_model;
  ModelWeights w;
  w.token_embedding = b.table("token_embd.weight", c.vocab_size, d);
  w.position_embedding = b.table("position_embd.weight", c.max_positions, d);
  for (int l = 0; l < c.num_layers; ++l) {
    LayerWeights layer;
    layer.attention_norm = b.norm(blk(l, "attn_norm.weight"), blk(l, "attn_norm.bias"), d);
    const std::string qkv = blk(l, "attn_qkv.weight");
    const std::string qkv_bias = blk(l, "attn_qkv.bias");
    layer.q = b.linear_rows(qkv, qkv_bias, d, d, 0, 3 * d);
    layer.k = b.linear_rows(qkv, qkv_bias, d, d, d, 3 * d);
    layer.v = b.linear_rows(qkv, qkv_bias, d, d, 2 * d, 3 * d);
    layer.o = b.linear(blk(l, "attn_output.weight"), blk(l, "attn_output.bias"), d, d);
    layer.mlp_norm = b.norm(blk(l, "ffn_norm.weight"), blk(l, "ffn_norm.bias"), d);
    layer.up = b.linear(blk(l, "ffn_up.weight"), blk(l, "ffn_up.bias"), d, c.d_ff);
    layer.down = b.linear(blk(l, "ffn_down.weight"), blk(l, "ffn_down.bias"), c.d_ff, d);
    w.layers.push_back(layer);
  }
  w.final_norm = b.norm("output_norm.weight", "output_norm.bias", d);
  if (b.has("output.weight"))
    w.lm_head = b.linear("output.weight", "", d, c.vocab_size);
  else
    w.lm_head = WeightBuilder::tied_to(w.token_embedding);
  return w;
}

}  // namespace

ModelConfig gguf_config(const GgufFile& gguf, const std::string& path) {
  const GgufMetadata m(gguf, path);
  const std::string arch = m.string("general.architecture");
  ModelConfig c;
  c.format = "gguf";
  c.architecture_name = arch;
  const std::string k = arch + ".";
  if (arch == "llama") {
    c.architecture = Architecture::Llama;
    c.d_model = size_of(m, k + "embedding_length", kMaxModelWidth);
    check_embedding_length(gguf, path, k + "embedding_length", c.d_model);
    c.num_layers = size_of(m, k + "block_count", kMaxLayers);
    c.num_heads = size_of(m, k + "attention.head_count", kMaxHeads);
    c.num_kv_heads = size_of(m, k + "attention.head_count_kv", kMaxHeads, c.num_heads);
    if (!m.has(k + "attention.key_length") && c.d_model % c.num_heads != 0) {
      throw InputError(path, k + "attention.head_count",
                       "must divide the embedding length (or the file gives attention.key_length)");
    }
    c.head_dim = size_of(m, k + "attention.key_length", kMaxHeadDim, c.d_model / c.num_heads);
    if (size_of(m, k + "attention.value_length", kMaxHeadDim, c.head_dim) != c.head_dim) {
      throw InputError(path, k + "attention.value_length",
                       "differs from attention.key_length: heads of two widths are not computed");
    }
    c.d_ff = size_of(m, k + "feed_forward_length", kMaxMlpWidth);
    c.max_positions = size_of(m, k + "context_length", kMaxPositions, 4096);
    c.norm_eps = positive(m, k + "attention.layer_norm_rms_epsilon", 1e-5);
    c.rope.theta = positive(m, k + "rope.freq_base", 10000.0);
    c.rope.dims = size_of(m, k + "rope.dimension_count", kMaxHeadDim, c.head_dim);
    if (c.rope.dims != c.head_dim)
      throw InputError(path, k + "rope.dimension_count",
                       "partial RoPE is not computed: must equal the head size " + std::to_string(c.head_dim));
    if (m.has(k + "rope.scaling.type")) {
      const std::string type = m.string(k + "rope.scaling.type");
      if (type == "linear") {
        c.rope.scaling = RopeSettings::Scaling::Linear;
        c.rope.factor = positive(m, k + "rope.scaling.factor", 1.0);
      } else if (type != "none") {
        throw InputError(path, k + "rope.scaling.type",
                         "the RoPE scaling " + quoted_excerpt(type, 40) + " is not computed (linear is)");
      }
    }
    if (c.head_dim % 2 != 0) throw InputError(path, k + "attention.key_length", "must be even for RoPE");
    if (c.num_heads % c.num_kv_heads != 0)
      throw InputError(path, k + "attention.head_count_kv", "must divide the head count");
    const bool key_length = m.has(k + "attention.key_length");
    check_attention_width(path, c, k + (key_length ? "attention.key_length" : "attention.head_count"));
    c.tie_word_embeddings = !gguf.tensors.contains("output.weight");
  } else if (arch == "gpt2") {
    c.architecture = Architecture::Gpt2;
    c.d_model = size_of(m, k + "embedding_length", kMaxModelWidth);
    check_embedding_length(gguf, path, k + "embedding_length", c.d_model);
    c.num_layers = size_of(m, k + "block_count", kMaxLayers);
    c.num_heads = size_of(m, k + "attention.head_count", kMaxHeads);
    c.num_kv_heads = c.num_heads;
    if (c.d_model % c.num_heads != 0)
      throw InputError(path, k + "attention.head_count", "must divide the embedding length");
    c.head_dim = c.d_model / c.num_heads;
    check_attention_width(path, c, k + "attention.head_count");
    c.d_ff = size_of(m, k + "feed_forward_length", kMaxMlpWidth, 4 * c.d_model);
    c.max_positions = size_of(m, k + "context_length", kMaxPositions, 1024);
    c.norm_eps = positive(m, k + "attention.layer_norm_epsilon", 1e-5);
    c.tie_word_embeddings = !gguf.tensors.contains("output.weight");
  } else {
    throw InputError(path, "general.architecture",
                     "the architecture " + quoted_excerpt(arch, 40) + " is not one attnviz computes (llama, gpt2)");
  }
  c.vocab_size = vocab_rows(gguf, path, c.d_model);
  for (const char* key : {"tokenizer.ggml.eos_token_id", "tokenizer.ggml.eot_token_id"}) {
    const auto id = m.optional_integer(key);
    if (!id) continue;
    if (*id < 0 || *id >= c.vocab_size) {
      throw InputError(path, key,
                       "token id " + std::to_string(*id) + " is outside the vocabulary (" +
                           std::to_string(c.vocab_size) + " tokens)");
    }
    if (c.end_of_text_ids.empty() || c.end_of_text_ids.front() != *id)
      c.end_of_text_ids.push_back(static_cast<int>(*id));
  }
  return c;
}

ModelWeights build_gguf_weights(WeightBuilder& builder, ModelConfig& config) {
  return config.architecture == Architecture::Llama ? llama_weights(builder, config) : gpt2_weights(builder, config);
}

tokenizers::GgufTokenizerData gguf_tokenizer_data(const GgufFile& gguf, const std::string& path) {
  const GgufMetadata m(gguf, path);
  if (!m.has("tokenizer.ggml.model"))
    throw InputError(path, "tokenizer.ggml.model", "missing: the file carries no tokenizer");
  tokenizers::GgufTokenizerData data;
  data.model = m.string("tokenizer.ggml.model");
  if (m.has("tokenizer.ggml.pre")) data.pre = m.string("tokenizer.ggml.pre");
  data.tokens = m.strings("tokenizer.ggml.tokens");
  if (m.has("tokenizer.ggml.scores")) {
    for (const double s : m.numbers("tokenizer.ggml.scores")) data.scores.push_back(static_cast<float>(s));
  }
  if (m.has("tokenizer.ggml.token_type")) {
    for (const double t : m.numbers("tokenizer.ggml.token_type")) data.token_types.push_back(static_cast<int>(t));
  }
  if (m.has("tokenizer.ggml.merges")) data.merges = m.strings("tokenizer.ggml.merges");
  auto id = [&](const std::string& key) -> std::optional<int> {
    const auto value = m.optional_integer(key);
    if (!value) return std::nullopt;
    if (*value < 0 || *value >= static_cast<std::int64_t>(data.tokens.size())) {
      throw InputError(path, key,
                       "token id " + std::to_string(*value) + " is outside the vocabulary (" +
                           std::to_string(data.tokens.size()) + " tokens)");
    }
    return static_cast<int>(*value);
  };
  data.bos = id("tokenizer.ggml.bos_token_id");
  data.eos = id("tokenizer.ggml.eos_token_id");
  data.unk = id("tokenizer.ggml.unknown_token_id");
  data.add_bos = m.optional_bool("tokenizer.ggml.add_bos_token");
  data.add_eos = m.optional_bool("tokenizer.ggml.add_eos_token");
  data.add_space_prefix = m.optional_bool("tokenizer.ggml.add_space_prefix");
  return data;
}

}  // namespace attnviz::model
