#pragma once
// Greedy generation with the model's own KV cache, keeping what a teacher wants to see of each
// step: the prompt is prefilled at once (every layer's keys and values cached), then each new
// token runs as ONE position through every layer, its query attending over the cached keys
// (post-RoPE, grouped-query: G key/value heads), its key and value appended. Mistral's sliding
// window makes the cache a rolling buffer of `sliding_window` entries; GPT-2 adds its learned
// position. The next token is the argmax of the logits (the smaller id on a tie, as
// ForwardResult::next_tokens orders them).
//
//   Generator generator(*model);
//   GenerateOptions options;  options.max_new_tokens = 8;
//   const Generation g = generator.run(model->tokenizer().encode("The cat"), options);
//   g.steps[s].layers[l].weights;   // (H, cache_length): the query's weights over the cache
//
// Step s records the query at position P − 1 + s (the last prompt token, then each generated
// token as it is fed back), its attention over the cache and the token it predicts. A full
// ForwardPass over the prompt and the first s generated tokens has the same last row and the
// same best next token (tests/model/generate_test.cpp).
//
// The attention of a step is computed here (Eigen), not through a Backend: a Problem
// recomputes K and V from its inputs on every run, so each step would cost O(M·d·G·d_k), the
// recomputation a KV cache exists to avoid; one query over the cache is H dot products with M
// cached keys.

#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/common/matrix.h"
#include "core/model/forward.h"
#include "core/model/model.h"
#include "core/tokenizers/tokenizer.h"

namespace attnviz::model {

inline constexpr int kMaxGeneratedTokens = 1024;

struct GenerateOptions {
  int max_new_tokens = 16;                 // 1..kMaxGeneratedTokens
  std::optional<std::vector<int>> layers;  // layers whose attention rows each step keeps; nullopt: all
  int top_k = 10;
  ModelEdits edits;           // heads off or scaled, edited W_Q/W_K/W_V, as in the forward pass
  ProgressCallback progress;  // "prefill", "token 3 of 16"
  std::stop_token stop;       // checked between tokens and layers: throws Cancelled
};

// One kept layer's attention at one step: the query's row over the cache.
struct StepAttention {
  int layer = 0;
  Matrix scores;   // (H, cache_length) raw q·k, before scaling
  Matrix weights;  // (H, cache_length) softmax of scores / √d_k
};

struct GenerationStep {
  int query_position = 0;   // the query's position (the token fed at this step)
  std::string query_token;  // its label
  int id = 0;               // the token chosen: argmax of the logits
  std::string token;
  std::vector<TokenProbability> next_tokens;  // best first; next_tokens[0] is the chosen one
  int first_cached = 0;                       // the position of the cache's first entry (> 0 once a window evicts)
  int cache_length = 0;                       // entries held per layer after this query's key and value went in
  std::uint64_t cache_bytes = 0;              // keys and values of every layer, float32
  std::vector<StepAttention> layers;          // the kept layers, ascending
};

enum class StopReason { Tokens, EndOfText, PositionTable };
const char* to_string(StopReason reason);  // "tokens", "end of text", "position table"

struct Generation {
  std::vector<int> prompt_ids;
  std::vector<std::string> prompt_tokens;
  std::vector<GenerationStep> steps;  // one per generated token
  StopReason stop = StopReason::Tokens;
  std::vector<int> end_of_text_ids;  // empty: the model names none that generation stops at
  double total_ms = 0.0;

  // prompt ids then the generated ones; and their labels.
  [[nodiscard]] std::vector<int> ids() const;
  [[nodiscard]] std::vector<std::string> tokens() const;
  [[nodiscard]] bool ends_text(int id) const;  // one of end_of_text_ids
};

// The ids generation stops at: those the model's file names (ModelConfig::end_of_text_ids), else
// the vocabulary's end-of-text token found by name (<|endoftext|>, </s>, <|end_of_text|>,
// <|eot_id|>, <|im_end|>); empty when there is none.
std::vector<int> end_of_text_ids(const ModelConfig& config, const tokenizers::Tokenizer& tokenizer);

// Bytes a float32 cache of `entries` positions takes: 2 · layers · G · d_k · 4 · entries.
std::uint64_t cache_bytes(const ModelConfig& config, int entries);

class Generator {
 public:
  explicit Generator(const Model& model);

  // Throws InputError for a model that is not a decoder (BERT), a prompt with no tokens or ids
  // outside the vocabulary, a prompt that fills the position table, max_new_tokens outside
  // 1..kMaxGeneratedTokens ("--tokens"), a layer that does not exist ("--layers"), bad edits;
  // Cancelled when stopped.
  Generation run(const tokenizers::Encoding& prompt, const GenerateOptions& options);

 private:
  struct LayerCache {
    Matrix keys;    // (held, G·d_k) post-RoPE
    Matrix values;  // (held, G·d_k)
  };

  void check(const tokenizers::Encoding& prompt, const GenerateOptions& options) const;
  // Runs positions [first, first + ids.size()) through every layer, appending to the caches;
  // returns the last hidden row's logits and fills `step`'s attention of the last position.
  Matrix feed(const std::vector<int>& ids, int first, const GenerateOptions& options, GenerationStep& step);
  void embed(const std::vector<int>& ids, int first, Matrix& x) const;
  void rope(Matrix& q, Matrix& k, int first) const;
  void attend(int layer, const Matrix& q, int first, Matrix& contexts, StepAttention* kept);
  void evict();

  const Model& model_;
  std::vector<LayerCache> caches_;
  int first_cached_ = 0;  // the position of the caches' row 0
  Matrix rope_cos_, rope_sin_;
  std::vector<std::string> token_labels_;  // each position's token so far, for messages
};

}  // namespace attnviz::model
