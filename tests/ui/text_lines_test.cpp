// Wrapping at spaces only: a grouped number is never cut at its comma.
#include "app/ui/text_lines.h"

#include <gtest/gtest.h>

namespace attnviz::ui {
namespace {

// Every byte one unit wide.
float bytes(std::string_view run) { return static_cast<float>(run.size()); }

TEST(TextLines, BreaksAtTheSpaceBeforeTheWordThatWouldPassTheWidth) {
  EXPECT_EQ(break_at_spaces("head 0 sees 35,777 of 65,536 keys", 22.0f, bytes), "head 0 sees 35,777 of\n65,536 keys");
  EXPECT_EQ(break_at_spaces("head 0 sees 35,777 of 65,536 keys", 10.0f, bytes), "head 0\nsees\n35,777 of\n65,536\nkeys");
  // A line exactly as wide as the room stays one line.
  EXPECT_EQ(break_at_spaces("one two", 7.0f, bytes), "one two");
}

TEST(TextLines, NeverBreaksInsideAWord) {
  // ImGui 1.86 would break after the comma; here "65,536" stays whole even where it alone is
  // wider than the line.
  EXPECT_EQ(break_at_spaces("of 65,536", 4.0f, bytes), "of\n65,536");
  EXPECT_EQ(break_at_spaces("0\xE2\x80\x93" "65,535, the largest", 12.0f, bytes), "0\xE2\x80\x93" "65,535,\nthe largest");
}

TEST(TextLines, KeepsTheTextsOwnLineBreaksAndStartsCountingAfterThem) {
  EXPECT_EQ(break_at_spaces("a b c\nd e f g h", 5.0f, bytes), "a b c\nd e f\ng h");
  EXPECT_EQ(break_at_spaces("", 5.0f, bytes), "");
  EXPECT_EQ(break_at_spaces("short", 100.0f, bytes), "short");
}

}  // namespace
}  // namespace attnviz::ui
