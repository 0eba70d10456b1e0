// The cost formulas (docs/decode.md "Cost") against numbers counted by hand for a tiny shape:
// d_model 3, H = 2 query heads, G = 1 key/value head, d_k 2, d_v 5.
//
//   projection weights Wp = d_model · (H·d_k + G·d_k + G·d_v) = 3 · (4 + 2 + 5) = 33

#include <gtest/gtest.h>

#include "core/decode/decode_cost.h"
#include "core/decode/decoder.h"
#include "tests/attention/random_problem.h"

namespace attnviz::decode {
namespace {

const CostShape kTiny{3, 2, 1, 2, 5};

TEST(DecodeCost, AStepWithTheCache) {
  // L = 3 rows held. Multiply-adds: q, k, v of the new token, 33; q·Kᵀ, 2 heads · 3 keys · 2;
  // A·V, 2 heads · 3 keys · 5: 33 + 12 + 30 = 75.
  // Values read: x_t 3, weights 33, q_t 2·2 = 4, K cache 3·2 = 6, scores 2·3 = 6, weights
  // 2·3 = 6, V cache 3·5 = 15: 73 values, 292 bytes.
  EXPECT_EQ(cached_step(kTiny, 3), (Work{75, 292}));
}

TEST(DecodeCost, AWholePassOverFourTokens) {
  // Multiply-adds: projections 4 · 33 = 132; Q·Kᵀ 2 · 4 · 4 · 2 = 64; A·V 2 · 4 · 4 · 5 = 160:
  // 356. Values read: X 4·3 = 12, weights 33, Q 4·4 = 16, K 4·2 = 8, scores and weights
  // 2 · 2·16 = 64, V 4·5 = 20: 153 values, 612 bytes.
  EXPECT_EQ(full_pass(kTiny, 4), (Work{356, 612}));
}

TEST(DecodeCost, OneTokenCostsTheSameEitherWay) {
  // 33 + 2·1·7 = 47 multiply-adds; 3 + 33 + 4 + 2 + 4 + 5 = 51 values.
  EXPECT_EQ(cached_step(kTiny, 1), (Work{47, 204}));
  EXPECT_EQ(full_pass(kTiny, 1), (Work{47, 204}));
}

TEST(DecodeCost, StepsOfFourTokensAfterAPromptOfTwo) {
  // t = 0: inside the prompt, counted at its last row. t = 1: the prompt's pass over 2 tokens:
  //   66 + 2·4·7 = 122 multiply-adds; 6 + 33 + 8 + 4 + 16 + 10 = 77 values (308 bytes).
  // t = 2: with the cache, L = 3: 75 and 292 (above); without, a pass over 3 tokens:
  //   99 + 2·9·7 = 225; 9 + 33 + 12 + 6 + 36 + 15 = 111 values (444 bytes).
  // t = 3: with the cache, L = 4: 33 + 2·4·7 = 89; 3 + 33 + 4 + 8 + 16 + 20 = 84 values (336);
  //   without, the pass over 4 tokens: 356 and 612.
  const std::vector<StepCost> costs = decode_costs(kTiny, 2, {1, 2, 3, 4});
  ASSERT_EQ(costs.size(), 4u);
  EXPECT_EQ(costs[0].with_cache, (Work{0, 0}));
  EXPECT_EQ(costs[0].without_cache, (Work{0, 0}));
  EXPECT_EQ(costs[1].with_cache, (Work{122, 308}));
  EXPECT_EQ(costs[1].without_cache, (Work{122, 308}));
  EXPECT_EQ(costs[2].with_cache, (Work{75, 292}));
  EXPECT_EQ(costs[2].without_cache, (Work{225, 444}));
  EXPECT_EQ(costs[3].with_cache, (Work{89, 336}));
  EXPECT_EQ(costs[3].without_cache, (Work{356, 612}));
  EXPECT_EQ(costs[3].with_cache_so_far, (Work{122 + 75 + 89, 308 + 292 + 336}));
  EXPECT_EQ(costs[3].without_cache_so_far, (Work{122 + 225 + 356, 308 + 444 + 612}));
}

TEST(DecodeCost, AWindowCapsTheCachedStep) {
  // Window 1: at most 2 rows held. t = 2 with the cache: 33 + 2·2·7 = 61 multiply-adds;
  // 3 + 33 + 4 + 4 + 8 + 10 = 62 values (248 bytes); without it still the pass over 3 tokens.
  const std::vector<StepCost> costs = decode_costs(kTiny, 1, {1, 2, 2});
  EXPECT_EQ(costs[0].with_cache, (Work{47, 204}));
  EXPECT_EQ(costs[2].with_cache, (Work{61, 248}));
  EXPECT_EQ(costs[2].without_cache, (Work{225, 444}));
}

TEST(DecodeCost, TheDecoderUsesTheScenarioDimensionsAndItsCacheLengths) {
  testing::TestRandom random(11);
  testing::ProblemShape shape;
  shape.n = 4;
  shape.d_model = 3;
  shape.heads = 2;
  shape.kv_heads = 1;
  shape.d_k = 2;
  shape.d_v = 5;
  shape.mask.causal = true;
  const DecodeTrace trace = decode_head(testing::random_problem(random, shape), 1, 2);
  EXPECT_EQ(trace.steps[1].cost.with_cache, (Work{122, 308}));
  EXPECT_EQ(trace.steps[3].cost.with_cache, (Work{89, 336}));
  EXPECT_EQ(trace.steps[3].cost.without_cache_so_far, (Work{703, 1364}));
}

TEST(DecodeCost, RefusesAPromptOutsideTheSentence) {
  EXPECT_THROW((void)decode_costs(kTiny, 0, {1, 2}), std::invalid_argument);
  EXPECT_THROW((void)decode_costs(kTiny, 3, {1, 2}), std::invalid_argument);
}

}  // namespace
}  // namespace attnviz::decode
