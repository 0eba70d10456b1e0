// build_problem: tokens, generated inputs, cross-attention, limits.

#include <gtest/gtest.h>

#include "core/common/error.h"
#include "core/scenario/generate.h"
#include "core/scenario/problem.h"

namespace attnviz {
namespace {

Scenario generated_scenario(const std::string& sentence) {
  Scenario s;
  s.sentence = sentence;
  s.d_model = 8;
  s.num_heads = 2;
  s.num_kv_heads = 1;
  s.d_k = 4;
  s.d_v = 3;
  s.seed = 9;
  return s;
}

TEST(Problem, TokenizesAndGeneratesEverythingLeftOut) {
  const Problem p = build_problem(generated_scenario("어제 밤에 배가 고파서"), "t");
  EXPECT_EQ(p.tokens, (std::vector<std::string>{"어제", "밤에", "배가", "고파서"}));
  EXPECT_EQ(p.source_tokens, p.tokens);
  EXPECT_FALSE(p.cross_attention);
  EXPECT_EQ(p.x.rows, 4);
  EXPECT_EQ(p.x, p.xs);
  EXPECT_EQ(p.x, generate_embeddings(p.tokens, 9, 8));
  EXPECT_EQ(p.wq, generate_weight(9, "wq", 8, 8));
  EXPECT_EQ(p.wk, generate_weight(9, "wk", 8, 4));
  EXPECT_EQ(p.wv, generate_weight(9, "wv", 8, 3));
  EXPECT_FALSE(p.wo.has_value());
  EXPECT_FLOAT_EQ(p.scale, 0.5f);
  EXPECT_EQ(p.kv_head_of(1), 0);
}

TEST(Problem, GenerateWoGivesAnOutputProjectionBackToDModel) {
  Scenario s = generated_scenario("a b c");
  s.generate_wo = true;
  const Problem p = build_problem(s, "t");
  ASSERT_TRUE(p.wo.has_value());
  EXPECT_EQ(p.wo->rows, 6);
  EXPECT_EQ(p.wo->cols, 8);
  EXPECT_EQ(p.output_cols(), 8);
}

TEST(Problem, ScaleModes) {
  Scenario s = generated_scenario("a b");
  s.scale = {ScaleSetting::Kind::None, 0.0};
  EXPECT_EQ(build_problem(s, "t").scale, 1.0f);
  s.scale = {ScaleSetting::Kind::Value, 0.25};
  EXPECT_EQ(build_problem(s, "t").scale, 0.25f);
}

TEST(Problem, CrossAttentionTakesKeysAndValuesFromTheSource) {
  Scenario s = generated_scenario("Last night I was hungry");
  s.source = SourceSetting{"어제 밤에 배가 고파서", TokenizerMode::Words, std::nullopt, std::nullopt};
  const Problem p = build_problem(s, "t");
  EXPECT_TRUE(p.cross_attention);
  EXPECT_EQ(p.n(), 5);
  EXPECT_EQ(p.m(), 4);
  EXPECT_EQ(p.xs, generate_embeddings({"어제", "밤에", "배가", "고파서"}, 9, 8));
}

void expect_input_error(const Scenario& s, const std::string& pointer, const std::string& words,
                        const ProblemLimits& limits = {}) {
  try {
    build_problem(s, "<gui>", limits);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.pointer(), pointer) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(Problem, EmptySentenceAndBadUtf8AreInputErrors) {
  expect_input_error(generated_scenario("   "), "/sentence", "no tokens");
  expect_input_error(generated_scenario("ok \xFF"), "/sentence", "invalid UTF-8 at byte offset 3");
}

TEST(Problem, LimitsGiveClearErrors) {
  ProblemLimits limits;
  limits.max_tokens = 3;
  expect_input_error(generated_scenario("a b c d"), "/sentence", "more than 3 tokens", limits);
  Scenario many_heads = generated_scenario("a b");
  many_heads.num_heads = 128;
  many_heads.num_kv_heads = 1;
  expect_input_error(many_heads, "/num_heads", "the limit is 64");
  ProblemLimits small_cells;
  small_cells.max_attention_cells = 10;
  expect_input_error(generated_scenario("a b c"), "/num_heads", "num_heads × N × M (2 × 3 × 3) is 18", small_cells);
}

TEST(Problem, ScenariosFromTheWindowAreCheckedToo) {
  Scenario s = generated_scenario("a b");
  s.wq = Matrix(3, 3);
  expect_input_error(s, "/wq", "has shape 3×3 but needs d_model × (num_heads·d_k) = 8×8");
  s = generated_scenario("a b");
  s.embeddings = Matrix(2, 8, std::numeric_limits<float>::quiet_NaN());
  expect_input_error(s, "/embeddings/0/0", "finite");
}

}  // namespace
}  // namespace attnviz

namespace attnviz {
namespace {

std::string pointer_of_refusal(const Scenario& s) {
  try {
    (void)build_problem(s, "big.json");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("float32"), std::string::npos) << e.what();
    return e.pointer();
  }
  return "(accepted)";
}

// Finite but huge inputs would overflow float32 into inf scores and NaN weights: refused,
// naming the factor most to blame.
TEST(Problem, InputsThatWouldOverflowFloat32AreRefusedNamingTheCulprit) {
  Scenario huge_scale = generated_scenario("a b c");
  huge_scale.scale = {ScaleSetting::Kind::Value, 3e38};
  EXPECT_EQ(pointer_of_refusal(huge_scale), "/scale");

  Scenario huge_embeddings = generated_scenario("a b c");
  huge_embeddings.embeddings = Matrix(3, 8, 1e30f);
  EXPECT_EQ(pointer_of_refusal(huge_embeddings), "/embeddings");

  Scenario huge_wv = generated_scenario("a b c");
  huge_wv.wv = Matrix(8, 3, 1e38f);
  EXPECT_EQ(pointer_of_refusal(huge_wv), "/wv");

  // Large but representable values are fine: the bound is far from realistic inputs.
  Scenario large = generated_scenario("a b c");
  large.embeddings = Matrix(3, 8, 1e6f);
  large.scale = {ScaleSetting::Kind::Value, 1e6};
  EXPECT_NO_THROW((void)build_problem(large, "t"));
}

}  // namespace
}  // namespace attnviz
