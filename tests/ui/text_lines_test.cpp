// Wrapping at spaces only: a grouped number is never cut at its comma.
#include "app/ui/text_lines.h"

#include <gtest/gtest.h>

#include "tests/support/headless_imgui.h"

namespace attnviz::ui {
namespace {

// Every byte one unit wide.
float bytes(std::string_view run) { return static_cast<float>(run.size()); }

TEST(TextLines, BreaksAtTheSpaceBeforeTheWordThatWouldPassTheWidth) {
  EXPECT_EQ(break_at_spaces("head 0 sees 35,777 of 65,536 keys", 22.0f, bytes), "head 0 sees 35,777 of\n65,536 keys");
  EXPECT_EQ(break_at_spaces("head 0 sees 35,777 of 65,536 keys", 10.0f, bytes),
            "head 0\nsees\n35,777 of\n65,536\nkeys");
  // A line exactly as wide as the room stays one line.
  EXPECT_EQ(break_at_spaces("one two", 7.0f, bytes), "one two");
}

TEST(TextLines, NeverBreaksInsideAWord) {
  // ImGui 1.86 would break after the comma; here "65,536" stays whole even where it alone is
  // wider than the line.
  EXPECT_EQ(break_at_spaces("of 65,536", 4.0f, bytes), "of\n65,536");
  EXPECT_EQ(break_at_spaces("0\xE2\x80\x93"
                            "65,535, the largest",
                            12.0f, bytes),
            "0\xE2\x80\x93"
            "65,535,\nthe largest");
}

TEST(TextLines, KeepsTheTextsOwnLineBreaksAndStartsCountingAfterThem) {
  EXPECT_EQ(break_at_spaces("a b c\nd e f g h", 5.0f, bytes), "a b c\nd e f\ng h");
  // The last word before a line break is measured too.
  EXPECT_EQ(break_at_spaces("aaa bbb ccc\nd", 7.0f, bytes), "aaa bbb\nccc\nd");
  EXPECT_EQ(break_at_spaces("", 5.0f, bytes), "");
  EXPECT_EQ(break_at_spaces("short", 100.0f, bytes), "short");
}

TEST(TextLines, KeepsAProductWholeAsOneWord) {
  // "1,024 × 1,024" is 13 bytes: it moves to the next line whole rather than leave "1,024 ×".
  EXPECT_EQ(break_at_spaces("Br \xc3\x97 Bc = 1,024 \xc3\x97 1,024", 16.0f, bytes),
            "Br \xc3\x97 Bc =\n1,024 \xc3\x97 1,024");
  // Where the product is wider than the line it still stays whole (ImGui then cuts it).
  EXPECT_EQ(break_at_spaces("a 1,024 \xc3\x97 1,024", 6.0f, bytes), "a\n1,024 \xc3\x97 1,024");
}

TEST(TextLines, AHangingIndentLeavesTheLaterLinesOfAParagraphLessRoom) {
  EXPECT_EQ(break_at_spaces("aaa bbb ccc ddd", 7.0f, bytes, 2.0f), "aaa bbb\nccc\nddd");
  EXPECT_EQ(break_at_spaces("aaa bbb ccc ddd", 7.0f, bytes), "aaa bbb\nccc ddd");
  // Each paragraph's first line has the whole width again.
  EXPECT_EQ(break_at_spaces("aaa bbb ccc\nddd eee", 7.0f, bytes, 2.0f), "aaa bbb\nccc\nddd eee");
}

// text_wrapped formats like ImGui::TextWrapped and wraps where it would (here a pushed wrap
// position), but before "65,536" rather than after its comma.
TEST(TextLines, TextWrappedHonoursThePushedWrapPositionAndKeepsNumbersWhole) {
  testing::HeadlessImGui imgui(ImVec2(800.0f, 600.0f));
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
  ImGui::SetNextWindowSize(ImVec2(700.0f, 400.0f));
  ImGui::Begin("text");
  const float first_line = ImGui::CalcTextSize("head 0 sees 35,777 of").x;
  // Room for "head 0 sees 35,777 of 65," but not for the whole number.
  const float room = ImGui::CalcTextSize("head 0 sees 35,777 of 65,").x + 1.0f;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + room);
  text_wrapped("head %d sees %s of %s keys", 0, "35,777", "65,536");
  ImGui::PopTextWrapPos();
  EXPECT_FLOAT_EQ(ImGui::GetItemRectSize().x, first_line);
  EXPECT_FLOAT_EQ(ImGui::GetItemRectSize().y, 2.0f * ImGui::GetTextLineHeight());
  text_wrapped("%s", "no wrap position pushed: the rest of the line");
  EXPECT_FLOAT_EQ(ImGui::GetItemRectSize().y, ImGui::GetTextLineHeight());
  ImGui::End();
  ImGui::EndFrame();
}

}  // namespace
}  // namespace attnviz::ui
