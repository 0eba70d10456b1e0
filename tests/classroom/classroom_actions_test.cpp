// The classroom's keys and what they change, without a window: every action in the Help
// window has a key, and the key does what the Help window says.

#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <set>

#include "app/classroom/classroom_actions.h"
#include "app/classroom/shortcuts.h"
#include "app/state/document.h"
#include "core/lesson/steps.h"

namespace attnviz::classroom {
namespace {

struct Fixture {
  app::Document document{Scenario{}};
  ui::ViewState view;
  ClassroomState state;
  ActionTarget target{document, view, state, 4, 8};

  void press(int key, bool shift = false) {
    (void)apply_action(action_for_key(key, shift, state.shown, state.presenting), target);
  }
};

TEST(ClassroomKeys, ArrowsAndPageKeysStepOnlyInTheStepView) {
  Fixture f;
  f.press(GLFW_KEY_RIGHT);
  EXPECT_EQ(f.state.step, 0) << "the heatmaps are on screen: no stepping";
  f.state.shown = MainView::Step;
  f.press(GLFW_KEY_RIGHT);
  f.press(GLFW_KEY_PAGE_DOWN);  // a presenter remote
  EXPECT_EQ(f.state.step, 2);
  f.press(GLFW_KEY_LEFT);
  EXPECT_EQ(f.state.step, 1);
  f.press(GLFW_KEY_END);
  EXPECT_EQ(f.state.step, lesson::kStepCount - 1);
  f.press(GLFW_KEY_RIGHT);
  EXPECT_EQ(f.state.step, lesson::kStepCount - 1) << "stays on the last page";
  f.press(GLFW_KEY_HOME);
  f.press(GLFW_KEY_PAGE_UP);
  EXPECT_EQ(f.state.step, 0);
}

TEST(ClassroomKeys, FollowTokensAndCycleHeads) {
  Fixture f;
  f.press(GLFW_KEY_DOWN);
  EXPECT_EQ(f.view.pinned_query, 0);
  f.press(GLFW_KEY_DOWN);
  f.press(GLFW_KEY_DOWN);
  EXPECT_EQ(f.view.pinned_query, 2);  // 배 in the Korean sentence
  f.view.pinned_query = 7;
  f.press(GLFW_KEY_DOWN);
  EXPECT_EQ(f.view.pinned_query, 7) << "stays on the last token";
  f.press(GLFW_KEY_UP);
  EXPECT_EQ(f.view.pinned_query, 6);
  f.press(GLFW_KEY_H);
  EXPECT_EQ(f.view.selected_head, 1);
  f.press(GLFW_KEY_H, true);
  f.press(GLFW_KEY_H, true);
  EXPECT_EQ(f.view.selected_head, 3) << "Shift+H goes back and wraps";

  Fixture nothing_computed;
  nothing_computed.target.heads = 0;
  nothing_computed.target.queries = 0;
  nothing_computed.press(GLFW_KEY_H);
  nothing_computed.press(GLFW_KEY_DOWN);
  EXPECT_EQ(nothing_computed.view.selected_head, 0);
  EXPECT_FALSE(nothing_computed.view.pinned_query.has_value());
}

TEST(ClassroomKeys, MaskAndScalingKeysAreUndoableEdits) {
  Fixture f;
  f.press(GLFW_KEY_C);
  EXPECT_TRUE(f.document.scenario().mask.causal);
  EXPECT_EQ(f.document.undo_label(), "Causal mask on");
  f.press(GLFW_KEY_M);  // causal → sliding window
  EXPECT_EQ(f.document.scenario().mask.window, 2);
  f.press(GLFW_KEY_S);
  EXPECT_EQ(f.document.scenario().scale.kind, ScaleSetting::Kind::None);
  ASSERT_TRUE(f.document.undo());
  ASSERT_TRUE(f.document.undo());
  ASSERT_TRUE(f.document.undo());
  EXPECT_EQ(f.document.scenario(), Scenario{});
}

TEST(ClassroomKeys, ViewsPresentationAndHelp) {
  Fixture f;
  f.press(GLFW_KEY_3);
  EXPECT_EQ(f.state.select_tab, MainView::Compare);
  f.press(GLFW_KEY_4);
  EXPECT_EQ(f.state.select_tab, MainView::Cross);
  EXPECT_EQ(action_for_key(GLFW_KEY_F11, false, MainView::Step, false), Action::TogglePresentation);
  EXPECT_EQ(action_for_key(GLFW_KEY_ESCAPE, false, MainView::Step, false), Action::None);
  EXPECT_EQ(action_for_key(GLFW_KEY_ESCAPE, false, MainView::Step, true), Action::LeavePresentation);
  f.press(GLFW_KEY_F1);
  EXPECT_TRUE(f.state.help_open);
}

// The keys the menu listens to produce every action there is, and the Help table has a line
// for each group of them.
TEST(ClassroomKeys, EveryActionHasAKeyAndAHelpLine) {
  std::set<Action> reachable;
  for (int key : classroom_keys())
    for (bool shift : {false, true})
      for (MainView shown : {MainView::Heatmaps, MainView::Step})
        for (bool presenting : {false, true}) reachable.insert(action_for_key(key, shift, shown, presenting));
  reachable.erase(Action::None);
  EXPECT_EQ(reachable.size(), static_cast<std::size_t>(Action::ToggleHelp));  // every enumerator after None
  EXPECT_GE(classroom_shortcuts().size(), 12u);
}

}  // namespace
}  // namespace attnviz::classroom
