// A sentence's tokens (core/text/sentence_tokens.h): counted up to one past the limit (the
// overview's 65,536 tokens unless asked), listed tokens as listed, and where a text cannot be split.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "core/text/sentence_tokens.h"

namespace attnviz {
namespace {

std::string words(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) text += (i == 0 ? "w" : " w") + std::to_string(i % 7);
  return text;
}

int count(const std::string& text, const std::optional<std::vector<std::string>>& listed = std::nullopt) {
  return text_tokens(text, TokenizerMode::Words, listed).count();
}

TEST(SentenceTokens, TokensAreCountedUpToOnePastTheOverviewsLimit) {
  EXPECT_EQ(count("one two three"), 3);
  EXPECT_EQ(count("ignored", std::vector<std::string>{"a", "b"}), 2);
  EXPECT_EQ(count(words(kMaxSentenceTokens + 5)), kMaxSentenceTokens + 1);
  EXPECT_EQ(count("bad \xFF byte"), kMaxSentenceTokens + 1);
}

TEST(SentenceTokens, ATextThatCannotBeSplitSaysWhereAndListedTokensAreKeptAsListed) {
  const TextTokens bad = text_tokens("bad \xFF byte", TokenizerMode::Words, std::nullopt);
  EXPECT_NE(bad.error.find("UTF-8"), std::string::npos) << bad.error;
  EXPECT_EQ(bad.error_offset, 4u);
  EXPECT_FALSE(bad.too_long);
  EXPECT_TRUE(text_tokens(words(kMaxSentenceTokens + 1), TokenizerMode::Words, std::nullopt).too_long);
  const TextTokens listed = text_tokens("a caption", TokenizerMode::Words, std::vector<std::string>{"x", "y", "z"});
  EXPECT_TRUE(listed.explicit_tokens);
  EXPECT_EQ(listed.tokens, (std::vector<std::string>{"x", "y", "z"}));
  const TextTokens typed = text_tokens("나는 학교에 간다.", TokenizerMode::Words, std::nullopt);
  EXPECT_FALSE(typed.explicit_tokens);
  EXPECT_EQ(typed.tokens, (std::vector<std::string>{"나는", "학교에", "간다", "."}));
}

TEST(SentenceTokens, TheFirstTokensWithinTheLimitAndTheCommandThatKeepsThem) {
  const std::string text = "one two  three four";
  const TextTokens tokens = text_tokens(text, TokenizerMode::Words, std::nullopt, 2);
  ASSERT_TRUE(tokens.too_long);
  EXPECT_EQ(part_within_limit(text, tokens), "one two");
  EXPECT_EQ(keep_first_tokens_command(text, tokens, "it's.txt"), "head -c 7 'it'\\''s.txt' > first-part.txt");
  const TextTokens short_tokens = text_tokens("one two", TokenizerMode::Words, std::nullopt, 2);
  EXPECT_EQ(part_within_limit("one two", short_tokens), "one two");
}

}  // namespace
}  // namespace attnviz
