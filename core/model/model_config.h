#pragma once
// What a model is, independent of the file it came from: its architecture and sizes, read from
// a Hugging Face config.json (hf_config.h) or a GGUF file's metadata (gguf_model.h).

#include <optional>
#include <string>
#include <vector>

namespace attnviz::model {

// Gpt2: learned positions, LayerNorm before attention and MLP, GELU (tanh), causal.
// Llama: the Llama family (Llama, Mistral, Qwen2): RMSNorm, RoPE, grouped-query attention,
//        SwiGLU, optional q/k/v biases (Qwen2), optional sliding window (Mistral), causal.
// Bert: learned positions and token types, LayerNorm after attention and MLP, GELU (erf),
//       bidirectional.
enum class Architecture { Gpt2, Llama, Bert };

// RoPE's frequencies: θ^(−2i/d) for i < d/2, then scaled as rope_scaling says.
struct RopeSettings {
  double theta = 10000.0;
  int dims = 0;  // rotated dimensions of each head (all of them in the Llama family)
  enum class Scaling { None, Linear, Llama3 } scaling = Scaling::None;
  double factor = 1.0;
  double low_freq_factor = 1.0;
  double high_freq_factor = 4.0;
  double original_max_positions = 8192.0;
  std::vector<float> frequency_factors;  // GGUF's rope_freqs tensor: each frequency divided by its factor
};

// The largest sizes a file may give (docs/design.md, "Real models"): generous bounds beyond any
// real model (the largest have head_dim 256, 128 heads, 126 layers, d_model 16,384, an MLP of
// 53,248, vocabularies of 256 K), so that every product of sizes fits in an int and a file that
// claims more is refused by name before anything is allocated or multiplied.
inline constexpr int kMaxHeadDim = 1024;
inline constexpr int kMaxHeads = 1024;            // query heads, and key/value heads
inline constexpr int kMaxAttentionWidth = 65536;  // heads × head_dim (the queries' width)
inline constexpr int kMaxLayers = 1024;
inline constexpr int kMaxModelWidth = 65536;  // d_model (hidden_size, n_embd, embedding_length)
inline constexpr int kMaxMlpWidth = 1 << 20;  // d_ff (intermediate_size, feed_forward_length)
inline constexpr int kMaxVocabulary = 1 << 22;
inline constexpr int kMaxPositions = 1 << 24;  // position table rows or context length
inline constexpr int kMaxTokenTypes = 1024;    // BERT's token types

struct ModelConfig {
  Architecture architecture = Architecture::Gpt2;
  std::string architecture_name;  // as the file says: "GPT2LMHeadModel", "MistralForCausalLM", "llama" (GGUF)
  std::string format;             // "safetensors" or "gguf"
  int vocab_size = 0;
  int d_model = 0;
  int num_layers = 0;
  int num_heads = 0;        // query heads H
  int num_kv_heads = 0;     // key/value heads G (H % G == 0)
  int head_dim = 0;         // d_k = d_v
  int d_ff = 0;             // the MLP's inner width
  int max_positions = 0;    // learned position table's rows (GPT-2, BERT), or the context length
  int type_vocab_size = 0;  // BERT's token types
  double norm_eps = 1e-5;
  RopeSettings rope;
  // Mistral: each query sees this many keys, itself included (Hugging Face's sliding_window).
  std::optional<int> sliding_window;
  bool tie_word_embeddings = false;
  bool has_lm_head = true;  // false for a BertModel without its masked-LM head: no next tokens
  // The ids generation stops at, as the file gives them: config.json's eos_token_id (a number or
  // a list, as Llama 3's), GGUF's tokenizer.ggml.eos_token_id and eot_token_id. Empty: not given.
  std::vector<int> end_of_text_ids;

  [[nodiscard]] bool causal() const { return architecture != Architecture::Bert; }
  // The most tokens the positions take: the learned table's rows (GPT-2, BERT); none for RoPE
  // (Llama family), whose context length is advice, not a table's end.
  [[nodiscard]] std::optional<int> position_limit() const {
    return architecture == Architecture::Llama ? std::nullopt : std::optional<int>(max_positions);
  }
  [[nodiscard]] std::string family() const;  // "GPT-2", "Llama family", "BERT"
};

}  // namespace attnviz::model
