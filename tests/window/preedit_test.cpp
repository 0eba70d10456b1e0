// The pre-edit as the input method draws it (app/window/preedit.h): XIM's Draw replaces a span.
#include "app/window/preedit.h"

#include <gtest/gtest.h>

namespace attnviz::window {
namespace {

TEST(Preedit, HangulSyllableFormsThenIsCommitted) {
  Preedit preedit;
  preedit.start();
  preedit.draw(0, 0, U"ㅇ", 1);
  EXPECT_EQ(preedit.utf8(), "ㅇ");
  preedit.draw(0, 1, U"아", 1);
  preedit.draw(0, 1, U"안", 1);
  EXPECT_EQ(preedit.utf8(), "안");
  EXPECT_EQ(preedit.caret(), 1u);
  preedit.draw(0, 1, U"", 0);  // ibus: a null text erases before the commit
  EXPECT_TRUE(preedit.empty());
  preedit.done();
  EXPECT_TRUE(preedit.empty());
}

TEST(Preedit, ReplacesTheMiddleOfALongerComposition) {
  Preedit preedit;
  preedit.draw(0, 0, U"にほんご", 4);
  preedit.draw(1, 2, U"ホン", 3);
  EXPECT_EQ(preedit.utf8(), "にホンご");
  EXPECT_EQ(preedit.caret(), 3u);
  preedit.move_caret(1);
  EXPECT_EQ(preedit.caret(), 1u);
}

TEST(Preedit, ConfusedSpansAndCaretsAreClampedNotFatal) {
  Preedit preedit;
  preedit.draw(5, 9, U"가", 7);  // beyond the end: appended, caret at the end
  EXPECT_EQ(preedit.utf8(), "가");
  EXPECT_EQ(preedit.caret(), 1u);
  preedit.draw(-3, -1, U"나", -2);
  EXPECT_EQ(preedit.utf8(), "나가");
  EXPECT_EQ(preedit.caret(), 0u);
}

TEST(Preedit, Utf8BothWays) {
  EXPECT_EQ(to_utf8(U"안녕 é$"), "안녕 é$");
  EXPECT_EQ(from_utf8("안녕 é$"), U"안녕 é$");
  EXPECT_EQ(from_utf8("a\xFF"
                      "b"),
            U"a\uFFFDb");
  EXPECT_EQ(to_utf8(std::u32string(1, char32_t{0xD800})), "\xEF\xBF\xBD");
}

}  // namespace
}  // namespace attnviz::window
