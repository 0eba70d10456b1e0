// The KV cache as the Decode view shows it (core/decode/cache_view.h), against the dense causal
// computation: the held rows' weights are the dense row's, Σ weight · v over the slots is the
// dense context, the new row is the one written, and a rolling buffer keeps its slots.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/cpu/cpu_backend.h"
#include "core/decode/cache_view.h"
#include "core/scenario/scenario_json.h"

namespace attnviz::decode {
namespace {

constexpr double kTolerance = 1e-6;

Problem preset_problem(const std::string& name) {
  const std::string path = "preset:" + name;
  return build_problem(load_scenario(path).scenario, path);
}

void expect_view_matches_dense(const std::string& preset, int head, int prompt) {
  SCOPED_TRACE(preset + " head " + std::to_string(head) + " P " + std::to_string(prompt));
  Problem problem = preset_problem(preset);
  const DecodeTrace trace = decode_head(problem, head, prompt);
  problem.mask = decoding_mask(problem.mask);
  const Result dense = make_cpu_backend()->compute(problem);
  const HeadResult& dense_head = dense.heads[static_cast<std::size_t>(head)];
  const bool rolling = problem.mask.window.has_value();
  for (int t = prompt - 1; t < problem.n(); ++t) {
    const CacheView view = cache_view(trace, t, rolling, t == prompt - 1 ? 0 : t);
    if (rolling) {
      EXPECT_EQ(static_cast<int>(view.slots.size()), trace.cache_capacity);
    }
    std::vector<double> context(static_cast<std::size_t>(problem.d_v), 0.0);
    int held = 0;
    for (const CacheSlot& slot : view.slots) {
      if (slot.key < 0) continue;
      ++held;
      EXPECT_EQ(slot.written, t == prompt - 1 ? true : slot.key == t) << "t " << t << " key " << slot.key;
      EXPECT_EQ(slot.k, trace.steps[static_cast<std::size_t>(slot.key)].k);
      EXPECT_NEAR(slot.weight, dense_head.weights.at(t, slot.key), kTolerance) << "t " << t << " key " << slot.key;
      if (slot.visible) {
        EXPECT_NEAR(slot.score, dense_head.scores.at(t, slot.key) * problem.scale, kTolerance * 10.0);
      }
      for (int c = 0; c < problem.d_v; ++c)
        context[static_cast<std::size_t>(c)] += double{slot.weight} * slot.v[static_cast<std::size_t>(c)];
    }
    EXPECT_EQ(held, static_cast<int>(trace.steps[static_cast<std::size_t>(t)].cache.keys.size()));
    for (int c = 0; c < problem.d_v; ++c) {
      EXPECT_NEAR(context[static_cast<std::size_t>(c)], dense_head.context.at(t, c), kTolerance) << "t " << t;
    }
    for (std::size_t e = 0; e < view.evicted.size(); ++e) {
      EXPECT_EQ(view.evicted_k[e], trace.steps[static_cast<std::size_t>(view.evicted[e])].k);
    }
  }
}

TEST(CacheView, EveryStepsSlotsGiveTheDenseRow) {
  expect_view_matches_dense("korean-restaurant", 0, 3);
  expect_view_matches_dense("gqa", 5, 1);
  expect_view_matches_dense("sliding-window", 2, 2);
  expect_view_matches_dense("longformer", 1, 4);
}

TEST(CacheView, ARollingBufferReusesTheEvictedRowsSlot) {
  const Problem problem = preset_problem("sliding-window");  // window 3: 4 slots
  const DecodeTrace trace = decode_head(problem, 0, 1);
  ASSERT_EQ(trace.cache_capacity, 4);
  const CacheView before = cache_view(trace, 3, true, 3);
  const CacheView after = cache_view(trace, 4, true, 4);
  ASSERT_EQ(after.evicted, std::vector<int>{0});
  const auto slot_of = [](const CacheView& v, int key) {
    for (std::size_t s = 0; s < v.slots.size(); ++s)
      if (v.slots[s].key == key) return static_cast<int>(s);
    return -1;
  };
  EXPECT_EQ(slot_of(after, 4), slot_of(before, 0)) << "row 4 takes row 0's slot";
  EXPECT_EQ(slot_of(after, 0), -1);
  EXPECT_EQ(after.evicted_k.front(), trace.steps[0].k);
  const CacheView early = cache_view(trace, 1, true, 1);
  EXPECT_EQ(std::count_if(early.slots.begin(), early.slots.end(), [](const CacheSlot& s) { return s.key < 0; }), 2)
      << "two of the four slots are still empty at step 1";
  EXPECT_THROW((void)cache_view(trace, problem.n(), true, 0), std::out_of_range);
}

}  // namespace
}  // namespace attnviz::decode
