#include "core/model/hf_model.h"

#include <cmath>

#include "core/common/error.h"
#include "core/common/text_excerpt.h"
#include "core/tokenizers/json_input.h"

namespace attnviz::model {
namespace {

using nlohmann::json;

// A value from the file for a message: a string quoted and escaped, anything else as JSON, cut.
std::string shown_value(const json& value) {
  return value.is_string() ? quoted_excerpt(value.get<std::string>(), 40) : cut_text(value.dump(), 40);
}

class ConfigFields {
 public:
  ConfigFields(const json& root, std::string path) : root_(root), path_(std::move(path)) {}
  [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
    throw InputError(path_, "/" + key, problem);
  }
  bool has(const char* key) const { return root_.contains(key) && !root_[key].is_null(); }

  // A whole number from `min` to `max`, or `fallback` when absent.
  int size(const char* key, int max, std::optional<int> fallback = std::nullopt, int min = 1) const {
    if (!has(key)) {
      if (fallback) return *fallback;
      fail(key, "missing: the model's size cannot be known without it");
    }
    const json& value = root_[key];
    if (!value.is_number_integer() || value.get<std::int64_t>() < min || value.get<std::int64_t>() > max) {
      fail(key, "must be a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
                    " (beyond any real model), not " + shown_value(value));
    }
    return value.get<int>();
  }
  // A number that enters the maths as a divisor or a base (an epsilon, RoPE's θ): finite and > 0.
  double positive(const char* key, double fallback) const {
    if (!has(key)) return fallback;
    const json& value = root_[key];
    if (!value.is_number() || !(value.get<double>() > 0) || !std::isfinite(value.get<double>())) {
      fail(key, "must be a finite number > 0, not " + shown_value(value));
    }
    return value.get<double>();
  }
  bool flag(const char* key, bool fallback) const {
    if (!has(key)) return fallback;
    if (!root_[key].is_boolean()) fail(key, "must be true or false");
    return root_[key].get<bool>();
  }
  std::string text(const char* key, const std::string& fallback) const {
    if (!has(key)) return fallback;
    if (!root_[key].is_string()) fail(key, "must be a string");
    return root_[key].get<std::string>();
  }
  const json& root() const { return root_; }
  const std::string& path() const { return path_; }

