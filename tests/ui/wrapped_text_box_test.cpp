// The sentence box wraps long lines at its width instead of scrolling sideways, and what the
// user wrote comes back with the wrapping undone: soft breaks are spaces again, typed newlines
// stay. The box runs in a headless Dear ImGui, typed into as the window types.

#include "app/ui/wrapped_text_box.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <string>

#include "tests/support/headless_imgui.h"

namespace attnviz::ui {
namespace {

// Every character one unit wide, Hangul two (as wide fonts draw them).
float units(char32_t c) { return c >= 0xAC00 && c <= 0xD7A3 ? 2.0f : 1.0f; }

TEST(WrapAtSpaces, BreaksBeforeTheWordThatWouldOverflow) {
  EXPECT_EQ(wrap_at_spaces("the quick brown fox jumps", 10.0f, units), "the quick\nbrown fox\njumps");
  EXPECT_EQ(wrap_at_spaces("short", 10.0f, units), "short");
  EXPECT_EQ(wrap_at_spaces("", 10.0f, units), "");
}

TEST(WrapAtSpaces, MeasuresCharactersNotBytes) {
  // 어제 = 4 units, 밤에 = 4: "어제 밤에" is 9 > 8.
  const std::string wrapped = wrap_at_spaces("어제 밤에 배가 고파서", 8.0f, units);
  EXPECT_EQ(wrapped, "어제\n밤에\n배가\n고파서");
  EXPECT_EQ(wrap_at_spaces("어제 밤에 배가 고파서", 11.0f, units), "어제 밤에\n배가 고파서");
}

TEST(WrapAtSpaces, KeepsTypedNewlinesAndLongWords) {
  EXPECT_EQ(wrap_at_spaces("ab\ncd ef", 4.0f, units), "ab\ncd\nef");
  // A word wider than the line stays whole on its own line.
  EXPECT_EQ(wrap_at_spaces("abcdefghijklmno xyz", 5.0f, units), "abcdefghijklmno\nxyz");
  // A space past the edge ends its line: the caret after it goes to the next line.
  EXPECT_EQ(wrap_at_spaces("abcde fg", 5.0f, units), "abcde\nfg");
}

TEST(WrapAtSpaces, OnlyTradesSpacesForNewlines) {
  const std::string text =
      "Attention is all you need, 어제 밤에 배가 고파서 치킨을 시켜서 먹었다.\nA second line here.";
  for (const float width : {1.0f, 3.0f, 7.0f, 12.0f, 40.0f, 1000.0f}) {
    const std::string wrapped = wrap_at_spaces(text, width, units);
    ASSERT_EQ(wrapped.size(), text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (wrapped[i] != text[i]) {
        EXPECT_TRUE(text[i] == ' ' && wrapped[i] == '\n') << "byte " << i << " at width " << width;
      }
    }
  }
}

TEST(UnwrapAfterEdit, SoftBreaksOutsideTheEditAreSpacesAgain) {
  // Shown "the quick\nbrown" for "the quick brown"; the user types "!" at the end.
  EXPECT_EQ(unwrap_after_edit("the quick\nbrown!", "the quick\nbrown", "the quick brown"), "the quick brown!");
  // ... or deletes the c of "quick": the break after the edit is soft still.
  EXPECT_EQ(unwrap_after_edit("the quik\nbrown", "the quick\nbrown", "the quick brown"), "the quik brown");
  // Backspace at the start of a wrapped line deletes the space the line was wrapped at.
  EXPECT_EQ(unwrap_after_edit("the quickbrown", "the quick\nbrown", "the quick brown"), "the quickbrown");
}

TEST(UnwrapAfterEdit, TypedNewlinesStay) {
  EXPECT_EQ(unwrap_after_edit("ab\ncd\nef", "ab\ncdef", "ab cdef"), "ab cd\nef");
  EXPECT_EQ(unwrap_after_edit("x\n", "x", "x"), "x\n");
}

// A 220-pixel-wide box in a window, activated by a click and typed into.
class TypingIntoTheBox : public ::testing::Test {
 protected:
  TypingIntoTheBox() {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyMap[ImGuiKey_Backspace] = 1;
    io.KeyMap[ImGuiKey_Escape] = 2;
  }

