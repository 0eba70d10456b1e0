// Going to a place in a long text (token_search.h): numbers name tokens, words and phrases are
// cut as the text was and compared ignoring case, a word no token equals is found inside
// tokens, and next_match walks the matches from the pinned query, wrapping around.

#include <gtest/gtest.h>

#include "core/overview/token_search.h"
#include "core/text/tokenizer.h"

namespace attnviz::testing {
namespace {

using overview::find_tokens;
using overview::match_ordinal;
using overview::next_match;
using Kind = overview::TokenMatches::Kind;

const std::vector<std::string> kText =
    tokenize("The cat sat. The Cat ran, the dog sat; CATS purr. Über alles: über.", TokenizerMode::Words);
// 0 The 1 cat 2 sat 3 . 4 The 5 Cat 6 ran 7 , 8 the 9 dog 10 sat 11 ; 12 CATS 13 purr 14 .
// 15 Über 16 alles 17 : 18 über 19 .

TEST(TokenSearch, AWordIsFoundIgnoringCase) {
  const auto found = find_tokens(kText, "the", TokenizerMode::Words);
  EXPECT_EQ(found.kind, Kind::Exact);
  EXPECT_EQ(found.starts, (std::vector<int>{0, 4, 8}));
  EXPECT_EQ(found.length, 1);
  EXPECT_EQ(found.phrase, "the");
  EXPECT_EQ(find_tokens(kText, "  CAT ", TokenizerMode::Words).starts, (std::vector<int>{1, 5}));
}

TEST(TokenSearch, CaseIsFoldedBeyondAscii) {
  EXPECT_EQ(find_tokens(kText, "ÜBER", TokenizerMode::Words).starts, (std::vector<int>{15, 18}));
}

TEST(TokenSearch, APhraseMatchesConsecutiveTokens) {
  const auto found = find_tokens(kText, "the cat", TokenizerMode::Words);
  EXPECT_EQ(found.kind, Kind::Exact);
  EXPECT_EQ(found.starts, (std::vector<int>{0, 4}));
  EXPECT_EQ(found.length, 2);
  // Punctuation is a token of its own in the words tokenizer, in the phrase as in the text.
  EXPECT_EQ(find_tokens(kText, "sat.", TokenizerMode::Words).starts, (std::vector<int>{2}));
  EXPECT_EQ(find_tokens(kText, "ran, the", TokenizerMode::Words).starts, (std::vector<int>{6}));
}

TEST(TokenSearch, AWordNoTokenEqualsIsFoundInsideTokens) {
  const auto found = find_tokens(kText, "ca", TokenizerMode::Words);
  EXPECT_EQ(found.kind, Kind::Containing);
  EXPECT_EQ(found.starts, (std::vector<int>{1, 5, 12}));
  // A phrase is never looked for inside tokens.
  EXPECT_EQ(find_tokens(kText, "the ca", TokenizerMode::Words).kind, Kind::NotFound);
}

TEST(TokenSearch, NothingFoundSaysWhatWasLookedFor) {
  const auto found = find_tokens(kText, "\"zebra\"", TokenizerMode::Words);
  EXPECT_EQ(found.kind, Kind::NotFound);
  EXPECT_FALSE(found.found());
  EXPECT_EQ(found.phrase, "zebra");
}

TEST(TokenSearch, NumbersNameTokens) {
  for (const char* typed : {"12", "#12", "# 12", " 1_2 "}) {
    const auto found = find_tokens(kText, typed, TokenizerMode::Words);
    EXPECT_EQ(found.kind, Kind::Position) << typed;
    EXPECT_EQ(found.starts, (std::vector<int>{12})) << typed;
  }
  std::vector<std::string> many(40000, "x");
  EXPECT_EQ(find_tokens(many, "34,617", TokenizerMode::Words).starts, (std::vector<int>{34617}));
  const auto past = find_tokens(kText, "20", TokenizerMode::Words);
  EXPECT_EQ(past.kind, Kind::OutOfRange);
  EXPECT_EQ(past.position, 20);
  EXPECT_FALSE(past.found());
  EXPECT_EQ(find_tokens(kText, "99999999999999999999999", TokenizerMode::Words).kind, Kind::OutOfRange);
}

TEST(TokenSearch, QuotesAndMisplacedSeparatorsMakeANumberText) {
  const std::vector<std::string> text = tokenize("in 2024 and 1,5 we", TokenizerMode::Words);
  // in 2024 and 1 , 5 we
  const auto quoted = find_tokens(text, "\"2024\"", TokenizerMode::Words);
  EXPECT_EQ(quoted.kind, Kind::Exact);
  EXPECT_EQ(quoted.starts, (std::vector<int>{1}));
  EXPECT_EQ(find_tokens(text, "1,", TokenizerMode::Words).starts, (std::vector<int>{3}));  // text: "1" ","
  EXPECT_EQ(find_tokens(text, ",5", TokenizerMode::Words).starts, (std::vector<int>{4}));
}

TEST(TokenSearch, KoreanByCharactersAndByWords) {
  const std::string sentence = "나는 학교에 간다. 학교는 크다.";
  const auto chars = tokenize(sentence, TokenizerMode::Chars);
  const auto found = find_tokens(chars, "학교", TokenizerMode::Chars);
  EXPECT_EQ(found.kind, Kind::Exact);
  EXPECT_EQ(found.starts, (std::vector<int>{2, 8}));
  EXPECT_EQ(found.length, 2);
  const auto words = tokenize(sentence, TokenizerMode::Words);
  // 나는 학교에 간다 . 학교는 크다 .: no word is 학교 itself; two contain it.
  const auto inside = find_tokens(words, "학교", TokenizerMode::Words);
  EXPECT_EQ(inside.kind, Kind::Containing);
  EXPECT_EQ(inside.starts, (std::vector<int>{1, 4}));
}

TEST(TokenSearch, WhatCannotBeLookedForSaysWhy) {
  EXPECT_EQ(find_tokens(kText, "   ", TokenizerMode::Words).kind, Kind::Empty);
  EXPECT_EQ(find_tokens(kText, "...", TokenizerMode::WordsNoPunct).kind, Kind::NoTokens);
  EXPECT_EQ(find_tokens(kText, std::string("ca\xff"), TokenizerMode::Words).kind, Kind::NotUtf8);
  std::string long_phrase;
  for (int i = 0; i <= overview::kMaxSearchTokens; ++i) long_phrase += "w ";
  EXPECT_EQ(find_tokens(kText, long_phrase, TokenizerMode::Words).kind, Kind::TooLong);
  EXPECT_EQ(find_tokens({}, "the", TokenizerMode::Words).kind, Kind::NotFound);
}

TEST(TokenSearch, NextMatchWalksFromThePinnedQueryAndWraps) {
  const std::vector<int> starts{3, 10, 20};
  EXPECT_EQ(next_match(starts, std::nullopt, false), 3);
  EXPECT_EQ(next_match(starts, std::nullopt, true), 20);
  EXPECT_EQ(next_match(starts, 3, false), 10);
  EXPECT_EQ(next_match(starts, 5, false), 10);
  EXPECT_EQ(next_match(starts, 20, false), 3);
  EXPECT_EQ(next_match(starts, 10, true), 3);
  EXPECT_EQ(next_match(starts, 11, true), 10);
  EXPECT_EQ(next_match(starts, 3, true), 20);
  EXPECT_EQ(next_match({}, 3, false), -1);
  EXPECT_EQ(match_ordinal(starts, 10), 2);
  EXPECT_EQ(match_ordinal(starts, 11), 0);
}

}  // namespace
}  // namespace attnviz::testing
