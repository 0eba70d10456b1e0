// A scenario's tokens (core/scenario/scenario_tokens.h): queries and, with cross-attention, the
// source's keys; which texts only the overview shows; a new sentence put in.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/scenario/scenario_tokens.h"

namespace attnviz {
namespace {

std::string words(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) text += (i == 0 ? "w" : " w") + std::to_string(i % 7);
  return text;
}

TEST(ScenarioTokens, AScenariosKeysAreItsSourcesTokensWithCrossAttention) {
  Scenario scenario;
  scenario.sentence = "a short target";
  ScenarioTokens tokens = scenario_tokens(scenario);
  EXPECT_EQ(tokens.query_count(), 3);
  EXPECT_EQ(tokens.key_count(), 3);
  EXPECT_FALSE(tokens.source.has_value());
  scenario.source = SourceSetting{};
  scenario.source->sentence = "one two three four five";
  tokens = scenario_tokens(scenario);
  EXPECT_EQ(tokens.query_count(), 3);
  EXPECT_EQ(tokens.key_count(), 5);
}

TEST(ScenarioTokens, OnlyTheOverviewShowsTextsPastTheWindowsMatricesAndWithinItsOwnLimit) {
  Scenario scenario;
  scenario.sentence = words(4096);
  EXPECT_FALSE(only_the_overview_shows(scenario));
  scenario.sentence = words(4097);
  EXPECT_TRUE(only_the_overview_shows(scenario));
  scenario.sentence = words(kMaxSentenceTokens);
  EXPECT_TRUE(only_the_overview_shows(scenario));
  scenario.sentence = words(kMaxSentenceTokens + 1);
  EXPECT_FALSE(only_the_overview_shows(scenario));  // too long even for the overview

  // Cross-attention: a long source is enough.
  scenario.sentence = "a short target";
  scenario.source = SourceSetting{};
  scenario.source->sentence = words(5000);
  EXPECT_TRUE(only_the_overview_shows(scenario));
}

TEST(ScenarioTokens, ANewSentenceDropsTheOldSentencesTokensAndEmbeddings) {
  Scenario scenario;
  scenario.tokens = std::vector<std::string>{"a", "b"};
  scenario.embeddings = Matrix(2, scenario.d_model);
  const Scenario next = with_sentence(scenario, "three new words");
  EXPECT_EQ(next.sentence, "three new words");
  EXPECT_FALSE(next.tokens.has_value());
  EXPECT_FALSE(next.embeddings.has_value());
  EXPECT_EQ(scenario_tokens(next).query_count(), 3);
}

}  // namespace
}  // namespace attnviz
