#include "core/decode/decoder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/scenario/dropout.h"
#include "core/scenario/positions.h"

namespace attnviz::decode {
namespace {

// The K and V cache of one key/value head: `capacity` slots of d_k and d_v floats.
struct CacheBuffer {
  int d_k = 0;
  int d_v = 0;
  std::vector<float> k;  // (capacity, d_k)
  std::vector<float> v;  // (capacity, d_v)

  CacheBuffer(int capacity, int key_width, int value_width)
      : d_k(key_width),
        d_v(value_width),
        k(static_cast<std::size_t>(capacity) * static_cast<std::size_t>(key_width)),
        v(static_cast<std::size_t>(capacity) * static_cast<std::size_t>(value_width)) {}
  float* k_slot(int slot) { return k.data() + static_cast<std::size_t>(slot) * static_cast<std::size_t>(d_k); }
  float* v_slot(int slot) { return v.data() + static_cast<std::size_t>(slot) * static_cast<std::size_t>(d_v); }
};

// x_t · W[:, first : first + count] in float64, rounded to float32 once.
std::vector<float> project_row(const Matrix& x, int t, const Matrix& w, int first, int count) {
  std::vector<float> row(static_cast<std::size_t>(count));
  for (int c = 0; c < count; ++c) {
    double sum = 0.0;
    for (int d = 0; d < x.cols; ++d) sum += static_cast<double>(x.at(t, d)) * static_cast<double>(w.at(d, first + c));
    row[static_cast<std::size_t>(c)] = static_cast<float>(sum);
  }
  return row;
}

// The new row of scores, weights and context, read from the cache's slots.
void attend_from_cache(const Problem& p, const Mask& mask, float slope, const DropoutRule& dropout, int head,
                       CacheBuffer& cache, DecodeStep& step) {
  const std::size_t held = step.cache.keys.size();
  step.scores.assign(held, -std::numeric_limits<float>::infinity());
  step.weights.assign(held, 0.0f);
  std::vector<double> exponentials(held, 0.0);
  double row_max = -std::numeric_limits<double>::infinity();
  for (std::size_t n = 0; n < held; ++n) {
    if (!mask.visible(head, step.t, step.cache.keys[n])) continue;  // held for a later query only
    const float* k = cache.k_slot(step.cache.slots[n]);
    double dot = 0.0;
    for (int c = 0; c < p.d_k; ++c)
      dot += static_cast<double>(step.q[static_cast<std::size_t>(c)]) * static_cast<double>(k[c]);
    const int distance = std::abs(step.t - step.cache.keys[n]);
    step.scores[n] = static_cast<float>(static_cast<double>(p.scale) * dot - static_cast<double>(slope) * distance);
    row_max = std::max(row_max, static_cast<double>(step.scores[n]));
  }
  double sum = 0.0;
  for (std::size_t n = 0; n < held; ++n) {
    if (std::isinf(step.scores[n])) continue;
    exponentials[n] = std::exp(static_cast<double>(step.scores[n]) - row_max);
    sum += exponentials[n];
  }
  // sum ≥ 1 when anything is visible; a mask expression may hide everything from a row,
  // whose weights and context are then 0 (docs/design.md).
  if (sum == 0.0) sum = 1.0;
  std::vector<double> context(static_cast<std::size_t>(p.d_v), 0.0);
  if (dropout.active) step.weights_before_dropout.assign(held, 0.0f);
  for (std::size_t n = 0; n < held; ++n) {
    double weight = exponentials[n] / sum;
    if (dropout.active) {
      step.weights_before_dropout[n] = static_cast<float>(weight);
      weight = dropout.keeps(head, step.t, step.cache.keys[n]) ? weight * static_cast<double>(dropout.keep_scale) : 0.0;
    }
    step.weights[n] = static_cast<float>(weight);
    if (weight == 0.0) continue;
    const float* v = cache.v_slot(step.cache.slots[n]);
    for (int c = 0; c < p.d_v; ++c) context[static_cast<std::size_t>(c)] += weight * static_cast<double>(v[c]);
  }
  step.context.assign(context.begin(), context.end());
}

void check_arguments(const Problem& p, int head, int prompt) {
  if (p.cross_attention)
    throw std::invalid_argument("decoding generates the sentence itself: cross-attention cannot be decoded");
  if (head < 0 || head >= p.num_heads) throw std::invalid_argument("decode_head: head out of range");
  if (prompt < 1 || prompt > p.n()) throw std::invalid_argument("decode_head: prompt out of range");
}

}  // namespace

MaskSetting decoding_mask(MaskSetting setting) {
  setting.causal = true;
  return setting;
}

std::vector<int> heads_sharing(const Problem& problem, int kv_head) {
  std::vector<int> heads;
  for (int h = 0; h < problem.num_heads; ++h) {
    if (problem.kv_head_of(h) == kv_head) heads.push_back(h);
  }
  return heads;
}

DecodeTrace decode_head(const Problem& p, int head, int prompt) {
  check_arguments(p, head, prompt);
  DecodeTrace trace;
  trace.head = head;
  trace.kv_head = p.kv_head_of(head);
  trace.heads_sharing_cache = heads_sharing(p, trace.kv_head);
  trace.prompt = prompt;
  trace.mask = decoding_mask(p.mask);
  const Mask mask(trace.mask, p.n(), p.n(), p.num_heads);
  CachePlan plan = plan_cache(mask, head);
  trace.cache_capacity = plan.capacity;

  std::vector<int> cache_lengths;
  for (const CacheStep& step : plan.steps) cache_lengths.push_back(static_cast<int>(step.keys.size()));
  const std::vector<StepCost> costs = decode_costs(cost_shape(p), prompt, cache_lengths);

  CacheBuffer cache(plan.capacity, p.d_k, p.d_v);
  const float slope = head_slopes(p)[static_cast<std::size_t>(head)];
  const DropoutRule dropout = dropout_rule(p.dropout);
  const Matrix rope = problem_rope_table(p);
  for (int t = 0; t < p.n(); ++t) {
    DecodeStep& step = trace.steps.emplace_back();
    step.t = t;
    step.token = p.tokens[static_cast<std::size_t>(t)];
    step.prefill = t < prompt;
    step.q = project_row(p.x, t, p.wq, head * p.d_k, p.d_k);
    step.k = project_row(p.x, t, p.wk, trace.kv_head * p.d_k, p.d_k);
    step.v = project_row(p.x, t, p.wv, trace.kv_head * p.d_v, p.d_v);
    if (!rope.empty()) {  // the new token's q and k turned at its own position
      rope_rotate(step.q.data(), rope.row(t), p.d_k);
      rope_rotate(step.k.data(), rope.row(t), p.d_k);
    }
    step.cache = std::move(plan.steps[static_cast<std::size_t>(t)]);
    const int slot = step.cache.slots.back();  // row t is the newest, last in key order
    std::copy(step.k.begin(), step.k.end(), cache.k_slot(slot));
    std::copy(step.v.begin(), step.v.end(), cache.v_slot(slot));
    attend_from_cache(p, mask, slope, dropout, head, cache, step);
    step.cost = costs[static_cast<std::size_t>(t)];
  }
  return trace;
}

}  // namespace attnviz::decode
