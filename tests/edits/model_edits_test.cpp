// The Model panel's edit logic: changing a dimension reshapes every explicit matrix at once,
// so the scenario stays valid (checked with the core's build_problem), and keeps the values
// that still have a place (checked against hand-written matrices).
#include "app/edits/model_edits.h"

#include <gtest/gtest.h>

#include "core/scenario/problem.h"

namespace attnviz::edits {
namespace {

Matrix make(int rows, int cols, std::vector<float> values) {
  Matrix m(rows, cols);
  m.data = std::move(values);
  return m;
}

// New cells are -1 so the tests see exactly which were kept.
FreshMatrices minus_ones() {
  FreshMatrices f;
  f.weight = [](std::string_view, int rows, int cols) { return Matrix(rows, cols, -1.0f); };
  f.embeddings = [](int d) { return Matrix(2, d, -1.0f); };
  f.source_embeddings = [](int d) { return Matrix(1, d, -1.0f); };
  return f;
}

// "a b", d_model 2, 2 heads of d_k = d_v = 1, every matrix explicit.
Scenario explicit_scenario() {
  Scenario s;
  s.sentence = "a b";
  s.d_model = 2;
  s.num_heads = 2;
  s.num_kv_heads = 2;
  s.d_k = 1;
  s.d_v = 1;
  s.embeddings = make(2, 2, {1, 2, 3, 4});
  s.wq = make(2, 2, {11, 21, 12, 22});
  s.wk = make(2, 2, {31, 41, 32, 42});
  s.wv = make(2, 2, {51, 61, 52, 62});
  s.wo = make(2, 3, {1, 2, 3, 4, 5, 6});
  return s;
}

TEST(ModelEdits, DkGrowsEveryHeadOfWqAndWk) {
  const Scenario s = set_d_k(explicit_scenario(), 2, minus_ones());
  EXPECT_EQ(s.d_k, 2);
  EXPECT_EQ(*s.wq, make(2, 4, {11, -1, 21, -1, 12, -1, 22, -1}));
  EXPECT_EQ(*s.wk, make(2, 4, {31, -1, 41, -1, 32, -1, 42, -1}));
  EXPECT_EQ(*s.wv, explicit_scenario().wv);  // d_v unchanged
}

TEST(ModelEdits, DvGrowsWvColumnsAndWoRowsPerHead) {
  const Scenario s = set_d_v(explicit_scenario(), 2, minus_ones());
  EXPECT_EQ(*s.wv, make(2, 4, {51, -1, 61, -1, 52, -1, 62, -1}));
  EXPECT_EQ(*s.wo, make(4, 3, {1, 2, 3, -1, -1, -1, 4, 5, 6, -1, -1, -1}));
}

TEST(ModelEdits, DModelChangesWeightRowsAndEmbeddingColumnsNotDOut) {
  const Scenario s = set_d_model(explicit_scenario(), 3, minus_ones());
  EXPECT_EQ(*s.embeddings, make(2, 3, {1, 2, -1, 3, 4, -1}));
  EXPECT_EQ(*s.wq, make(3, 2, {11, 21, 12, 22, -1, -1}));
  EXPECT_EQ(s.wo->cols, 3);
  EXPECT_EQ(*s.wo, *explicit_scenario().wo);
}

TEST(ModelEdits, HeadsKeepMhaAsMha) {
  const Scenario s = set_num_heads(explicit_scenario(), 3, minus_ones());
  EXPECT_EQ(s.num_heads, 3);
  EXPECT_EQ(s.num_kv_heads, 3);
  EXPECT_EQ(*s.wq, make(2, 3, {11, 21, -1, 12, 22, -1}));
  EXPECT_EQ(*s.wk, make(2, 3, {31, 41, -1, 32, 42, -1}));
  EXPECT_EQ(*s.wo, make(3, 3, {1, 2, 3, 4, 5, 6, -1, -1, -1}));
}

TEST(ModelEdits, HeadsKeepKvHeadsADivisor) {
  Scenario gqa;
  gqa.num_heads = 8;
  gqa.num_kv_heads = 2;
  EXPECT_EQ(set_num_heads(gqa, 6, minus_ones()).num_kv_heads, 2);
  EXPECT_EQ(set_num_heads(gqa, 5, minus_ones()).num_kv_heads, 1);
  gqa.num_kv_heads = 4;
  EXPECT_EQ(set_num_heads(gqa, 6, minus_ones()).num_kv_heads, 3);
  Scenario mqa;
  mqa.num_heads = 4;
  mqa.num_kv_heads = 1;
  EXPECT_EQ(set_num_heads(mqa, 12, minus_ones()).num_kv_heads, 1);
  EXPECT_EQ(set_num_heads(mqa, 0, minus_ones()).num_heads, 1);  // clamped
}

TEST(ModelEdits, KvHeadsOnlyDivisors) {
  Scenario s = explicit_scenario();
  s = set_num_heads(s, 4, minus_ones());
  const Scenario unchanged = set_num_kv_heads(s, 3, minus_ones());
  EXPECT_EQ(unchanged, s);
  const Scenario mqa = set_num_kv_heads(s, 1, minus_ones());
  EXPECT_EQ(mqa.num_kv_heads, 1);
  EXPECT_EQ(mqa.wk->cols, 1);
  EXPECT_EQ(mqa.wq->cols, 4);
}

TEST(ModelEdits, EveryDimensionChangeLeavesAScenarioTheCoreAccepts) {
  Scenario s = explicit_scenario();
  ASSERT_NO_THROW(build_problem(s, "<test>"));
  const FreshMatrices fresh = default_fresh(s);
  s = set_d_model(s, 5, fresh);
  EXPECT_NO_THROW(build_problem(s, "<test>"));
  s = set_num_heads(s, 6, default_fresh(s));
  EXPECT_NO_THROW(build_problem(s, "<test>"));
  s = set_num_kv_heads(s, 3, default_fresh(s));
  EXPECT_NO_THROW(build_problem(s, "<test>"));
  s = set_d_k(s, 3, default_fresh(s));
  EXPECT_NO_THROW(build_problem(s, "<test>"));
  s = set_d_v(s, 7, default_fresh(s));
  EXPECT_NO_THROW(build_problem(s, "<test>"));
  s = set_num_heads(s, 4, default_fresh(s));
  EXPECT_NO_THROW(build_problem(s, "<test>"));
  EXPECT_EQ(s.num_kv_heads, 2);
  s = set_d_model(s, 1, default_fresh(s));
  EXPECT_NO_THROW(build_problem(s, "<test>"));
}

TEST(ModelEdits, NewCellsComeFromTheSeedLikeGeneratedMatrices) {
  Scenario with_explicit = explicit_scenario();
  with_explicit.wq = make(2, 2, {100, 200, 300, 400});
  const Scenario grown = set_d_k(with_explicit, 3, default_fresh(with_explicit));
  // What the core generates for W_Q when it is left out, with the new shape.
  Scenario generated = regenerate(explicit_scenario(), explicit_scenario().seed);
  generated.d_k = 3;
  const Matrix expected = build_problem(generated, "<test>").wq;
  // Column 0 of each head was kept; columns 1, 2 are the generator's.
  EXPECT_EQ(grown.wq->at(0, 0), 100.0f);
  EXPECT_EQ(grown.wq->at(1, 3), 400.0f);
  for (int r = 0; r < 2; ++r) {
    for (int h = 0; h < 2; ++h) {
      for (int c = 1; c < 3; ++c) EXPECT_EQ(grown.wq->at(r, h * 3 + c), expected.at(r, h * 3 + c));
    }
  }
}

TEST(ModelEdits, OutputProjectionOnAndOff) {
  Scenario s = set_output_projection(explicit_scenario(), false);
  EXPECT_FALSE(s.wo.has_value());
  EXPECT_FALSE(s.generate_wo);
  s = set_output_projection(s, true);
  EXPECT_TRUE(s.generate_wo);
  EXPECT_EQ(build_problem(s, "<test>").wo->cols, s.d_model);
}

TEST(ModelEdits, RegenerateDropsExplicitMatricesAndKeepsWO) {
  const Scenario s = regenerate(explicit_scenario(), 99);
  EXPECT_EQ(s.seed, 99u);
  EXPECT_FALSE(s.embeddings || s.wq || s.wk || s.wv || s.wo);
  EXPECT_TRUE(s.generate_wo);
  EXPECT_FALSE(regenerate(Scenario{}, 2).generate_wo);
}

TEST(ModelNames, DivisorsAndAttentionKinds) {
  EXPECT_EQ(divisors(12), (std::vector<int>{1, 2, 3, 4, 6, 12}));
  EXPECT_EQ(divisors(1), std::vector<int>{1});
  EXPECT_EQ(attention_kind(8, 8), "multi-head (MHA)");
  EXPECT_EQ(attention_kind(8, 2), "grouped-query (GQA): 4 query heads share each K/V head");
  EXPECT_EQ(attention_kind(8, 1), "multi-query (MQA): all 8 query heads share one K/V head");
  EXPECT_EQ(attention_kind(1, 1), "single head");
}

TEST(ModelNames, TemperatureIsTheInverseScale) {
  EXPECT_DOUBLE_EQ(scale_from_temperature(2.0), 0.5);
  EXPECT_DOUBLE_EQ(temperature_from_scale(0.25), 4.0);
  EXPECT_DOUBLE_EQ(scale_from_temperature(0.0), 1.0);  // never infinite
}

}  // namespace
}  // namespace attnviz::edits
