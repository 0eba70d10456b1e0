#include "core/tokenizers/token_label.h"

#include <gtest/gtest.h>

namespace attnviz::tokenizers {
namespace {

TEST(TokenLabel, SpacesLineBreaksAndTabsBecomeSigns) {
  EXPECT_EQ(readable_bytes(" the"), "␣the");
  EXPECT_EQ(readable_bytes("\n\t"), "↵⇥");
}

TEST(TokenLabel, BytesThatAreNotWholeCharactersBecomeByteLabels) {
  EXPECT_EQ(readable_bytes("\xEC\x96"), "<0xEC><0x96>");      // the first two bytes of 어
  EXPECT_EQ(readable_bytes("\xB4\xEC\x96\xB4"), "<0xB4>어");  // a stray continuation, then 어
  EXPECT_EQ(readable_bytes(" \xEB"), "␣<0xEB>");
}

TEST(TokenLabel, NeverAReplacementCharacter) {
  EXPECT_EQ(readable_bytes("\xEF\xBF\xBD"), "<0xEF><0xBF><0xBD>");  // U+FFFD itself is shown as its bytes
  EXPECT_EQ(readable_bytes(std::string("\x01", 1)), "<0x01>");
}

std::vector<std::string> labels_of(std::initializer_list<TokenPiece> pieces) {
  return readable_labels(std::vector<TokenPiece>(pieces));
}

TEST(TokenLabel, ACharacterCutBetweenTokensIsNamedInEachWithItsByteNumbers) {
  // 안 = EC 95 88, 녕 = EB 85 95 (UTF-8).
  EXPECT_EQ(labels_of({{"\xEC\x95"}, {"\x88"}}), (std::vector<std::string>{"안₁₂", "안₃"}));
  EXPECT_EQ(labels_of({{"\xEC"}, {"\x95\x88\xEB"}, {"\x85\x95"}}),
            (std::vector<std::string>{"안₁", "안₂₃녕₁", "녕₂₃"}));
  EXPECT_EQ(labels_of({{" \xEC\x95"}, {"\x88!"}}), (std::vector<std::string>{"␣안₁₂", "안₃!"}));
  EXPECT_EQ(labels_of({{"\xF0\x9F"}, {"\x99\x82"}}), (std::vector<std::string>{"🙂₁₂", "🙂₃₄"}));
}

TEST(TokenLabel, WholeCharactersAndSignsReadAsOnTheirOwn) {
  EXPECT_EQ(labels_of({{" the"}, {"\n"}, {"안녕"}}), (std::vector<std::string>{"␣the", "↵", "안녕"}));
}

TEST(TokenLabel, ASpecialTokenBreaksTheTextAndKeepsItsName) {
  EXPECT_EQ(labels_of({{"\xEC\x95"}, {"<s>", false}, {"\x88"}}),
            (std::vector<std::string>{"<0xEC><0x95>", "<s>", "<0x88>"}));
}

TEST(TokenLabel, BytesThatMakeNoCharacterStayByteLabels) {
  EXPECT_EQ(labels_of({{"\xFF"}, {"a"}}), (std::vector<std::string>{"<0xFF>", "a"}));
  EXPECT_EQ(labels_of({{"\xEC\x95"}}), (std::vector<std::string>{"<0xEC><0x95>"}));  // the text ends inside 안
  // A control character (U+0085) cut in two is not drawn, so its bytes are shown.
  EXPECT_EQ(labels_of({{"\xC2"}, {"\x85"}}), (std::vector<std::string>{"<0xC2>", "<0x85>"}));
}

TEST(TokenLabel, TheNoteSaysWhichBytesOfWhichCharacter) {
  const std::string note = cut_character_note("안₁₂");
  EXPECT_NE(note.find("안₁₂: bytes 1 and 2 of the 3 that spell 안 (U+C548)"), std::string::npos) << note;
  const std::string two = cut_character_note("안₃녕₁");
  EXPECT_NE(two.find("안₃: byte 3 of the 3 that spell 안 (U+C548); 녕₁: byte 1 of the 3 that spell 녕 (U+B155)"),
            std::string::npos)
      << two;
  EXPECT_EQ(cut_character_note("<0xEC>"), "");
  EXPECT_EQ(cut_character_note("안녕"), "");
  EXPECT_EQ(cut_character_note("x₂"), "");  // one byte: nothing to cut
  EXPECT_EQ(cut_character_note("₁₂"), "");  // typed subscripts, not byte numbers
}

}  // namespace
}  // namespace attnviz::tokenizers
