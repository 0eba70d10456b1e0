#pragma once
// Problem: a Scenario resolved into concrete inputs (tokens, all matrices, the scale
// factor), validated. Both backends compute from a Problem, so tokenizing and generating
// happen once and the backends see identical floats.

#include <optional>
#include <string>
#include <vector>

#include "core/common/matrix.h"
#include "core/scenario/scenario.h"

namespace attnviz {

struct Problem {
  std::vector<std::string> tokens;         // N query tokens
  std::vector<std::string> source_tokens;  // M key/value tokens (a copy of tokens without a source)
  bool cross_attention = false;
  Matrix x;                  // N × d_model
  Matrix xs;                 // M × d_model (a copy of x without a source)
  Matrix wq;                 // d_model × (H·d_k)
  Matrix wk;                 // d_model × (G·d_k)
  Matrix wv;                 // d_model × (G·d_v)
  std::optional<Matrix> wo;  // (H·d_v) × d_out
  int num_heads = 1;         // H
  int num_kv_heads = 1;      // G, H % G == 0
  int d_k = 1;
  int d_v = 1;
  float scale = 1.0f;
  MaskSetting mask;
  // Positions (core/scenario/positions.h). With sinusoidal positions x and xs already hold the
  // embeddings plus the table; x_tokens and xs_tokens keep the embeddings alone (the lesson
  // shows both). RoPE and ALiBi are applied by every backend from these settings.
  PositionalKind positional = PositionalKind::None;
  double rope_theta = 10000.0;
  int position_offset = 0;                // the position of row 0 (and of key 0)
  std::optional<Matrix> x_tokens;         // N × d_model, only with sinusoidal positions
  std::optional<Matrix> xs_tokens;        // M × d_model, only with sinusoidal positions
  std::optional<DropoutSetting> dropout;  // on the weights, after the softmax (dropout.h)

  [[nodiscard]] int n() const { return x.rows; }
  [[nodiscard]] int m() const { return xs.rows; }
  [[nodiscard]] int d_model() const { return x.cols; }
  [[nodiscard]] int kv_head_of(int head) const { return head / (num_heads / num_kv_heads); }
  [[nodiscard]] int output_cols() const { return wo ? wo->cols : num_heads * d_v; }
};

// "head 9 does not exist: the scenario has 8 heads (0-7)" ("1 head (0)"): what every command
// says of a head past the scenario's.
inline std::string missing_head_message(int head, int heads) {
  return "head " + std::to_string(head) + " does not exist: the scenario has " + std::to_string(heads) +
         (heads == 1 ? " head (0)" : " heads (0-" + std::to_string(heads - 1) + ")");
}

// Limits a Problem is checked against (the tokenizer's hard limit among them).
struct ProblemLimits {
  int max_tokens = 4096;
  int max_dim = 4096;  // d_model, d_k, d_v, H·d_k, ...
  int max_heads = 64;
  // heads × N × M: the scores and weights of every head are kept (and drawn), so this bounds
  // memory (2^28 cells = 1 GiB per matrix kind) rather than failing inside an allocation.
  long long max_attention_cells = 1LL << 28;
};

// Tokenizes, generates what the scenario leaves out, checks every shape and value.
// Throws InputError naming `origin` (a file name or "<gui>") and the JSON pointer.
Problem build_problem(const Scenario& scenario, const std::string& origin, const ProblemLimits& limits = {});

}  // namespace attnviz
