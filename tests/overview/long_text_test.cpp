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

TEST(LongText, TokensAreCountedUpToOnePastTheOverviewsLimit) {
  EXPECT_EQ(overview::count_tokens("one two three", TokenizerMode::Words, std::nullopt), 3);
  EXPECT_EQ(overview::count_tokens("ignored", TokenizerMode::Words, std::vector<std::string>{"a", "b"}), 2);
  EXPECT_EQ(overview::count_tokens(words(overview::kMaxOverviewTokens + 5), TokenizerMode::Words, std::nullopt),
            overview::kMaxOverviewTokens + 1);
  EXPECT_EQ(overview::count_tokens("bad \xFF byte", TokenizerMode::Words, std::nullopt), overview::kMaxOverviewTokens + 1);
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
