// The compare view's variants: each differs from the base in exactly the compared setting,
// and computes what the fixtures' independent float64 values say it should.

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "core/attention/mask.h"
#include "core/cpu/cpu_backend.h"
#include "core/lesson/variants.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario_json.h"
#include "tests/attention/random_problem.h"
#include "tests/lesson/lesson_support.h"

namespace attnviz {
namespace {

void expect_matches_fixture(const Scenario& variant, const std::string& fixture_name) {
  SCOPED_TRACE(fixture_name);
  const nlohmann::json expected = testing::read_fixture(fixture_name)["expected"];
  const Result result = make_cpu_backend()->compute(testing::frozen_problem(variant));
  ASSERT_EQ(result.heads.size(), expected["heads"].size());
  for (std::size_t h = 0; h < result.heads.size(); ++h) {
    const Matrix& w = result.heads[h].weights;
    for (int i = 0; i < w.rows; ++i)
      for (int j = 0; j < w.cols; ++j) {
        EXPECT_NEAR(
            w.at(i, j),
            expected["heads"][h]["weights"][static_cast<std::size_t>(i)][static_cast<std::size_t>(j)].get<double>(),
            1e-6);
        EXPECT_EQ(result.mask.at(i, j),
                  expected["mask"][static_cast<std::size_t>(i)][static_cast<std::size_t>(j)].get<int>() == 1);
      }
  }
}

struct Base {
  Problem problem = testing::fixture_problem(testing::read_fixture("korean-full.json"));
  Scenario scenario = testing::scenario_of(problem);
};

TEST(CompareVariants, FourMasksMatchTheFixtures) {
  const Base base;
  const std::vector<lesson::Variant> two_window = lesson::derive_variants(
      base.scenario, base.problem, {.axis = lesson::CompareAxis::Masks, .count = 4, .window = 2});
  ASSERT_EQ(two_window.size(), 4u);
  EXPECT_EQ(two_window[0].label, "no mask");
  EXPECT_EQ(two_window[1].label, "causal");
  EXPECT_EQ(two_window[2].label, "sliding window r = 2");
  EXPECT_EQ(two_window[3].label, "Longformer r = 2, global 0");
  expect_matches_fixture(two_window[0].scenario, "korean-full.json");
  expect_matches_fixture(two_window[1].scenario, "korean-causal.json");
  expect_matches_fixture(two_window[2].scenario, "korean-sliding2-causal.json");

  const std::vector<lesson::Variant> longformer = lesson::derive_variants(
      base.scenario, base.problem, {.axis = lesson::CompareAxis::Masks, .count = 4, .window = 1, .global = {0, 5}});
  EXPECT_EQ(longformer[3].label, "Longformer r = 1, global 0\u2026");
  expect_matches_fixture(longformer[3].scenario, "korean-longformer1-g05.json");
}

TEST(CompareVariants, TwoMasksAndBadCounts) {
  const Base base;
  const auto two = lesson::derive_variants(base.scenario, base.problem, {.count = 2});
  ASSERT_EQ(two.size(), 2u);
  EXPECT_FALSE(two[0].scenario.mask.causal);
  EXPECT_TRUE(two[1].scenario.mask.causal);
  EXPECT_THROW((void)lesson::derive_variants(base.scenario, base.problem, {.count = 3}), std::invalid_argument);
  // Only the mask differs from the frozen base.
  Scenario same = two[1].scenario;
  same.mask = base.scenario.mask;
  EXPECT_EQ(same, lesson::freeze_inputs(base.scenario, base.problem));
}

TEST(CompareVariants, HeadCountsThatDivideTheWidth) {
  const Base base;  // one head, d_k = d_v = 4: 8 heads do not divide 4 columns
  const auto variants =
      lesson::derive_variants(base.scenario, base.problem, {.axis = lesson::CompareAxis::Heads, .count = 4});
  ASSERT_EQ(variants.size(), 3u);
  EXPECT_EQ(variants[0].label, "1 head (d_k = 4)");
  EXPECT_EQ(variants[1].label, "2 heads (d_k = 2)");
  EXPECT_EQ(variants[2].label, "4 heads (d_k = 1)");
  for (const lesson::Variant& v : variants) {
    EXPECT_EQ(v.scenario.wq, base.problem.wq) << v.label;  // the same columns, read as more heads
    EXPECT_EQ(v.scenario.num_kv_heads, v.scenario.num_heads);
  }
  // The view says why a copy is missing instead of silently showing three.
  const lesson::Comparison comparison =
      lesson::derive_comparison(base.scenario, base.problem, {.axis = lesson::CompareAxis::Heads, .count = 4});
  EXPECT_EQ(comparison.note,
            "8 heads left out: W_Q's 4 columns (heads \u00d7 d_k) and W_V's 4 do not split into that many heads.");
  EXPECT_TRUE(lesson::derive_comparison(base.scenario, base.problem, {.axis = lesson::CompareAxis::Heads, .count = 2})
                  .note.empty());
  EXPECT_TRUE(lesson::derive_comparison(base.scenario, base.problem, {.count = 4}).note.empty())
      << "four masks: nothing left out";
  // The 2-head split of the Korean weights, made causal, is the fixture's 2-head example.
  Scenario two_heads_causal = variants[1].scenario;
  two_heads_causal.mask.causal = true;
  expect_matches_fixture(two_heads_causal, "korean-2heads-causal.json");
}

TEST(CompareVariants, KvHeadsPoolTheMhaHeads) {
  const Base base;  // one head: split into 4 (d_k = 1) first
  const auto variants =
      lesson::derive_variants(base.scenario, base.problem, {.axis = lesson::CompareAxis::KvHeads, .count = 4});
  ASSERT_EQ(variants.size(), 3u);
  EXPECT_EQ(variants[0].label, "MHA: 4 query, 4 K/V heads");
  EXPECT_EQ(variants[1].label, "GQA: 4 query, 2 K/V heads");
  EXPECT_EQ(variants[2].label, "MQA: 4 query, 1 K/V head");
  // MQA's single K column is the mean of W_K's four columns (d_k = 1 per head).
  const Matrix& wk = *variants[2].scenario.wk;
  ASSERT_EQ(wk.cols, 1);
  for (int r = 0; r < 4; ++r) {
    const Matrix& full = base.problem.wk;
    EXPECT_NEAR(wk.at(r, 0), (full.at(r, 0) + full.at(r, 1) + full.at(r, 2) + full.at(r, 3)) / 4.0, 1e-7);
  }
  const std::string note =
      lesson::derive_comparison(base.scenario, base.problem, {.axis = lesson::CompareAxis::KvHeads, .count = 4}).note;
  EXPECT_NE(note.find("split into 4 heads of d_k = 1"), std::string::npos) << note;
  EXPECT_NE(note.find("Only 3 copies: 4 query heads can share 4, 2 or 1 K/V heads"), std::string::npos) << note;
  // GQA's first K/V head is the mean of heads 0 and 1.
  EXPECT_NEAR(variants[1].scenario.wv->at(2, 0), (base.problem.wv.at(2, 0) + base.problem.wv.at(2, 1)) / 2.0, 1e-7);
}

// A GQA base read as MHA (K/V repeated per head) computes exactly the same attention.
TEST(CompareVariants, GqaBaseExpandsToAnEquivalentMha) {
  testing::TestRandom random(21);
  testing::ProblemShape shape;
  shape.heads = 4;
  shape.kv_heads = 2;
  shape.d_k = 2;
  shape.d_v = 2;
  const Problem problem = testing::random_problem(random, shape);
  const auto variants = lesson::derive_variants(testing::scenario_of(problem), problem,
                                                {.axis = lesson::CompareAxis::KvHeads, .count = 2});
  ASSERT_EQ(variants.size(), 2u);
  EXPECT_EQ(variants[0].scenario.num_kv_heads, 4);
  Problem mha = testing::frozen_problem(variants[0].scenario);
  mha.scale = problem.scale;  // the random problem's scale is not 1/√d_k
  const Result expected = make_cpu_backend()->compute(problem);
  const Result actual = make_cpu_backend()->compute(mha);
  for (std::size_t h = 0; h < 4; ++h) {
    EXPECT_EQ(actual.heads[h].weights, expected.heads[h].weights) << h;
    EXPECT_EQ(actual.heads[h].context, expected.heads[h].context) << h;
  }
}

// The gqa preset (8 query heads, 2 K/V heads, generated weights): its MHA has eight distinct
// K/V heads from the seed, and grouping them by averaging gives four distinct pictures.
TEST(CompareVariants, GqaPresetGetsADistinctMhaFromItsSeed) {
  const LoadedScenario loaded = load_scenario("preset:gqa");
  ASSERT_EQ(loaded.scenario.num_heads, 8);
  ASSERT_EQ(loaded.scenario.num_kv_heads, 2);
  const Problem base = build_problem(loaded.scenario, "gqa");
  const auto variants =
      lesson::derive_variants(loaded.scenario, base, {.axis = lesson::CompareAxis::KvHeads, .count = 4});
  ASSERT_EQ(variants.size(), 4u);
  Scenario with_mha = loaded.scenario;
  with_mha.num_kv_heads = 8;
  EXPECT_EQ(*variants[0].scenario.wk, build_problem(with_mha, "gqa").wk);  // what the seed gives for 8 K/V heads
  std::vector<Matrix> first_head_weights;
  for (const lesson::Variant& v : variants)
    first_head_weights.push_back(make_cpu_backend()->compute(build_problem(v.scenario, v.label)).heads[0].weights);
  for (std::size_t a = 0; a < 4; ++a)
    for (std::size_t b = a + 1; b < 4; ++b) EXPECT_NE(first_head_weights[a], first_head_weights[b]) << a << " vs " << b;
}

TEST(CompareVariants, SharedRangeCoversEveryVariant) {
  Matrix a(1, 2), b(1, 2);
  a.data = {0.2f, 0.8f};
  b.data = {0.9f, -3.0f};
  MaskMatrix hide_second{1, 2, {1, 0}};
  const lesson::ValueRange weights =
      lesson::shared_range({{&a, nullptr}, {&b, &hide_second}}, lesson::RangeKind::Weights);
  EXPECT_EQ(weights.min, 0.0f);
  EXPECT_EQ(weights.max, 0.9f);
  const lesson::ValueRange scores = lesson::shared_range({{&a, nullptr}, {&b, nullptr}}, lesson::RangeKind::Scores);
  EXPECT_EQ(scores.min, -3.0f);
  EXPECT_EQ(scores.max, 3.0f);
  const lesson::ValueRange halved =
      lesson::shared_range({{&a, nullptr, 0.5f}, {&b, nullptr, 0.25f}}, lesson::RangeKind::Scores);
  EXPECT_EQ(halved.max, 0.75f);  // max(0.5·0.8, 0.25·3)
  const lesson::ValueRange empty = lesson::shared_range({}, lesson::RangeKind::Weights);
  EXPECT_EQ(empty.max, 1.0f);
  EXPECT_EQ(lesson::compare_axis_from_string("kv-heads"), lesson::CompareAxis::KvHeads);
  EXPECT_FALSE(lesson::compare_axis_from_string("colour").has_value());
}

}  // namespace
}  // namespace attnviz

