// Which texts only the overview shows (core/overview/long_text.h): counted up to one past the
// overview's 65,536 tokens, queries and keys apart, listed tokens as listed.

#include <gtest/gtest.h>

#include <string>

#include "core/overview/long_text.h"
#include "core/overview/overview.h"

namespace attnviz {
namespace {

std::string words(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) text += (i == 0 ? "w" : " w") + std::to_string(i % 7);
  return text;
}

int count(const std::string& text, const std::optional<std::vector<std::string>>& listed = std::nullopt) {
  return overview::text_tokens(text, TokenizerMode::Words, listed).count();
}

TEST(LongText, TokensAreCountedUpToOnePastTheOverviewsLimit) {
  EXPECT_EQ(count("one two three"), 3);
  EXPECT_EQ(count("ignored", std::vector<std::string>{"a", "b"}), 2);
  EXPECT_EQ(count(words(overview::kMaxOverviewTokens + 5)), overview::kMaxOverviewTokens + 1);
  EXPECT_EQ(count("bad \xFF byte"), overview::kMaxOverviewTokens + 1);
}

TEST(LongText, ATextThatCannotBeSplitSaysWhereAndListedTokensAreKeptAsListed) {
  const overview::TextTokens bad = overview::text_tokens("bad \xFF byte", TokenizerMode::Words, std::nullopt);
  EXPECT_NE(bad.error.find("UTF-8"), std::string::npos) << bad.error;
  EXPECT_EQ(bad.error_offset, 4u);
  EXPECT_FALSE(bad.too_long);
  EXPECT_TRUE(
      overview::text_tokens(words(overview::kMaxOverviewTokens + 1), TokenizerMode::Words, std::nullopt).too_long);
  const overview::TextTokens listed =
      overview::text_tokens("a caption", TokenizerMode::Words, std::vector<std::string>{"x", "y", "z"});
  EXPECT_TRUE(listed.explicit_tokens);
  EXPECT_EQ(listed.tokens, (std::vector<std::string>{"x", "y", "z"}));
  const overview::TextTokens typed = overview::text_tokens("나는 학교에 간다.", TokenizerMode::Words, std::nullopt);
  EXPECT_FALSE(typed.explicit_tokens);
  EXPECT_EQ(typed.tokens, (std::vector<std::string>{"나는", "학교에", "간다", "."}));
}

TEST(LongText, AScenariosKeysAreItsSourcesTokensWithCrossAttention) {
  Scenario scenario;
  scenario.sentence = "a short target";
  overview::ScenarioTokens tokens = overview::scenario_tokens(scenario);
  EXPECT_EQ(tokens.query_count(), 3);
  EXPECT_EQ(tokens.key_count(), 3);
  EXPECT_FALSE(tokens.source.has_value());
  scenario.source = SourceSetting{};
  scenario.source->sentence = "one two three four five";
  tokens = overview::scenario_tokens(scenario);
  EXPECT_EQ(tokens.query_count(), 3);
  EXPECT_EQ(tokens.key_count(), 5);
}

TEST(LongText, OnlyTheOverviewShowsTextsPastTheWindowsMatricesAndWithinItsOwnLimit) {
  Scenario scenario;
  scenario.sentence = words(4096);
  EXPECT_FALSE(overview::only_the_overview_shows(scenario));
  scenario.sentence = words(4097);
  EXPECT_TRUE(overview::only_the_overview_shows(scenario));
  scenario.sentence = words(overview::kMaxOverviewTokens);
  EXPECT_TRUE(overview::only_the_overview_shows(scenario));
  scenario.sentence = words(overview::kMaxOverviewTokens + 1);
  EXPECT_FALSE(overview::only_the_overview_shows(scenario));  // too long even for the overview

  // Cross-attention: a long source is enough.
  scenario.sentence = "a short target";
  scenario.source = SourceSetting{};
  scenario.source->sentence = words(5000);
  EXPECT_TRUE(overview::only_the_overview_shows(scenario));
}

}  // namespace
}  // namespace attnviz
