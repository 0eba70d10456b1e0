#pragma once
// KV-cache decoding of a scenario's sentence, one head followed: the P prompt tokens are
// prefilled, then one token a step, each under a causal mask (docs/decode.md).
//
// At step t the new token's q, k, v rows are computed from its embedding alone; k and v go
// into the cache's buffer (the slot cache_plan.h gives), and the row of scores, weights and
// the context are computed from the rows the buffer holds, never from a recomputed K or V.
// The arithmetic is float64, the q, k, v rows and results rounded to float32 once, so every
// decoded row matches the dense path's same row within its own float32 rounding.
// Positions as on the dense path: with RoPE the new token's q and k are turned at its own
// position (position_offset + t) before k enters the cache; with ALiBi the new row of scores
// gets −slope·(t − j); with dropout the new row of weights is dropped out by the same hash
// (core/scenario/dropout.h), `weights` after dropout and `weights_before_dropout` before.

#include <string>
#include <vector>

#include "core/decode/cache_plan.h"
#include "core/decode/decode_cost.h"
#include "core/scenario/problem.h"

namespace attnviz::decode {

struct DecodeStep {
  int t = 0;
  std::string token;
  bool prefill = false;       // t < P: computed in the prompt's one pass
  std::vector<float> q;       // d_k: row t of Q_h (turned by RoPE, with RoPE)
  std::vector<float> k;       // d_k: row t of K_g (turned by RoPE), written into the cache at this step
  std::vector<float> v;       // d_v: row t of V_g
  CacheStep cache;            // the rows held (t included), their slots, the rows evicted
  std::vector<float> scores;  // aligned with cache.keys: scale · q·k_j (+ ALiBi's bias), −∞ where the mask hides j
  std::vector<float> weights;                 // aligned with cache.keys: the softmax (after dropout), 0 where hidden
  std::vector<float> weights_before_dropout;  // with dropout only: the softmax's weights
  std::vector<float> context;                 // d_v: Σ_j weights_j · v_j
  StepCost cost;                              // the whole layer's work (decode_cost.h)
};

struct DecodeTrace {
  int head = 0;
  int kv_head = 0;                       // the cache head this query head reads
  std::vector<int> heads_sharing_cache;  // every query head that reads kv_head's cache
  int prompt = 1;
  MaskSetting mask;               // the scenario's mask with causal on
  int cache_capacity = 0;         // slots in the buffer (r + 1 under a window r)
  std::vector<DecodeStep> steps;  // t = 0 .. N − 1
};

// The mask decoding uses: the scenario's, always causal (a token cannot attend to a token not
// generated yet). Without `causal`, a window r becomes the sliding window i − r ≤ j ≤ i.
MaskSetting decoding_mask(MaskSetting setting);

// The query heads that share key/value head `kv_head` (H / G of them).
std::vector<int> heads_sharing(const Problem& problem, int kv_head);

// Throws std::invalid_argument for a cross-attention problem (decoding generates the
// sentence itself), a head outside [0, H) or a prompt outside [1, N].
DecodeTrace decode_head(const Problem& problem, int head, int prompt);

}  // namespace attnviz::decode
