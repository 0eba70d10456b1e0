// KV-cache decoding against the dense path: every decoded row (q, k, v, the row of scores and
// weights, the context) equals the same row of the full causal computation of the Eigen
// backend within 1e-6, for several prompt lengths, MHA, GQA, MQA, windows and global tokens.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/cpu/cpu_backend.h"
#include "core/decode/decoder.h"
#include "core/lesson/projections.h"
#include "core/scenario/positions.h"
#include "core/scenario/scenario_json.h"
#include "tests/attention/random_problem.h"

namespace attnviz::decode {
namespace {

constexpr double kTolerance = 1e-6;

// Within 1e-6 absolute where values stay within ±1, relative to the value beyond (as
// docs/design.md measures the backends' agreement).
void expect_close(double actual, double expected, const std::string& what) {
  EXPECT_LE(std::abs(actual - expected), kTolerance * std::max(1.0, std::abs(expected)))
      << what << ": decoded " << actual << ", dense " << expected;
}

Problem preset_problem(const std::string& name) {
  const std::string path = "preset:" + name;
  return build_problem(load_scenario(path).scenario, path);
}

// The dense computation decoding must reproduce: the same problem under its causal mask.
Result dense_causal(Problem problem) {
  problem.mask = decoding_mask(problem.mask);
  return make_cpu_backend()->compute(problem);
}

void expect_row(const std::vector<float>& decoded, const Matrix& dense, int row, int first, const std::string& what) {
  ASSERT_LE(first + static_cast<int>(decoded.size()), dense.cols) << what;
  for (std::size_t c = 0; c < decoded.size(); ++c) {
    expect_close(decoded[c], dense.at(row, first + static_cast<int>(c)), what + "[" + std::to_string(c) + "]");
  }
}

// Every step of `trace` against row t of the dense result of head trace.head.
void expect_matches_dense(const Problem& p, const DecodeTrace& trace, const Result& dense) {
  const HeadResult& head = dense.heads[static_cast<std::size_t>(trace.head)];
  const lesson::Projections qkv = lesson::compute_projections(p);
  ASSERT_EQ(static_cast<int>(trace.steps.size()), p.n());
  for (const DecodeStep& step : trace.steps) {
    const int t = step.t;
    const std::string at =
        "head " + std::to_string(trace.head) + " P " + std::to_string(trace.prompt) + " t " + std::to_string(t);
    EXPECT_EQ(step.prefill, t < trace.prompt) << at;
    EXPECT_EQ(step.token, p.tokens[static_cast<std::size_t>(t)]) << at;
    expect_row(step.q, qkv.q, t, trace.head * p.d_k, at + " q");
    expect_row(step.k, qkv.k, t, trace.kv_head * p.d_k, at + " k");
    expect_row(step.v, qkv.v, t, trace.kv_head * p.d_v, at + " v");
    ASSERT_EQ(step.scores.size(), step.cache.keys.size()) << at;
    ASSERT_EQ(step.weights.size(), step.cache.keys.size()) << at;
    for (std::size_t n = 0; n < step.cache.keys.size(); ++n) {
      const int j = step.cache.keys[n];
      const std::string cell = at + " key " + std::to_string(j);
      expect_close(step.weights[n], head.weights.at(t, j), cell + " weight");
      if (dense.mask.at(t, j)) {
        const float slope = head_slopes(p)[static_cast<std::size_t>(trace.head)];
        expect_close(step.scores[n], static_cast<double>(scaled_score(head.scores.at(t, j), p.scale, slope, t, j)),
                     cell + " scaled score");
      } else {
        EXPECT_TRUE(std::isinf(step.scores[n]) && step.scores[n] < 0) << cell << ": hidden, so −∞";
      }
    }
    // The cache is enough: every key the dense row sees is held.
    for (int j = 0; j < p.n(); ++j) {
      const bool held = std::find(step.cache.keys.begin(), step.cache.keys.end(), j) != step.cache.keys.end();
      EXPECT_TRUE(held || !dense.mask.at(t, j)) << at << ": key " << j << " is visible but not in the cache";
    }
    expect_row(step.context, head.context, t, 0, at + " context");
  }
}

void expect_every_head_and_prompt(const Problem& p, const std::vector<int>& prompts) {
  const Result dense = dense_causal(p);
  for (int h = 0; h < p.num_heads; ++h) {
    for (const int prompt : prompts) expect_matches_dense(p, decode_head(p, h, prompt), dense);
  }
}

TEST(Decoder, CausalSentenceMatchesDenseForSeveralPrompts) {
  const Problem p = preset_problem("causal-gpt");  // MHA, 4 heads
  expect_every_head_and_prompt(p, {1, 2, p.n() / 2, p.n()});
}

// Each new token's q and k turned at its own position (RoPE), ALiBi's bias on the new row of
// scores, dropout on the new row of weights: decoded rows still equal the dense causal rows.
TEST(Decoder, PositionsAndDropoutDecodeToTheDenseRows) {
  const Problem base = preset_problem("gqa");  // 8 query heads, 2 key/value heads, d_k even
  ASSERT_EQ(base.d_k % 2, 0);
  for (const PositionalKind kind : {PositionalKind::Rope, PositionalKind::Alibi}) {
    Problem p = base;
    p.positional = kind;
    p.position_offset = kind == PositionalKind::Rope ? 11 : 0;
    expect_every_head_and_prompt(p, {1, p.n()});
  }
  Problem dropped = base;
  dropped.positional = PositionalKind::Rope;
  dropped.dropout = DropoutSetting{0.25, 99};
  const Result dense = dense_causal(dropped);
  const DecodeTrace trace = decode_head(dropped, 3, 2);
  expect_matches_dense(dropped, trace, dense);
  for (const DecodeStep& step : trace.steps) {
    ASSERT_EQ(step.weights_before_dropout.size(), step.cache.keys.size());
    for (std::size_t n = 0; n < step.cache.keys.size(); ++n) {
      expect_close(step.weights_before_dropout[n], dense.heads[3].weights_before_dropout.at(step.t, step.cache.keys[n]),
                   "before dropout");
    }
  }
}

TEST(Decoder, SentenceWithoutCausalIsDecodedCausally) {
  const Problem p = preset_problem("korean-restaurant");  // no mask at all
  ASSERT_FALSE(p.mask.causal);
  const DecodeTrace trace = decode_head(p, 0, 3);
  EXPECT_TRUE(trace.mask.causal);
  expect_matches_dense(p, trace, dense_causal(p));
  for (const DecodeStep& step : trace.steps) EXPECT_EQ(static_cast<int>(step.cache.keys.size()), step.t + 1);
}

TEST(Decoder, GroupedQueryHeadsShareTheirCacheHead) {
  const Problem p = preset_problem("gqa");  // 8 query heads, 2 key/value heads
  ASSERT_EQ(p.num_kv_heads, 2);
  EXPECT_EQ(decode_head(p, 5, 1).kv_head, 1);
  EXPECT_EQ(decode_head(p, 5, 1).heads_sharing_cache, (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(decode_head(p, 0, 1).heads_sharing_cache, (std::vector<int>{0, 1, 2, 3}));
  expect_every_head_and_prompt(p, {1, 4, p.n()});
}

TEST(Decoder, MultiQueryHeadsAllShareOneCacheHead) {
  testing::TestRandom random(13);
  testing::ProblemShape shape;
  shape.n = 9;
  shape.heads = 4;
  shape.kv_heads = 1;
  shape.mask.causal = true;
  const Problem p = testing::random_problem(random, shape);
  EXPECT_EQ(decode_head(p, 2, 1).heads_sharing_cache, (std::vector<int>{0, 1, 2, 3}));
  expect_every_head_and_prompt(p, {1, 3, 9});
}

TEST(Decoder, SlidingWindowKeepsARollingBufferOfRPlusOneRows) {
  const Problem p = preset_problem("sliding-window");  // causal, window 3
  const int r = 3;
  ASSERT_EQ(p.mask.window, r);
  const DecodeTrace trace = decode_head(p, 1, 2);
  EXPECT_EQ(trace.cache_capacity, r + 1);
  for (const DecodeStep& step : trace.steps) {
    const int t = step.t;
    std::vector<int> expected_keys;
    for (int j = std::max(0, t - r); j <= t; ++j) expected_keys.push_back(j);
    EXPECT_EQ(step.cache.keys, expected_keys) << "t " << t;
    for (std::size_t n = 0; n < step.cache.keys.size(); ++n) {
      EXPECT_EQ(step.cache.slots[n], step.cache.keys[n] % (r + 1)) << "t " << t << ": rolling buffer slot";
    }
    const std::vector<int> expected_evicted = t > r ? std::vector<int>{t - r - 1} : std::vector<int>{};
    EXPECT_EQ(step.cache.evicted, expected_evicted) << "t " << t;
  }
  expect_every_head_and_prompt(p, {1, 5, p.n()});
}

TEST(Decoder, SymmetricWindowBecomesTheSlidingWindowUnderDecoding) {
  testing::TestRandom random(7);
  testing::ProblemShape shape;
  shape.n = 8;
  shape.mask.window = 2;  // Longformer's band without causal: decoding keeps keys t − 2 .. t
  const Problem p = testing::random_problem(random, shape);
  const DecodeTrace trace = decode_head(p, 0, 1);
  EXPECT_EQ(trace.cache_capacity, 3);
  EXPECT_EQ(trace.steps[6].cache.keys, (std::vector<int>{4, 5, 6}));
  EXPECT_EQ(trace.steps[6].cache.evicted, (std::vector<int>{3}));
  expect_every_head_and_prompt(p, {1, 4});
}

TEST(Decoder, GlobalKeysArePinnedAndGlobalQueriesKeepEverythingBeforeThem) {
  testing::TestRandom random(21);
  testing::ProblemShape shape;
  shape.n = 10;
  shape.heads = 2;
  shape.kv_heads = 2;
  shape.mask.causal = true;
  shape.mask.window = 1;
  shape.mask.global = {1, 6};
  const Problem p = testing::random_problem(random, shape);
  const DecodeTrace trace = decode_head(p, 1, 2);
  // Up to step 6 (a global query, which sees rows 0..6) nothing is evicted.
  for (int t = 0; t <= 6; ++t)
    EXPECT_EQ(static_cast<int>(trace.steps[static_cast<std::size_t>(t)].cache.keys.size()), t + 1);
  // Step 7: rows 0, 2..5 leave (row 5's last query was 6); rows 1 and 6, global keys, stay to the end.
  EXPECT_EQ(trace.steps[7].cache.evicted, (std::vector<int>{0, 2, 3, 4, 5}));
  EXPECT_EQ(trace.steps[7].cache.keys, (std::vector<int>{1, 6, 7}));
  EXPECT_EQ(trace.steps[7].cache.slots.back(), 0);  // row 7 takes the lowest slot freed (row 0's)
  EXPECT_EQ(trace.steps[9].cache.keys, (std::vector<int>{1, 6, 8, 9}));
  EXPECT_EQ(trace.cache_capacity, 7);
  expect_every_head_and_prompt(p, {1, 2, 7, 10});
}

TEST(Decoder, KeysHeldButHiddenHaveNoWeight) {
  testing::TestRandom random(5);
  testing::ProblemShape shape;
  shape.n = 6;
  shape.mask.causal = true;
  shape.mask.window = 0;
  shape.mask.global = {4};  // a global query at 4: rows 0..3 stay held although 1..3 see only themselves
  const Problem p = testing::random_problem(random, shape);
  const DecodeTrace trace = decode_head(p, 0, 1);
  const DecodeStep& step = trace.steps[2];
  EXPECT_EQ(step.cache.keys, (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(std::isinf(step.scores[0]) && std::isinf(step.scores[1]));
  EXPECT_EQ(step.weights, (std::vector<float>{0.0f, 0.0f, 1.0f}));
}

TEST(Decoder, RefusesCrossAttentionAndArgumentsOutOfRange) {
  testing::TestRandom random(3);
  testing::ProblemShape shape;
  const Problem p = testing::random_problem(random, shape);
  EXPECT_THROW((void)decode_head(p, 0, 0), std::invalid_argument);
  EXPECT_THROW((void)decode_head(p, 0, p.n() + 1), std::invalid_argument);
  EXPECT_THROW((void)decode_head(p, p.num_heads, 1), std::invalid_argument);
  EXPECT_THROW((void)decode_head(p, -1, 1), std::invalid_argument);
  shape.cross = true;
  EXPECT_THROW((void)decode_head(testing::random_problem(random, shape), 0, 1), std::invalid_argument);
}

}  // namespace
}  // namespace attnviz::decode