namespace attnviz {
namespace {

// The patterns axis: each copy's mask is the pattern its label names, checked cell by cell
// against the definitions written out here (not through the expression parser).
TEST(CompareVariants, PatternsAreTheSparsePatternsTheyName) {
  const Base base;
  const std::vector<lesson::Variant> four = lesson::derive_variants(
      base.scenario, base.problem, {.axis = lesson::CompareAxis::Patterns, .count = 4, .window = 3});
  ASSERT_EQ(four.size(), 4u);
  // Sizes for a short sentence: 1 sink, a stride and block of n / 4 (at least 2).
  const int n = base.problem.n();
  const int sinks = std::clamp(n / 8, 1, 4);
  const int s = std::clamp(n / 4, 2, 4);
  const std::function<bool(int, int)> expected[] = {
      [](int q, int k) { return k <= q; }, [&](int q, int k) { return k <= q && (k < sinks || q - k <= 3); },
      [&](int q, int k) { return k <= q && (q - k < s || (q - k) % s == 0); },
      [&](int q, int k) { return q / s == k / s; }};
  const char* names[] = {"causal", "attention sinks", "strided", "block-local"};
  for (std::size_t v = 0; v < four.size(); ++v) {
    SCOPED_TRACE(four[v].label);
    EXPECT_EQ(four[v].label.rfind(names[v], 0), 0u);
    EXPECT_NE(four[v].label.find(four[v].scenario.mask.expression), std::string::npos)
        << "the label shows the expression";
    const Problem p = build_problem(four[v].scenario, four[v].label);
    const Mask mask(p.mask, p.n(), p.m(), p.num_heads);
    for (int q = 0; q < p.n(); ++q)
      for (int k = 0; k < p.m(); ++k) EXPECT_EQ(mask.visible(q, k), expected[v](q, k)) << q << ", " << k;
    EXPECT_EQ(p.wq, base.problem.wq) << "only the mask differs";
  }
  const auto two =
      lesson::derive_variants(base.scenario, base.problem, {.axis = lesson::CompareAxis::Patterns, .count = 2});
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[1].scenario.mask.expression, "k <= q && (k < " + std::to_string(sinks) + " || q - k <= 2)");
  EXPECT_NE(four[1].scenario.mask.expression, four[0].scenario.mask.expression);
}

// Every bundled preset, every axis and count: the variants are valid scenarios for the core's
// own loader checks, and freezing the inputs changes no number.
TEST(CompareVariants, EveryPresetGivesValidVariants) {
  for (const std::string& name : preset_names()) {
    SCOPED_TRACE(name);
    const LoadedScenario loaded = load_scenario("preset:" + name);
    const Problem base = build_problem(loaded.scenario, name);
    const Problem frozen = build_problem(lesson::freeze_inputs(loaded.scenario, base), name);
    EXPECT_EQ(frozen.x, base.x);
    EXPECT_EQ(frozen.xs, base.xs);
    EXPECT_EQ(frozen.wq, base.wq);
    EXPECT_EQ(frozen.wk, base.wk);
    EXPECT_EQ(frozen.wv, base.wv);
    EXPECT_EQ(frozen.tokens, base.tokens);
    EXPECT_EQ(frozen.source_tokens, base.source_tokens);
    for (lesson::CompareAxis axis :
         {lesson::CompareAxis::Masks, lesson::CompareAxis::Heads, lesson::CompareAxis::KvHeads,
          lesson::CompareAxis::Positions, lesson::CompareAxis::Patterns})
      for (int count : {2, 4}) {
        const auto variants = lesson::derive_variants(loaded.scenario, base, {.axis = axis, .count = count});
        EXPECT_GE(variants.size(), 1u);
        EXPECT_LE(variants.size(), static_cast<std::size_t>(count));
        for (const lesson::Variant& v : variants) EXPECT_NO_THROW((void)build_problem(v.scenario, v.label)) << v.label;
      }
  }
}

}  // namespace
}  // namespace attnviz