 private:
  const json& root_;
  std::string path_;
};

// The head size and the queries' width (heads × head_dim), each within its bound: computed in
// 64 bits, so 65,536 heads of 65,536 never wrap to a width of 0.
void check_attention_width(const ConfigFields& f, const ModelConfig& c, const char* key) {
  if (c.head_dim > kMaxHeadDim) {
    f.fail(key, "makes heads of " + std::to_string(c.head_dim) + " dimensions, beyond any real model's (at most " +
                    std::to_string(kMaxHeadDim) + ")");
  }
  const std::int64_t width = static_cast<std::int64_t>(c.num_heads) * c.head_dim;
  if (width > kMaxAttentionWidth) {
    f.fail(key, std::to_string(c.num_heads) + " heads × " + std::to_string(c.head_dim) +
                    " dimensions = " + std::to_string(width) + ", beyond any real model's query width (at most " +
                    std::to_string(kMaxAttentionWidth) + ")");
  }
}

void require_activation(const ConfigFields& f, const char* key, const std::vector<std::string>& allowed,
                        const std::string& fallback) {
  const std::string act = f.text(key, fallback);
  for (const std::string& a : allowed) {
    if (act == a) return;
  }
  f.fail(key, "the activation " + quoted_excerpt(act, 40) + " is not computed (" + allowed.front() + " is)");
}

void read_rope_scaling(const ConfigFields& f, RopeSettings& rope) {
  if (!f.has("rope_scaling")) return;
  const json& scaling = f.root()["rope_scaling"];
  if (!scaling.is_object()) f.fail("rope_scaling", "must be an object or null");
  const char* type_key = scaling.contains("rope_type") ? "rope_type" : "type";
  std::string type;
  if (scaling.contains(type_key)) {
    if (!scaling[type_key].is_string())
      f.fail(std::string("rope_scaling/") + type_key, "must be a string such as \"linear\" or \"llama3\"");
    type = scaling[type_key].get<std::string>();
  }
  auto number = [&](const char* key, double fallback) {
    if (!scaling.contains(key)) return fallback;
    if (!scaling[key].is_number() || !(scaling[key].get<double>() > 0))
      f.fail(std::string("rope_scaling/") + key, "must be a number > 0");
    return scaling[key].get<double>();
  };
  if (type == "default") return;
  if (type == "linear") {
    rope.scaling = RopeSettings::Scaling::Linear;
    rope.factor = number("factor", 1.0);
  } else if (type == "llama3") {
    rope.scaling = RopeSettings::Scaling::Llama3;
    rope.factor = number("factor", 8.0);
    rope.low_freq_factor = number("low_freq_factor", 1.0);
    rope.high_freq_factor = number("high_freq_factor", 4.0);
    rope.original_max_positions = number("original_max_position_embeddings", 8192.0);
    if (!(rope.high_freq_factor > rope.low_freq_factor))
      f.fail("rope_scaling/high_freq_factor", "must be larger than low_freq_factor");
  } else {
    f.fail("rope_scaling", "the RoPE scaling " + quoted_excerpt(type, 40) + " is not computed (linear and llama3 are)");
  }
}

// eos_token_id: absent or null, one id, or a list of ids, each inside the vocabulary.
void read_end_of_text_ids(const ConfigFields& f, ModelConfig& c) {
  if (!f.has("eos_token_id")) return;
  const json& value = f.root()["eos_token_id"];
  auto add = [&](const json& id, const std::string& where) {
    if (!id.is_number_integer() || id.get<std::int64_t>() < 0 || id.get<std::int64_t>() >= c.vocab_size) {
      f.fail(where, "must be a token id from 0 to " + std::to_string(c.vocab_size - 1) + " (the vocabulary's size is " +
                        std::to_string(c.vocab_size) + ")");
    }
    c.end_of_text_ids.push_back(id.get<int>());
  };
  if (!value.is_array()) return add(value, "eos_token_id");
  if (value.size() > 64) f.fail("eos_token_id", "lists more than 64 ids");
  for (std::size_t i = 0; i < value.size(); ++i) add(value[i], "eos_token_id/" + std::to_string(i));
}

void read_llama_config(const ConfigFields& f, ModelConfig& c, const std::string& family) {
  c.architecture = Architecture::Llama;
  c.d_model = f.size("hidden_size", kMaxModelWidth);
  c.num_layers = f.size("num_hidden_layers", kMaxLayers);
  c.num_heads = f.size("num_attention_heads", kMaxHeads);
  c.num_kv_heads = f.size("num_key_value_heads", kMaxHeads, c.num_heads);
  if (!f.has("head_dim") && c.d_model % c.num_heads != 0)
    f.fail("num_attention_heads", "must divide hidden_size (or config.json gives head_dim)");
  c.head_dim = f.size("head_dim", kMaxHeadDim, c.d_model / c.num_heads);
  c.d_ff = f.size("intermediate_size", kMaxMlpWidth);
  c.vocab_size = f.size("vocab_size", kMaxVocabulary);
  c.max_positions = f.size("max_position_embeddings", kMaxPositions, 4096);
  c.norm_eps = f.positive("rms_norm_eps", 1e-6);
  c.rope.theta = f.positive("rope_theta", 10000.0);
  c.rope.dims = c.head_dim;
  c.tie_word_embeddings = f.flag("tie_word_embeddings", false);
  require_activation(f, "hidden_act", {"silu"}, "silu");
  read_rope_scaling(f, c.rope);
  if (family == "mistral" && f.has("sliding_window")) c.sliding_window = f.size("sliding_window", kMaxPositions);
  if (family == "qwen2" && f.flag("use_sliding_window", false)) {
    f.fail("use_sliding_window", "Qwen2's per-layer sliding window is not computed");
  }
  if (c.head_dim % 2 != 0) f.fail("head_dim", "must be even for RoPE");
  if (c.num_heads % c.num_kv_heads != 0) f.fail("num_key_value_heads", "must divide num_attention_heads");
  check_attention_width(f, c, f.has("head_dim") ? "head_dim" : "num_attention_heads");
}

void read_gpt2_config(const ConfigFields& f, ModelConfig& c) {
  c.architecture = Architecture::Gpt2;
  c.d_model = f.size("n_embd", kMaxModelWidth);
  c.num_layers = f.size("n_layer", kMaxLayers);
  c.num_heads = f.size("n_head", kMaxHeads);
  c.num_kv_heads = c.num_heads;
  c.head_dim = c.d_model / c.num_heads;
  c.d_ff = f.size("n_inner", kMaxMlpWidth, 4 * c.d_model);
  c.vocab_size = f.size("vocab_size", kMaxVocabulary);
  c.max_positions = f.size("n_positions", kMaxPositions, f.size("n_ctx", kMaxPositions, 1024));
  c.norm_eps = f.positive("layer_norm_epsilon", 1e-5);
  c.tie_word_embeddings = f.flag("tie_word_embeddings", true);
  require_activation(f, "activation_function", {"gelu_new", "gelu_pytorch_tanh"}, "gelu_new");
  if (c.d_model % c.num_heads != 0) f.fail("n_head", "must divide n_embd");
  check_attention_width(f, c, "n_head");
  if (f.flag("scale_attn_by_inverse_layer_idx", false)) f.fail("scale_attn_by_inverse_layer_idx", "is not computed");
}

void read_bert_config(const ConfigFields& f, ModelConfig& c) {
  c.architecture = Architecture::Bert;
  c.d_model = f.size("hidden_size", kMaxModelWidth);
  c.num_layers = f.size("num_hidden_layers", kMaxLayers);
  c.num_heads = f.size("num_attention_heads", kMaxHeads);
  c.num_kv_heads = c.num_heads;
  c.head_dim = c.d_model / c.num_heads;
  c.d_ff = f.size("intermediate_size", kMaxMlpWidth);
  c.vocab_size = f.size("vocab_size", kMaxVocabulary);
  c.max_positions = f.size("max_position_embeddings", kMaxPositions, 512);
  c.type_vocab_size = f.size("type_vocab_size", kMaxTokenTypes, 2);
  c.norm_eps = f.positive("layer_norm_eps", 1e-12);
  c.tie_word_embeddings = true;
  require_activation(f, "hidden_act", {"gelu"}, "gelu");
  if (f.text("position_embedding_type", "absolute") != "absolute")
    f.fail("position_embedding_type", "only absolute positions are computed");
  if (c.d_model % c.num_heads != 0) f.fail("num_attention_heads", "must divide hidden_size");
  check_attention_width(f, c, "num_attention_heads");
}

// The tensor name prefix this checkpoint uses, among the candidates, found by a tensor
// every model of the architecture has.
std::string prefix_of(const WeightBuilder& b, const std::vector<std::string>& prefixes, const std::string& probe) {
  for (const std::string& prefix : prefixes) {
    if (b.has(prefix + probe)) return prefix;
  }
  throw InputError(
      b.origin(), probe,
      "the model has no tensor " + probe + " (under any of the usual prefixes): is config.json for this checkpoint?");
}

std::string layer_name(const std::string& prefix, int layer, const std::string& rest) {
  return prefix + std::to_string(layer) + "." + rest;
}

ModelWeights gpt2_weights(WeightBuilder& b, ModelConfig& c) {
  const std::string p = prefix_of(b, {"", "transformer."}, "wte.weight");
  const int d = c.d_model;
  ModelWeights w;
  w.token_embedding = b.table(p + "wte.weight", c.vocab_size, d);
  w.position_embedding = b.table(p + "wpe.weight", c.max_positions, d);
  for (int l = 0; l < c.num_layers; ++l) {
    const std::string h = p + "h.";
    LayerWeights layer;
    layer.attention_norm = b.norm(layer_name(h, l, "ln_1.weight"), layer_name(h, l, "ln_1.bias"), d);
    const std::string attn = layer_name(h, l, "attn.c_attn.weight");
    const std::string attn_bias = layer_name(h, l, "attn.c_attn.bias");
    layer.q = b.conv1d(attn, attn_bias, d, d, 0, 3 * d);
    layer.k = b.conv1d(attn, attn_bias, d, d, d, 3 * d);
    layer.v = b.conv1d(attn, attn_bias, d, d, 2 * d, 3 * d);
    layer.o = b.conv1d(layer_name(h, l, "attn.c_proj.weight"), layer_name(h, l, "attn.c_proj.bias"), d, d);
    layer.mlp_norm = b.norm(layer_name(h, l, "ln_2.weight"), layer_name(h, l, "ln_2.bias"), d);
    layer.up = b.conv1d(layer_name(h, l, "mlp.c_fc.weight"), layer_name(h, l, "mlp.c_fc.bias"), d, c.d_ff);
    layer.down = b.conv1d(layer_name(h, l, "mlp.c_proj.weight"), layer_name(h, l, "mlp.c_proj.bias"), c.d_ff, d);
    w.layers.push_back(layer);
  }
  w.final_norm = b.norm(p + "ln_f.weight", p + "ln_f.bias", d);
  if (b.has("lm_head.weight") && !c.tie_word_embeddings)
    w.lm_head = b.linear("lm_head.weight", "", d, c.vocab_size);
  else
    w.lm_head = WeightBuilder::tied_to(w.token_embedding);
  return w;
}

ModelWeights llama_weights(WeightBuilder& b, ModelConfig& c) {
  const std::string p = prefix_of(b, {"model.", ""}, "embed_tokens.weight");
  const int d = c.d_model;
  const int q_out = c.num_heads * c.head_dim;
  const int kv_out = c.num_kv_heads * c.head_dim;
  ModelWeights w;
  w.token_embedding = b.table(p + "embed_tokens.weight", c.vocab_size, d);
  for (int l = 0; l < c.num_layers; ++l) {
    const std::string h = p + "layers.";
    auto bias_if_present = [&](const std::string& name) { return b.has(name) ? name : std::string(); };
    LayerWeights layer;
    layer.attention_norm = b.norm(layer_name(h, l, "input_layernorm.weight"), "", d);
    layer.q = b.linear(layer_name(h, l, "self_attn.q_proj.weight"),
                       bias_if_present(layer_name(h, l, "self_attn.q_proj.bias")), d, q_out);
    layer.k = b.linear(layer_name(h, l, "self_attn.k_proj.weight"),
                       bias_if_present(layer_name(h, l, "self_attn.k_proj.bias")), d, kv_out);
    layer.v = b.linear(layer_name(h, l, "self_attn.v_proj.weight"),
                       bias_if_present(layer_name(h, l, "self_attn.v_proj.bias")), d, kv_out);
    layer.o = b.linear(layer_name(h, l, "self_attn.o_proj.weight"),
                       bias_if_present(layer_name(h, l, "self_attn.o_proj.bias")), q_out, d);
    layer.mlp_norm = b.norm(layer_name(h, l, "post_attention_layernorm.weight"), "", d);
    layer.gate = b.linear(layer_name(h, l, "mlp.gate_proj.weight"), "", d, c.d_ff);
    layer.up = b.linear(layer_name(h, l, "mlp.up_proj.weight"), "", d, c.d_ff);
    layer.down = b.linear(layer_name(h, l, "mlp.down_proj.weight"), "", c.d_ff, d);
    w.layers.push_back(layer);
  }
  w.final_norm = b.norm(p + "norm.weight", "", d);
  if (b.has("lm_head.weight") && !c.tie_word_embeddings)
    w.lm_head = b.linear("lm_head.weight", "", d, c.vocab_size);
  else if (c.tie_word_embeddings)
    w.lm_head = WeightBuilder::tied_to(w.token_embedding);
  else
    throw InputError(b.origin(), "lm_head.weight",
                     "missing, and config.json does not tie the output to the embeddings");
  return w;
}

// LayerNorm's parameters are "weight"/"bias" in new checkpoints, "gamma"/"beta" in the oldest.
Norm bert_norm(WeightBuilder& b, const std::string& stem, int size) {
  if (b.has(stem + ".gamma")) return b.norm(stem + ".gamma", stem + ".beta", size);
  return b.norm(stem + ".weight", stem + ".bias", size);
}

ModelWeights bert_weights(WeightBuilder& b, ModelConfig& c) {
  const std::string p = prefix_of(b, {"bert.", ""}, "embeddings.word_embeddings.weight");
  const int d = c.d_model;
  ModelWeights w;
  w.token_embedding = b.table(p + "embeddings.word_embeddings.weight", c.vocab_size, d);
  w.position_embedding = b.table(p + "embeddings.position_embeddings.weight", c.max_positions, d);
  w.token_type_embedding = b.table(p + "embeddings.token_type_embeddings.weight", c.type_vocab_size, d);
  w.embedding_norm = bert_norm(b, p + "embeddings.LayerNorm", d);
  for (int l = 0; l < c.num_layers; ++l) {
    const std::string h = p + "encoder.layer.";
    auto name = [&](const std::string& rest) { return layer_name(h, l, rest); };
    LayerWeights layer;
    layer.q = b.linear(name("attention.self.query.weight"), name("attention.self.query.bias"), d, d);
    layer.k = b.linear(name("attention.self.key.weight"), name("attention.self.key.bias"), d, d);
    layer.v = b.linear(name("attention.self.value.weight"), name("attention.self.value.bias"), d, d);
    layer.o = b.linear(name("attention.output.dense.weight"), name("attention.output.dense.bias"), d, d);
    layer.attention_norm = bert_norm(b, name("attention.output.LayerNorm"), d);
    layer.up = b.linear(name("intermediate.dense.weight"), name("intermediate.dense.bias"), d, c.d_ff);
    layer.down = b.linear(name("output.dense.weight"), name("output.dense.bias"), c.d_ff, d);
    layer.mlp_norm = bert_norm(b, name("output.LayerNorm"), d);
    w.layers.push_back(layer);
  }
  c.has_lm_head = b.has("cls.predictions.transform.dense.weight");
  if (c.has_lm_head) {
    w.mlm_transform = b.linear("cls.predictions.transform.dense.weight", "cls.predictions.transform.dense.bias", d, d);
    w.mlm_norm = bert_norm(b, "cls.predictions.transform.LayerNorm", d);
    const std::string bias = b.has("cls.predictions.bias") ? "cls.predictions.bias" : "cls.predictions.decoder.bias";
    if (b.has("cls.predictions.decoder.weight"))
      w.lm_head = b.linear("cls.predictions.decoder.weight", bias, d, c.vocab_size);
    else {
      w.lm_head = WeightBuilder::tied_to(w.token_embedding);
      w.lm_head.bias = b.vector(bias, c.vocab_size);
    }
  }
  return w;
}

}  // namespace

ModelConfig parse_hf_config(std::string_view json_text, const std::string& path) {
  const json root = tokenizers::parse_model_json(json_text, path);
  if (!root.is_object()) throw InputError(path, "", "must be a JSON object");
  const ConfigFields f(root, path);
  std::string name;
  if (f.has("architectures")) {
    if (!root["architectures"].is_array() || root["architectures"].empty() || !root["architectures"][0].is_string()) {
      f.fail("architectures", "must be a list of class names");
    }
    name = root["architectures"][0].get<std::string>();
  }
  const std::string model_type = f.text("model_type", "");
  ModelConfig c;
  c.format = "safetensors";
  c.architecture_name = name.empty() ? model_type : name;
  if (name == "GPT2LMHeadModel" || name == "GPT2Model" || (name.empty() && model_type == "gpt2")) {
    read_gpt2_config(f, c);
  } else if (name == "LlamaForCausalLM" || (name.empty() && model_type == "llama")) {
    read_llama_config(f, c, "llama");
  } else if (name == "MistralForCausalLM" || (name.empty() && model_type == "mistral")) {
    read_llama_config(f, c, "mistral");
  } else if (name == "Qwen2ForCausalLM" || (name.empty() && model_type == "qwen2")) {
    read_llama_config(f, c, "qwen2");
  } else if (name == "BertModel" || name == "BertForMaskedLM" || (name.empty() && model_type == "bert")) {
    read_bert_config(f, c);
  } else {
    f.fail(
        name.empty() ? "model_type" : "architectures/0",
        "the architecture " + quoted_excerpt(c.architecture_name, 60) +
            " is not one attnviz computes (GPT2LMHeadModel, LlamaForCausalLM, MistralForCausalLM, Qwen2ForCausalLM, BertModel, BertForMaskedLM)");
  }
  read_end_of_text_ids(f, c);
  return c;
}

ModelWeights build_hf_weights(WeightBuilder& builder, ModelConfig& config) {
  switch (config.architecture) {
    case Architecture::Gpt2: return gpt2_weights(builder, config);
    case Architecture::Llama: return llama_weights(builder, config);
    case Architecture::Bert: return bert_weights(builder, config);
  }
  return {};
}

}  // namespace attnviz::model
