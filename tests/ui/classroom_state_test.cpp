// The main area's views by name (--view), title (their tabs) and number key order.

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "app/ui/classroom_state.h"

namespace attnviz::ui {
namespace {

TEST(ClassroomState, EveryViewHasANameATitleAndANumber) {
  std::set<std::string> names;
  std::set<std::string> titles;
  int number = 0;
  for (const MainView view : kMainViews) {
    EXPECT_EQ(static_cast<int>(view), number++) << "kMainViews is in the order of the number keys";
    EXPECT_EQ(main_view_from_string(to_string(view)), view);
    names.insert(to_string(view));
    titles.insert(tab_title(view));
  }
  EXPECT_EQ(names.size(), std::size(kMainViews));
  EXPECT_EQ(titles.size(), std::size(kMainViews));
  EXPECT_EQ(main_view_from_string("tiled"), MainView::Tiled);
  EXPECT_EQ(main_view_from_string("decode"), MainView::Decode);
  EXPECT_STREQ(tab_title(MainView::Tiled), "Tiled");
  EXPECT_FALSE(main_view_from_string("flash").has_value());
}

}  // namespace
}  // namespace attnviz::ui
