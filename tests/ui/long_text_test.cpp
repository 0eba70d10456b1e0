// What the window shows of a text a user made long: a part, marked as cut.
#include <gtest/gtest.h>

#include "app/ui/long_text.h"

namespace attnviz::ui {
namespace {

TEST(LongText, ShortTextsAreShownWhole) {
  const ShownText shown = shown_text("Could not open a.json:\nno such file");
  EXPECT_EQ(shown.text, "Could not open a.json:\nno such file");
  EXPECT_FALSE(shown.cut);
}

TEST(LongText, LongTextsAreCutToCharactersAndLines) {
  const ShownText by_chars = shown_text(std::string(200000, 'x'));
  EXPECT_TRUE(by_chars.cut);
  EXPECT_EQ(by_chars.text, std::string(kShownCharacters, 'x') + "\u2026");
  std::string many_lines;
  for (int i = 0; i < 100; ++i) many_lines += "line\n";
  const ShownText by_lines = shown_text(many_lines);
  EXPECT_TRUE(by_lines.cut);
  EXPECT_EQ(by_lines.text.substr(by_lines.text.size() - 7), "line\u2026");
  const ShownText korean = shown_text("배가 고파서", 2, 1);
  EXPECT_EQ(korean.text, "배가\u2026");
}

}  // namespace
}  // namespace attnviz::ui
