// The tokenizer against hand-written expectations (docs/design.md "Tokenizer").

#include <gtest/gtest.h>

#include "core/text/tokenizer.h"

namespace attnviz {
namespace {

using Tokens = std::vector<std::string>;

TEST(Tokenizer, AsciiWordsWithPunctuationAsTokens) {
  EXPECT_EQ(tokenize("Life is short, eat dessert first!", TokenizerMode::Words),
            (Tokens{"Life", "is", "short", ",", "eat", "dessert", "first", "!"}));
}

TEST(Tokenizer, WordsNoPunctDropsPunctuation) {
  EXPECT_EQ(tokenize("Life is short, eat dessert first!", TokenizerMode::WordsNoPunct),
            (Tokens{"Life", "is", "short", "eat", "dessert", "first"}));
}

TEST(Tokenizer, PunctuationInsideAWordSplitsIt) {
  EXPECT_EQ(tokenize("don't (stop)", TokenizerMode::Words), (Tokens{"don", "'", "t", "(", "stop", ")"}));
}

TEST(Tokenizer, KoreanSentenceIsFourWords) {
  EXPECT_EQ(tokenize("어제 밤에 배가 고파서", TokenizerMode::Words), (Tokens{"어제", "밤에", "배가", "고파서"}));
}

TEST(Tokenizer, KoreanCharsAreCodePointsWithoutSpaces) {
  EXPECT_EQ(tokenize("배가 고파", TokenizerMode::Chars), (Tokens{"배", "가", "고", "파"}));
}

TEST(Tokenizer, MixedScriptsAndEmoji) {
  EXPECT_EQ(tokenize("치킨 🍗 is great。", TokenizerMode::Words), (Tokens{"치킨", "🍗", "is", "great", "。"}));
  EXPECT_EQ(tokenize("a🍗b", TokenizerMode::Chars), (Tokens{"a", "🍗", "b"}));
}

TEST(Tokenizer, UnicodeWhiteSpaceSeparates) {
  // no-break space, ideographic space, tab, newline
  EXPECT_EQ(tokenize("a\u00A0b\u3000c\td\ne", TokenizerMode::Words), (Tokens{"a", "b", "c", "d", "e"}));
}

TEST(Tokenizer, EmptyAndBlankTextGiveNoTokens) {
  EXPECT_TRUE(tokenize("", TokenizerMode::Words).empty());
  EXPECT_TRUE(tokenize("  \t\n ", TokenizerMode::Chars).empty());
}

void expect_invalid_at(std::string_view text, std::size_t offset) {
  try {
    tokenize(text, TokenizerMode::Words);
    ADD_FAILURE() << "no error for invalid UTF-8";
  } catch (const TokenizerError& e) {
    EXPECT_EQ(e.byte_offset(), offset);
    EXPECT_EQ(e.kind(), TokenizerError::Kind::InvalidUtf8);
    EXPECT_NE(std::string(e.what()).find("byte offset " + std::to_string(offset)), std::string::npos) << e.what();
  }
}

TEST(Tokenizer, InvalidUtf8NamesTheByteOffset) {
  expect_invalid_at("ab\xFF", 2);               // never valid
  expect_invalid_at("abc \x80", 4);             // stray continuation byte
  expect_invalid_at("\xEB\xB0", 0);             // truncated 3-byte sequence (배 without its last byte)
  expect_invalid_at("x \xC0\xAF", 2);           // overlong '/'
  expect_invalid_at("\xED\xA0\x80", 0);         // UTF-16 surrogate
  expect_invalid_at("ok \xF4\x90\x80\x80", 3);  // beyond U+10FFFF
}

TEST(Tokenizer, LimitGivesAClearErrorNotAHang) {
  std::string many;
  for (int i = 0; i < 10; ++i) many += "w ";
  EXPECT_EQ(tokenize(many, TokenizerMode::Words, 10).size(), 10u);
  many += "eleventh";
  try {
    tokenize(many, TokenizerMode::Words, 10);
    ADD_FAILURE() << "no error past the limit";
  } catch (const TokenizerError& e) {
    EXPECT_EQ(e.byte_offset(), 20u);
    EXPECT_EQ(e.kind(), TokenizerError::Kind::TooManyTokens);
    EXPECT_NE(std::string(e.what()).find("more than 10 tokens"), std::string::npos) << e.what();
  }
}

TEST(Tokenizer, DefaultLimitIs4096AndAHugeTextStopsThere) {
  std::string huge;
  for (int i = 0; i < 100000; ++i) huge += "x ";
  EXPECT_THROW(tokenize(huge, TokenizerMode::Words), TokenizerError);
  EXPECT_EQ(kDefaultMaxTokens, 4096);
}

}  // namespace
}  // namespace attnviz
