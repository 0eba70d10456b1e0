#pragma once
// Scenario: everything the user set, exactly as in an attnviz-scenario/1 file
// (docs/design.md). Plain data: no derived values; build_problem() derives them.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/matrix.h"
#include "core/text/tokenizer_mode.h"

namespace attnviz {

struct ScaleSetting {
  enum class Kind { InvSqrtDk, None, Value };
  Kind kind = Kind::InvSqrtDk;
  double value = 1.0;  // used when kind == Value

  [[nodiscard]] float resolve(int d_k) const;  // the factor applied to raw scores
  friend bool operator==(const ScaleSetting&, const ScaleSetting&) = default;
};

struct MaskSetting {
  bool causal = false;
  std::optional<int> window;  // radius r >= 0
  std::vector<int> global;    // Longformer global token indices (needs window or an expression)
  // A mask expression (docs/design.md "Mask expressions"), ANDed with the fields above;
  // empty (or only white space): none.
  std::string expression = {};
  std::vector<int> documents = {};  // ascending start index of each document, for doc(i)
  friend bool operator==(const MaskSetting&, const MaskSetting&) = default;
};

// Where token positions enter attention (docs/design.md "Positions"): nowhere, a sinusoidal
// table added to the embeddings (Vaswani et al. 2017), a rotation of each head's q and k
// (RoPE, Su et al. 2021, Hugging Face's rotate-half convention), or a bias on the scaled
// scores (ALiBi, Press et al. 2022).
enum class PositionalKind { None, Sinusoidal, Rope, Alibi };

// Dropout on the weights, after the softmax (Srivastava et al. 2014): each weight is dropped
// with probability p by a hash of (seed, head, query, key), the kept ones scaled by 1/(1 − p).
struct DropoutSetting {
  double p = 0.1;  // in [0, 1)
  std::uint64_t seed = 1;
  friend bool operator==(const DropoutSetting&, const DropoutSetting&) = default;
};

// Cross-attention: the source sentence supplies keys and values.
struct SourceSetting {
  std::string sentence;
  TokenizerMode tokenizer = TokenizerMode::Words;
  std::optional<std::vector<std::string>> tokens;
  std::optional<Matrix> embeddings;  // M × d_model; absent: generated from the seed
  friend bool operator==(const SourceSetting&, const SourceSetting&) = default;
};

struct Scenario {
  std::string title;
  std::string sentence;
  TokenizerMode tokenizer = TokenizerMode::Words;
  std::optional<std::vector<std::string>> tokens;  // explicit tokens; then sentence is a caption
  int d_model = 8;
  std::optional<Matrix> embeddings;  // N × d_model; absent: generated per token text
  std::uint64_t seed = 1;
  int num_heads = 1;
  int num_kv_heads = 1;
  int d_k = 4;
  int d_v = 4;
  std::optional<Matrix> wq;  // d_model × (num_heads·d_k)
  std::optional<Matrix> wk;  // d_model × (num_kv_heads·d_k)
  std::optional<Matrix> wv;  // d_model × (num_kv_heads·d_v)
  std::optional<Matrix> wo;  // (num_heads·d_v) × d_out
  // Extension: when wo is absent and this is set, W_O is generated from the seed with
  // d_out = d_model (JSON "generate_wo": true).
  bool generate_wo = false;
  ScaleSetting scale;
  MaskSetting mask;
  std::optional<SourceSetting> source;
  PositionalKind positional = PositionalKind::None;
  double rope_theta = 10000.0;  // RoPE's base θ
  // Extension: the position of the first token (of the sentence and of the source), for a
  // sentence that continues an earlier one; RoPE's scores do not depend on it.
  int position_offset = 0;
  std::optional<DropoutSetting> dropout;  // absent: no dropout

  friend bool operator==(const Scenario&, const Scenario&) = default;
};

}  // namespace attnviz
