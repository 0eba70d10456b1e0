// The split patterns as scanners: each case is what the regular expression gives (Python's
// `regex` module and tokenizers' Onig agree on these).

#include "core/tokenizers/pretokenize.h"

#include <gtest/gtest.h>

#include "core/tokenizers/unicode.h"

namespace attnviz::tokenizers {
namespace {

std::vector<std::string> split(const std::string& text, SplitPattern pattern) {
  const std::u32string chars = decode_utf8(text, "<test>", "text");
  std::vector<std::string> pieces;
  for (const auto piece : split_words(chars, pattern)) pieces.push_back(encode_utf8(piece));
  return pieces;
}

using Pieces = std::vector<std::string>;

TEST(Pretokenize, Gpt2KeepsALeadingSpaceWithTheWordAndLeavesTheLastSpaceOfARun) {
  EXPECT_EQ(split("Hello   world", SplitPattern::Gpt2), (Pieces{"Hello", "  ", " world"}));
  EXPECT_EQ(split("end  ", SplitPattern::Gpt2), (Pieces{"end", "  "}));
  EXPECT_EQ(split("a\n\nb", SplitPattern::Gpt2), (Pieces{"a", "\n", "\n", "b"}));  // " ?" is a space only
}

TEST(Pretokenize, Gpt2ContractionsAreCaseSensitive) {
  EXPECT_EQ(split("it's I'LL", SplitPattern::Gpt2), (Pieces{"it", "'s", " I", "'", "LL"}));
}

TEST(Pretokenize, LettersNumbersAndOthersAreUnicodeClasses) {
  EXPECT_EQ(split("어제 밤에 2024년!!", SplitPattern::Gpt2), (Pieces{"어제", " 밤에", " 2024", "년", "!!"}));
  EXPECT_EQ(split("café naïve", SplitPattern::Gpt2), (Pieces{"café", " naïve"}));
  EXPECT_EQ(split("x² ½", SplitPattern::Gpt2), (Pieces{"x", "²", " ½"}));  // ² and ½ are numbers (No)
}

TEST(Pretokenize, Llama3GroupsDigitsByThreeAndJoinsPunctuationToWords) {
  EXPECT_EQ(split("12345", SplitPattern::Llama3), (Pieces{"123", "45"}));
  EXPECT_EQ(split("12345", SplitPattern::Qwen2), (Pieces{"1", "2", "3", "4", "5"}));
  EXPECT_EQ(split("(hello) IT'S", SplitPattern::Llama3), (Pieces{"(hello", ")", " IT", "'S"}));
  EXPECT_EQ(split("a\n\n  b", SplitPattern::Llama3), (Pieces{"a", "\n\n", " ", " b"}));
  EXPECT_EQ(split("x ...\n\ny", SplitPattern::Llama3), (Pieces{"x", " ...\n\n", "y"}));
}

TEST(Pretokenize, PiecesCoverTheWholeText) {
  const std::string text = " \t weird  \u00a0 spacing\u3000 and 🙂 emoji \n";
  for (const SplitPattern pattern : {SplitPattern::Gpt2, SplitPattern::Llama3, SplitPattern::Qwen2}) {
    std::string joined;
    for (const std::string& piece : split(text, pattern)) {
      EXPECT_FALSE(piece.empty());
      joined += piece;
    }
    EXPECT_EQ(joined, text);
  }
}

TEST(Pretokenize, KnownRegexesAreRecognisedAndOthersAreNot) {
  EXPECT_EQ(split_pattern_from_regex(R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)"),
            SplitPattern::Gpt2);
  EXPECT_FALSE(split_pattern_from_regex(R"(\w+|\s+)").has_value());
}

}  // namespace
}  // namespace attnviz::tokenizers
