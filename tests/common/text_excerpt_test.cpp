#include <gtest/gtest.h>

#include "core/common/text_excerpt.h"

namespace attnviz {
namespace {

TEST(TextExcerpt, ShortTextsAreQuotedWhole) {
  EXPECT_EQ(quoted_excerpt("attnviz-scenario/2"), "\"attnviz-scenario/2\"");
  EXPECT_EQ(quoted_excerpt("a\"b\\c\nd\x01"), "\"a\\\"b\\\\c\\nd\\u0001\"");
  EXPECT_EQ(quoted_excerpt("\xff"), "\"\\xFF\"");
}

// A 200 KB value in a message: 60 characters of it and its length.
TEST(TextExcerpt, LongTextsAreCutAndSayHowLongTheyWere) {
  const std::string long_text(200000, 'a');
  const std::string quoted = quoted_excerpt(long_text);
  EXPECT_EQ(quoted, "\"" + std::string(60, 'a') + "\u2026\" (200000 characters)");
}

TEST(TextExcerpt, CutsAtCharacterBoundaries) {
  EXPECT_EQ(cut_text("배가 고파서", 2), "배가\u2026");
  EXPECT_EQ(cut_text("배가", 2), "배가");
  EXPECT_EQ(character_count("배가 고파서"), 6u);
  EXPECT_EQ(quoted_excerpt("한국어", 1), "\"한\u2026\" (3 characters)");
}

}  // namespace
}  // namespace attnviz
