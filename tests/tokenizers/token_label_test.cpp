#include "core/tokenizers/token_label.h"

#include <gtest/gtest.h>

namespace attnviz::tokenizers {
namespace {

TEST(TokenLabel, SpacesLineBreaksAndTabsBecomeSigns) {
  EXPECT_EQ(readable_bytes(" the"), "␣the");
  EXPECT_EQ(readable_bytes("\n\t"), "↵⇥");
}

TEST(TokenLabel, BytesThatAreNotWholeCharactersBecomeByteLabels) {
  EXPECT_EQ(readable_bytes("\xEC\x96"), "<0xEC><0x96>");            // the first two bytes of 어
  EXPECT_EQ(readable_bytes("\xB4\xEC\x96\xB4"), "<0xB4>어");       // a stray continuation, then 어
  EXPECT_EQ(readable_bytes(" \xEB"), "␣<0xEB>");
}

TEST(TokenLabel, NeverAReplacementCharacter) {
  EXPECT_EQ(readable_bytes("\xEF\xBF\xBD"), "<0xEF><0xBF><0xBD>");  // U+FFFD itself is shown as its bytes
  EXPECT_EQ(readable_bytes(std::string("\x01", 1)), "<0x01>");
}

}  // namespace
}  // namespace attnviz::tokenizers
