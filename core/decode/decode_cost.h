#pragma once
// What a decoding step costs, with the KV cache and without it, for the whole attention layer
// (every query head, every key/value head), from the scenario's own dimensions. The formulas
// are written out in docs/decode.md "Cost"; in short, with Wp = d_model · (H·d_k + G·d_k + G·d_v)
// projection weights and 4 bytes per float32 value read:
//
//   a step with the cache (L rows held):    macs   = Wp + H·L·(d_k + d_v)
//                                            values = d_model + Wp + H·d_k + G·L·d_k + 2·H·L + G·L·d_v
//   a pass over n tokens, the whole n × n   macs   = n·Wp + H·n²·(d_k + d_v)
//   matrix (a prefill; a step without it):   values = n·d_model + Wp + n·H·d_k + n·G·d_k + 2·H·n² + n·G·d_v
//
// Multiply-adds count the products Q = X·W_Q, K = X·W_K, V = X·W_V, Q·Kᵀ and A·V; bytes count
// the operands those products and the softmax read (the softmax reads the scores, A·V the
// weights), each key/value head's K and V once for all the query heads that share them.

#include <cstdint>
#include <vector>

#include "core/scenario/problem.h"

namespace attnviz::decode {

struct CostShape {
  std::uint64_t d_model = 1;
  std::uint64_t heads = 1;     // H
  std::uint64_t kv_heads = 1;  // G
  std::uint64_t d_k = 1;
  std::uint64_t d_v = 1;
};

CostShape cost_shape(const Problem& problem);

struct Work {
  std::uint64_t macs = 0;
  std::uint64_t bytes = 0;
  Work& operator+=(const Work& other) {
    macs += other.macs;
    bytes += other.bytes;
    return *this;
  }
  friend bool operator==(const Work&, const Work&) = default;
};

// Row t from a cache of `cache_len` rows: the new token's q, k, v, one row of scores against
// the cache, its softmax and context.
Work cached_step(const CostShape& shape, std::uint64_t cache_len);
// Every row of `tokens` tokens at once, the whole tokens × tokens matrix, as a dense pass does.
Work full_pass(const CostShape& shape, std::uint64_t tokens);

struct StepCost {
  Work with_cache;
  Work without_cache;
  Work with_cache_so_far;     // steps 0..t
  Work without_cache_so_far;  // steps 0..t
};

// One entry per step t (cache_lengths[t] rows held at step t). The prompt's P rows are one
// pass (full_pass(P)) either way, counted at its last row t = P − 1 (rows before it cost 0);
// from t = P on, a step costs cached_step(cache_lengths[t]) with the cache and
// full_pass(t + 1) without it (the whole prefix recomputed to get its last row).
std::vector<StepCost> decode_costs(const CostShape& shape, int prompt, const std::vector<int>& cache_lengths);

}  // namespace attnviz::decode
