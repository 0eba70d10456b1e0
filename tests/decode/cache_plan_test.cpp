// Which rows the KV cache holds, written out by hand for small masks.

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/decode/cache_plan.h"

namespace attnviz::decode {
namespace {

CachePlan plan(bool causal, std::optional<int> window, std::vector<int> global, int n) {
  MaskSetting setting;
  setting.causal = causal;
  setting.window = window;
  setting.global = std::move(global);
  return plan_cache(Mask(setting, n, n));
}

TEST(CachePlan, WithoutAWindowTheCacheGrowsByOneRowAStep) {
  const CachePlan p = plan(true, std::nullopt, {}, 4);
  EXPECT_EQ(p.capacity, 4);
  EXPECT_EQ(p.steps[3].keys, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(p.steps[3].slots, (std::vector<int>{0, 1, 2, 3}));
  for (const CacheStep& step : p.steps) EXPECT_TRUE(step.evicted.empty());
}

TEST(CachePlan, WindowOfTwoRollsThroughThreeSlots) {
  const CachePlan p = plan(true, 2, {}, 6);
  EXPECT_EQ(p.capacity, 3);
  EXPECT_EQ(p.steps[2].keys, (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(p.steps[2].evicted.empty());
  EXPECT_EQ(p.steps[3].keys, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(p.steps[3].slots, (std::vector<int>{1, 2, 0}));  // row 3 took row 0's slot
  EXPECT_EQ(p.steps[3].evicted, (std::vector<int>{0}));
  EXPECT_EQ(p.steps[5].keys, (std::vector<int>{3, 4, 5}));
  EXPECT_EQ(p.steps[5].slots, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(p.steps[5].evicted, (std::vector<int>{2}));
}

TEST(CachePlan, WindowZeroHoldsOnlyTheNewRow) {
  const CachePlan p = plan(true, 0, {}, 3);
  EXPECT_EQ(p.capacity, 1);
  EXPECT_EQ(p.steps[2].keys, (std::vector<int>{2}));
  EXPECT_EQ(p.steps[2].evicted, (std::vector<int>{1}));
}

TEST(CachePlan, AGlobalKeyIsPinned) {
  const CachePlan p = plan(true, 1, {0}, 5);
  EXPECT_EQ(p.steps[4].keys, (std::vector<int>{0, 3, 4}));
  EXPECT_EQ(p.steps[4].evicted, (std::vector<int>{2}));
  EXPECT_EQ(p.capacity, 3);
}

TEST(CachePlan, NeedsACausalSquareMask) {
  EXPECT_THROW((void)plan(false, std::nullopt, {}, 3), std::invalid_argument);
  MaskSetting causal;
  causal.causal = true;
  EXPECT_THROW((void)plan_cache(Mask(causal, 3, 4)), std::invalid_argument);
}

}  // namespace
}  // namespace attnviz::decode