  // One frame: the mouse pressed at the box's centre if `click`, then `typed` and `key` (an
  // io.KeysDown index) arrive. True when the box said the text changed.
  bool frame(const char* typed = "", bool click = false, int key = -1) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = click ? ImVec2(110.0f, 40.0f) : ImVec2(-1.0f, -1.0f);
    io.MouseDown[0] = click;
    for (bool& down : io.KeysDown) down = false;
    if (key >= 0) io.KeysDown[key] = true;
    io.AddInputCharactersUTF8(typed);
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
    ImGui::SetNextWindowSize(ImVec2(240.0f, 200.0f));
    ImGui::Begin("inputs", nullptr, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoDecoration);
    const bool changed = box_.draw("##sentence", ImVec2(220.0f, 80.0f));
    ImGui::End();
    ImGui::Render();
    return changed;
  }

  void click_into_the_box() {
    frame("", true);
    frame();
  }

  [[nodiscard]] static float scroll_x() { return GImGui->InputTextState.ScrollX; }
  [[nodiscard]] static std::string box_buffer() { return GImGui->InputTextState.TextA.Data; }

  testing::HeadlessImGui imgui_;
  WrappedTextBox box_;
};

TEST_F(TypingIntoTheBox, ALongSentenceWrapsInsteadOfScrollingSideways) {
  frame();
  click_into_the_box();
  const std::string sentence = "the animal did not cross the street because it was too tired";
  for (const char c : sentence) {
    const char one[2] = {c, '\0'};
    EXPECT_TRUE(frame(one));
    EXPECT_EQ(scroll_x(), 0.0f) << "after typing up to '" << c << "'";
  }
  EXPECT_EQ(box_.text(), sentence);
  const std::string shown = box_buffer();
  EXPECT_GE(std::count(shown.begin(), shown.end(), '\n'), 2) << shown;
  std::string unwrapped = shown;
  std::replace(unwrapped.begin(), unwrapped.end(), '\n', ' ');
  EXPECT_EQ(unwrapped, sentence);
}

TEST_F(TypingIntoTheBox, BackspaceAndHangulComeBackAsTyped) {
  box_.set_text("어제 밤에 배가 고파서 치킨을 시켜서 먹었다 그리고 오늘 아침에도");
  frame();
  click_into_the_box();  // the caret goes to the end of the clicked line or the text
  GImGui->InputTextState.Stb.cursor = GImGui->InputTextState.CurLenW;
  frame(" 정말");
  EXPECT_EQ(box_.text(), "어제 밤에 배가 고파서 치킨을 시켜서 먹었다 그리고 오늘 아침에도 정말");
  frame("", false, 1);
  EXPECT_EQ(box_.text(), "어제 밤에 배가 고파서 치킨을 시켜서 먹었다 그리고 오늘 아침에도 정");
  const std::string shown = box_buffer();
  EXPECT_NE(shown.find('\n'), std::string::npos) << shown;
}

TEST_F(TypingIntoTheBox, TheDocumentsTextIsShownWrappedUntilTheUserTypes) {
  box_.set_text("attention is all you need and then some more words to wrap");
  EXPECT_FALSE(frame());
  EXPECT_EQ(box_.text(), "attention is all you need and then some more words to wrap");
  EXPECT_NE(box_.shown().find('\n'), std::string::npos) << box_.shown();
  // A new text from the document (an undo) replaces it.
  box_.set_text("short");
  EXPECT_FALSE(frame());
  EXPECT_EQ(box_.text(), "short");
  EXPECT_EQ(box_.shown(), "short");
}

TEST_F(TypingIntoTheBox, ALargerTextSizeWrapsAgain) {
  box_.set_text("attention is all you need and then some more words to wrap");
  frame();
  const auto lines = [&] { return std::count(box_.shown().begin(), box_.shown().end(), '\n'); };
  const auto before = lines();
  ImGui::GetIO().FontGlobalScale = 2.0f;  // what presentation mode does
  frame();
  EXPECT_GT(lines(), before) << box_.shown();
  EXPECT_EQ(box_.text(), "attention is all you need and then some more words to wrap");
  ImGui::GetIO().FontGlobalScale = 1.0f;
}

}  // namespace
}  // namespace attnviz::ui
