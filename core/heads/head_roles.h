#pragma once
// Head roles (docs/design.md "What the heads do"): for every layer and head, scores read off its
// attention weights A (N × N): how much each query looks at the previous token, the first token,
// itself, the token after an earlier occurrence of itself (induction) and that occurrence
// (duplicate), the entropy of its rows and how far back they look. Induction and duplicate are
// read on a repeated random probe: p special tokens, K random ids, the same K again.

#include <cstdint>
#include <optional>
#include <vector>

#include "core/common/matrix.h"
#include "core/model/forward.h"
#include "core/model/model.h"
#include "core/tokenizers/tokenizer.h"

namespace attnviz::heads {

struct HeadScores {
  double previous_token = 0.0;      // mean over rows i ≥ 1 of A[i, i−1]
  double first_token = 0.0;         // mean over rows i ≥ 1 of A[i, 0]
  double self = 0.0;                // mean over rows i ≥ 1 of A[i, i]
  std::optional<double> induction;  // on a probe: mean over i in [p+K, p+2K) of A[i, i−K+1]
  std::optional<double> duplicate;  // the same of A[i, i−K]
  double entropy = 0.0;             // mean over all rows of −Σ A·ln A, nats
  double mean_distance = 0.0;       // mean over all rows of Σ_j A[i,j]·(i − j)
};

// The repeated random probe: ids = prefix (p), K random ids, the same K again.
struct RepeatProbe {
  std::vector<int> ids;
  int prefix = 0;
  int repeat = 0;
};

// The probe for `repeat` = K: the special tokens the tokenizer puts before any text (Llama's <s>,
// BERT's [CLS]; none for GPT-2), then K ids drawn uniformly (seeded, SplitMix64) from the
// vocabulary without its special tokens, then the same K. Throws InputError naming --repeat when
// K < 1 or the probe is longer than the model's positions (or the tokens a pass takes).
RepeatProbe make_repeat_probe(const model::Model& model, int repeat, std::uint64_t seed);
// The probe's K when none is asked for: 32, or as many as the model's positions allow (at least 1).
int default_repeat(const model::Model& model);
// The probe as the forward pass takes it (each id labelled as the tokenizer reads it).
tokenizers::Encoding probe_encoding(const model::Model& model, const RepeatProbe& probe);

// One head's scores from its weights; `probe` gives the induction and duplicate scores.
HeadScores score_head(const Matrix& weights, const RepeatProbe* probe);

// Every kept layer's heads, [kept layer][head] in ForwardResult::layers' order.
std::vector<std::vector<HeadScores>> head_roles(const model::ForwardResult& result, const RepeatProbe* probe);

}  // namespace attnviz::heads
