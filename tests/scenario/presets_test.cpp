// The bundled presets: each loads, computes, and shows what its name promises.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

#include "core/attention/mask.h"
#include "core/cpu/cpu_backend.h"
#include "core/scenario/positions.h"
#include "core/scenario/preset_titles.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario_json.h"

namespace attnviz {
namespace {

Problem preset_problem(const std::string& name) {
  const LoadedScenario loaded = load_scenario("preset:" + name);
  EXPECT_TRUE(loaded.warnings.empty()) << name;
  return build_problem(loaded.scenario, "preset:" + name);
}

TEST(Presets, AllAreBundled) {
  EXPECT_EQ(preset_names(),
            (std::vector<std::string>{"alibi", "attention-sinks", "causal-gpt", "cross-attention", "dropout", "gqa",
                                      "korean-restaurant", "life-is-short", "longformer", "packed-documents", "rope",
                                      "sliding-window", "strided"}));
}

// Issue 49: every preset's title is in the catalogue's table (core/scenario/preset_titles.cpp), so
// a Korean window's title bar and a Korean figure show it translated; a user's title is kept.
TEST(Presets, EveryTitleIsWordedThroughTheCatalogue) {
  const Wording marked([](const char* msgid) { return std::string("[") + msgid + "]"; },
                       [](const char* one, const char* many, unsigned long n) { return n == 1 ? one : many; });
  for (const std::string& name : preset_names()) {
    const std::string title = load_scenario("preset:" + name).scenario.title;
    EXPECT_TRUE(is_preset_title(title)) << name << ": \"" << title << "\" is not in preset_titles.cpp";
    EXPECT_EQ(worded_title(title, marked), "[" + title + "]") << name;
  }
  EXPECT_FALSE(is_preset_title("My own scenario"));
  EXPECT_EQ(worded_title("My own scenario", marked), "My own scenario");
  EXPECT_EQ(worded_title("", marked), "");
}

// The mask expression presets (docs/design.md "Mask expressions"): a row's visible keys are
// what the pattern's name says.
TEST(Presets, MaskExpressionPresetsShowTheirPattern) {
  auto visible_keys = [](const std::string& name, int row) {
    const Problem p = preset_problem(name);
    const Mask mask(p.mask, p.n(), p.m(), p.num_heads);
    std::vector<int> keys;
    for (int j = 0; j < p.m(); ++j) {
      if (mask.visible(row, j)) keys.push_back(j);
    }
    return keys;
  };
  EXPECT_EQ(visible_keys("attention-sinks", 20), (std::vector<int>{0, 1, 2, 3, 12, 13, 14, 15, 16, 17, 18, 19, 20}));
  EXPECT_EQ(visible_keys("strided", 20), (std::vector<int>{0, 4, 8, 12, 16, 17, 18, 19, 20}));
  const Problem packed = preset_problem("packed-documents");
  EXPECT_EQ(packed.tokens[7], ".");
  EXPECT_EQ(visible_keys("packed-documents", 7), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(visible_keys("packed-documents", 9), (std::vector<int>{8, 9}));
}

// The mean distance |i − j| a head's weights reach over, averaged over the rows.
double mean_distance(const Matrix& weights) {
  double total = 0.0;
  for (int i = 0; i < weights.rows; ++i)
    for (int j = 0; j < weights.cols; ++j) total += static_cast<double>(weights.at(i, j)) * std::abs(i - j);
  return total / weights.rows;
}

TEST(Presets, AlibisSteepestHeadLooksNearAndItsGentlestFar) {
  const Problem p = preset_problem("alibi");
  EXPECT_EQ(p.positional, PositionalKind::Alibi);
  const Result result = make_cpu_backend()->compute(p);
  EXPECT_LT(mean_distance(result.heads.front().weights), 2.0) << "slope 1/2: the last few words";
  EXPECT_GT(mean_distance(result.heads.back().weights), 2.0 * mean_distance(result.heads.front().weights))
      << "slope 1/256";
}

TEST(Presets, RopeGivesTheSameWordDifferentScoresAtDifferentPlaces) {
  const Problem p = preset_problem("rope");
  EXPECT_EQ(p.positional, PositionalKind::Rope);
  EXPECT_EQ(p.d_k % 2, 0);
  const Result result = make_cpu_backend()->compute(p);
  // "the" (0) and "dog" (4), then "the" (7) and "dog" (8): the same two words, different scores,
  // as their distances differ (4 and 1); without RoPE the two scores are equal.
  ASSERT_EQ(p.tokens[0], p.tokens[7]);
  ASSERT_EQ(p.tokens[4], p.tokens[8]);
  const Matrix& s = result.heads[0].scores;
  EXPECT_GT(std::fabs(s.at(4, 0) - s.at(8, 7)), 1e-3);
  Problem none = p;
  none.positional = PositionalKind::None;
  const Result plain_result = make_cpu_backend()->compute(none);
  const Matrix& plain = plain_result.heads[0].scores;
  EXPECT_FLOAT_EQ(plain.at(4, 0), plain.at(8, 7));
}

TEST(Presets, DropoutDropsSomeWeights) {
  const Problem p = preset_problem("dropout");
  ASSERT_TRUE(p.dropout.has_value());
  const Result result = make_cpu_backend()->compute(p);
  int dropped = 0;
  for (std::uint8_t kept : result.heads[0].kept.visible) dropped += kept == 0 ? 1 : 0;
  EXPECT_GT(dropped, 5);
}

TEST(Presets, EveryPresetComputesFiniteWeightsThatSumToOne) {
  for (const std::string& name : preset_names()) {
    SCOPED_TRACE(name);
    const Problem problem = preset_problem(name);
    const Result result = make_cpu_backend()->compute(problem);
    EXPECT_TRUE(result.masked_rows.empty());
    for (const HeadResult& head : result.heads) {
      const Matrix& softmax = head.weights_before_dropout.empty() ? head.weights : head.weights_before_dropout;
      for (int r = 0; r < softmax.rows; ++r) {
        double sum = 0.0;
        for (int c = 0; c < softmax.cols; ++c) sum += softmax.at(r, c);
        EXPECT_NEAR(sum, 1.0, 1e-5);
      }
    }
  }
}

TEST(Presets, KoreanRestaurantIsTheSharedWorkedExample) {
  std::ifstream file(std::string(ATTNVIZ_FIXTURES_DIR) + "/korean-full.json");
  const nlohmann::json fixture = nlohmann::json::parse(file);
  const Problem p = preset_problem("korean-restaurant");
  EXPECT_EQ(p.tokens, fixture["tokens"].get<std::vector<std::string>>());
  for (int r = 0; r < p.x.rows; ++r)
    for (int c = 0; c < p.x.cols; ++c)
      EXPECT_EQ(p.x.at(r, c),
                fixture["embeddings"][static_cast<std::size_t>(r)][static_cast<std::size_t>(c)].get<float>());
  EXPECT_EQ(p.wq.at(3, 2), 0.4f);
  EXPECT_FALSE(p.mask.causal);
}

TEST(Presets, LifeIsShortHasTheIssueNumbers) {
  const Problem p = preset_problem("life-is-short");
  EXPECT_EQ(p.tokens, (std::vector<std::string>{"Life", "is", "short", "eat", "dessert", "first"}));
  EXPECT_EQ(p.d_model(), 3);
  EXPECT_EQ(p.d_k, 2);
  EXPECT_EQ(p.d_v, 4);
  EXPECT_EQ(p.x.at(5, 2), -1.4097f);
  EXPECT_EQ(p.wk.at(1, 1), 0.7264f);
  EXPECT_EQ(p.wv.at(0, 0), 0.0756f);
}

TEST(Presets, FeaturePresetsShowTheirFeature) {
  const Problem causal = preset_problem("causal-gpt");
  EXPECT_TRUE(causal.mask.causal);
  EXPECT_FALSE(causal.mask.window.has_value());

  const Problem sliding = preset_problem("sliding-window");
  EXPECT_TRUE(sliding.mask.causal);
  EXPECT_TRUE(sliding.mask.window.has_value());

  const Problem longformer = preset_problem("longformer");
  EXPECT_FALSE(longformer.mask.causal);
  EXPECT_FALSE(longformer.mask.global.empty());
  EXPECT_EQ(longformer.tokens[static_cast<std::size_t>(longformer.mask.global[1])], "?");

  const Problem gqa = preset_problem("gqa");
  EXPECT_EQ(gqa.num_heads, 8);
  EXPECT_EQ(gqa.num_kv_heads, 2);

  const Problem cross = preset_problem("cross-attention");
  EXPECT_TRUE(cross.cross_attention);
  EXPECT_EQ(cross.source_tokens.front(), "어제");
  EXPECT_EQ(cross.tokens.front(), "Last");

  for (const Problem* p : {&causal, &sliding, &longformer, &gqa, &cross}) {
    EXPECT_GE(p->n(), 10);
    EXPECT_LE(p->n(), 30);
  }
}

}  // namespace
}  // namespace attnviz
