// What the window shows of a text a user made long: a part, marked as cut.
#include <gtest/gtest.h>

#include <imgui_internal.h>

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
  // Appended rather than `std::string(n, 'x') + "…"`: GCC 12 at -O3 with AVX-512 reports a false
  // -Warray-bounds inside that operator+ (a developer's native -Werror build stopped on it).
  std::string expected(kShownCharacters, 'x');
  expected += "\u2026";
  EXPECT_EQ(by_chars.text, expected);
  std::string many_lines;
  for (int i = 0; i < 100; ++i) many_lines += "line\n";
  const ShownText by_lines = shown_text(many_lines);
  EXPECT_TRUE(by_lines.cut);
  EXPECT_EQ(by_lines.text.substr(by_lines.text.size() - 7), "line\u2026");
  const ShownText korean = shown_text("배가 고파서", 2, 1);
  EXPECT_EQ(korean.text, "배가\u2026");
}

TEST(LongText, ALineBreakPastWhatIsShownDoesNotMatter) {
  // Only the part the characters can reach is looked at (a text of megabytes, drawn each frame).
  const std::string word(3'000'000, 'a');
  const ShownText shown = shown_text(word + "\nb", 10, 2);
  EXPECT_TRUE(shown.cut);
  EXPECT_EQ(shown.text, std::string(10, 'a') + "\u2026");
  // Four-byte characters: the reach is in bytes enough for all of them.
  std::string emoji;
  for (int i = 0; i < 5; ++i) emoji += "\U0001F600";
  EXPECT_EQ(shown_text(emoji + "\nx", 5, 1).text, emoji + "\u2026");
  EXPECT_EQ(shown_text(emoji + "\nx", 5, 2).text, emoji + "\u2026");
  EXPECT_EQ(shown_text(emoji, 5, 1).text, emoji);
  EXPECT_FALSE(shown_text(emoji, 5, 1).cut);
}

// Dear ImGui takes "##" in a label as the start of its ID and hides the rest: a BERT piece
// ("##at"), GPT-2's Markdown "##" or a typed "C##" must show whole in a chip or a list.
TEST(LongText, ATokensDoubleHashIsShownNotTakenForAnId) {
  const std::string joiner = "\xE2\x81\xA0";
  EXPECT_EQ(token_label("##at"), "#" + joiner + "#at");
  EXPECT_EQ(token_label("###"), "#" + joiner + "#" + joiner + "#" + joiner);
  EXPECT_EQ(token_label("a#b"), "a#b");
  // A token ending in '#' before the widget's "##id" ("#" as GPT-2's next token read blank).
  EXPECT_EQ(token_label("#"), "#" + joiner);
  for (const char* token : {"#", "C#", "##"}) {
    const std::string chip = token_label(token) + "##next-token-1";
    EXPECT_EQ(chip.find("##"), chip.size() - std::string("##next-token-1").size()) << token;
  }
  const std::string label = token_label("##at") + "##chip-3";
  EXPECT_EQ(label.find("##"), label.size() - std::string("##chip-3").size()) << "the first ## is the ID's";
  const std::string shown = token_label("##at");
  EXPECT_EQ(ImGui::FindRenderedTextEnd(shown.c_str()), shown.c_str() + shown.size()) << "ImGui shows all of it";
}

}  // namespace
}  // namespace attnviz::ui
