#include "core/decode/decode_cost.h"

#include <stdexcept>

namespace attnviz::decode {
namespace {

constexpr std::uint64_t kBytesPerValue = 4;  // float32, as both backends compute

std::uint64_t projection_weights(const CostShape& s) {
  return s.d_model * (s.heads * s.d_k + s.kv_heads * s.d_k + s.kv_heads * s.d_v);
}

}  // namespace

CostShape cost_shape(const Problem& problem) {
  auto u = [](int value) { return static_cast<std::uint64_t>(value); };
  return {u(problem.d_model()), u(problem.num_heads), u(problem.num_kv_heads), u(problem.d_k), u(problem.d_v)};
}

Work cached_step(const CostShape& s, std::uint64_t cache_len) {
  const std::uint64_t wp = projection_weights(s);
  const std::uint64_t l = cache_len;
  Work work;
  work.macs = wp + s.heads * l * (s.d_k + s.d_v);
  const std::uint64_t values = s.d_model                  // x_t
                               + wp                       // W_Q, W_K, W_V
                               + s.heads * s.d_k          // q_t, for q·Kᵀ
                               + s.kv_heads * l * s.d_k   // the K cache
                               + 2 * s.heads * l          // the scores (softmax), the weights (A·V)
                               + s.kv_heads * l * s.d_v;  // the V cache
  work.bytes = kBytesPerValue * values;
  return work;
}

Work full_pass(const CostShape& s, std::uint64_t tokens) {
  const std::uint64_t wp = projection_weights(s);
  const std::uint64_t n = tokens;
  Work work;
  work.macs = n * wp + s.heads * n * n * (s.d_k + s.d_v);
  const std::uint64_t values = n * s.d_model              // X
                               + wp                       // W_Q, W_K, W_V
                               + n * s.heads * s.d_k      // Q
                               + n * s.kv_heads * s.d_k   // K
                               + 2 * s.heads * n * n      // the scores (softmax), the weights (A·V)
                               + n * s.kv_heads * s.d_v;  // V
  work.bytes = kBytesPerValue * values;
  return work;
}

std::vector<StepCost> decode_costs(const CostShape& shape, int prompt, const std::vector<int>& cache_lengths) {
  const int steps = static_cast<int>(cache_lengths.size());
  if (prompt < 1 || prompt > steps) throw std::invalid_argument("decode_costs: the prompt must hold 1 to N tokens");
  std::vector<StepCost> costs(cache_lengths.size());
  Work with_so_far;
  Work without_so_far;
  for (int t = 0; t < steps; ++t) {
    StepCost& cost = costs[static_cast<std::size_t>(t)];
    if (t == prompt - 1) {
      cost.with_cache = cost.without_cache = full_pass(shape, static_cast<std::uint64_t>(prompt));
    } else if (t >= prompt) {
      cost.with_cache = cached_step(shape, static_cast<std::uint64_t>(cache_lengths[static_cast<std::size_t>(t)]));
      cost.without_cache = full_pass(shape, static_cast<std::uint64_t>(t) + 1);
    }
    with_so_far += cost.with_cache;
    without_so_far += cost.without_cache;
    cost.with_cache_so_far = with_so_far;
    cost.without_cache_so_far = without_so_far;
  }
  return costs;
}

}  // namespace attnviz::decode
