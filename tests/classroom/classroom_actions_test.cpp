// The classroom's keys and what they change, without a window: every action in the Help
// window has a key, and the key does what the Help window says.

#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <set>
#include <string>

#include "app/classroom/classroom_actions.h"
#include "app/classroom/classroom_edits.h"
#include "app/classroom/presentation.h"
#include "app/classroom/shortcuts.h"
#include "app/document/document.h"
#include "core/lesson/steps.h"

namespace attnviz::classroom {
namespace {

struct Fixture {
  document::Document document{Scenario{}};
  ui::ViewState view;
  ui::ClassroomState state;
  ViewStates views;
  ActionTarget target{document, view, state, views, 4, 8};

  void press(int key, bool shift = false) {
    (void)apply_action(action_for_key(key, shift, state.shown, state.presenting, state.help_open), target);
  }
};

TEST(ClassroomKeys, ArrowsAndPageKeysStepOnlyInTheStepView) {
  Fixture f;
  f.press(GLFW_KEY_RIGHT);
  EXPECT_EQ(f.views.step, 0) << "the heatmaps are on screen: no stepping";
  f.state.shown = ui::MainView::Step;
  f.press(GLFW_KEY_RIGHT);
  f.press(GLFW_KEY_PAGE_DOWN);  // a presenter remote
  EXPECT_EQ(f.views.step, 2);
  f.press(GLFW_KEY_LEFT);
  EXPECT_EQ(f.views.step, 1);
  f.press(GLFW_KEY_END);
  EXPECT_EQ(f.views.step, lesson::kStepCount - 1);
  f.press(GLFW_KEY_RIGHT);
  EXPECT_EQ(f.views.step, lesson::kStepCount - 1) << "stays on the last page";
  f.press(GLFW_KEY_HOME);
  f.press(GLFW_KEY_PAGE_UP);
  EXPECT_EQ(f.views.step, 0);
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
  EXPECT_EQ(f.state.select_tab, ui::MainView::Compare);
  f.press(GLFW_KEY_4);
  EXPECT_EQ(f.state.select_tab, ui::MainView::Cross);
  EXPECT_EQ(action_for_key(GLFW_KEY_F11, false, ui::MainView::Step, false, false), Action::TogglePresentation);
  EXPECT_EQ(action_for_key(GLFW_KEY_ESCAPE, false, ui::MainView::Step, false, false), Action::None);
  EXPECT_EQ(action_for_key(GLFW_KEY_ESCAPE, false, ui::MainView::Step, true, false), Action::LeavePresentation);
  f.press(GLFW_KEY_F1);
  EXPECT_TRUE(f.state.help_open);
}

// Esc closes what opened last: the Help window over presentation mode closes, and the next Esc
// leaves presentation mode (it left presentation mode with the Help window still open).
TEST(ClassroomKeys, EscClosesTheHelpWindowBeforeLeavingPresentation) {
  EXPECT_EQ(action_for_key(GLFW_KEY_ESCAPE, false, ui::MainView::Step, true, true), Action::CloseHelp);
  EXPECT_EQ(action_for_key(GLFW_KEY_ESCAPE, false, ui::MainView::Step, false, true), Action::CloseHelp);
  Fixture f;
  f.state.presenting = true;
  f.press(GLFW_KEY_F1);
  ASSERT_TRUE(f.state.help_open);
  f.press(GLFW_KEY_ESCAPE);
  EXPECT_FALSE(f.state.help_open);
  EXPECT_EQ(action_for_key(GLFW_KEY_ESCAPE, false, f.state.shown, f.state.presenting, f.state.help_open),
            Action::LeavePresentation);
}

// 7 is the seventh tab, the desktop's Model view, while a model is open; without one it says
// how to open one rather than doing nothing.
TEST(ClassroomKeys, SevenShowsTheModelViewOfAnOpenModel) {
  Fixture f;
  const std::string notice = apply_action(action_for_key(GLFW_KEY_7, false, f.state.shown, false, false), f.target);
  EXPECT_TRUE(f.view.select_main_tab.empty());
  EXPECT_NE(notice.find("Open model"), std::string::npos) << notice;
  f.target.model_open = true;
  f.press(GLFW_KEY_7);
  EXPECT_EQ(f.view.select_main_tab, ui::kModelViewTitle);
  f.state.presenting = true;
  f.view.select_main_tab.clear();
  f.press(GLFW_KEY_7);
  EXPECT_EQ(f.view.select_main_tab, ui::kModelViewTitle) << "presenting hides the tab bar: the key is the way there";
}

// The keys the menu listens to produce every action there is, and the Help window (F1)
// names every one of them, and the window's own keys too.
TEST(ClassroomKeys, EveryActionHasAKeyAndAHelpLine) {
  std::set<Action> reachable;
  for (int key : classroom_keys())
    for (bool shift : {false, true})
      for (ui::MainView shown : ui::kMainViews)
        for (bool presenting : {false, true})
          for (bool help_open : {false, true})
            reachable.insert(action_for_key(key, shift, shown, presenting, help_open));
  reachable.erase(Action::None);
  EXPECT_EQ(reachable.size(), static_cast<std::size_t>(Action::CloseHelp));  // every enumerator after None

  const auto listed = [](const std::string& name, bool window) {
    for (const Shortcut& s : classroom_shortcuts()) {
      if (s.window != window) continue;
      const std::string keys = s.keys;
      // A whole key name: "S" in "S", "H / Shift+H", but not the S of "Shift".
      for (std::size_t at = keys.find(name); at != std::string::npos; at = keys.find(name, at + 1)) {
        const bool starts = at == 0 || keys[at - 1] == ' ' || keys[at - 1] == '+' || keys[at - 1] == ',';
        const std::size_t end = at + name.size();
        const bool ends = end == keys.size() || keys[end] == ' ' || keys[end] == ',';
        if (starts && ends) return true;
      }
    }
    return false;
  };
  for (int key : classroom_keys())
    EXPECT_TRUE(listed(key_name(key), false)) << key_name(key) << " is missing from the Help window";
  for (const char* window_key :
       {"F8", "F9", "F10", "Ctrl+=", "Ctrl+-", "Ctrl+0", "Ctrl+Z", "Ctrl+Y", "Ctrl+E", "Ctrl+Shift+E", "Ctrl+F"})
    EXPECT_TRUE(listed(window_key, true)) << window_key << " is missing from the Help window";
}

// With nothing pinned the step view follows the first token: Down goes on to the second
// (pinning the first would look like nothing happened); other views follow no token until
// one is pinned, so Down starts at the first.
TEST(ClassroomKeys, DownFromTheImplicitlyFollowedToken) {
  Fixture step;
  step.state.shown = ui::MainView::Step;
  EXPECT_EQ(followed_query(step.view.pinned_query, ui::MainView::Step, 8), 0);
  step.press(GLFW_KEY_DOWN);
  EXPECT_EQ(step.view.pinned_query, 1);
  step.press(GLFW_KEY_DOWN);
  EXPECT_EQ(step.view.pinned_query, 2) << "배 in two presses";

  Fixture heatmaps;
  EXPECT_FALSE(followed_query(heatmaps.view.pinned_query, ui::MainView::Heatmaps, 8).has_value());
  heatmaps.press(GLFW_KEY_DOWN);
  EXPECT_EQ(heatmaps.view.pinned_query, 0);
  EXPECT_EQ(followed_query(std::optional<int>(12), ui::MainView::Step, 8), 7) << "a pin beyond a shorter sentence";
}

TEST(ClassroomKeys, CompareKeysActInTheCompareView) {
  Fixture f;
  f.press(GLFW_KEY_A);
  EXPECT_EQ(f.views.compare.axis, lesson::CompareAxis::Masks) << "not on screen: nothing changes";
  f.state.shown = ui::MainView::Compare;
  f.press(GLFW_KEY_A);
  EXPECT_EQ(f.views.compare.axis, lesson::CompareAxis::Heads);
  f.press(GLFW_KEY_A, true);
  f.press(GLFW_KEY_A, true);
  EXPECT_EQ(f.views.compare.axis, lesson::CompareAxis::Patterns) << "Shift+A goes back and wraps";
  f.press(GLFW_KEY_N);
  EXPECT_EQ(f.views.compare.count, 2);
  f.press(GLFW_KEY_N);
  EXPECT_EQ(f.views.compare.count, 4);
  f.press(GLFW_KEY_R);
  EXPECT_EQ(f.views.compare.window, 3);
  for (int i = 0; i < 5; ++i) f.press(GLFW_KEY_R, true);
  EXPECT_EQ(f.views.compare.window, 0) << "r stops at 0";
  f.press(GLFW_KEY_W);
  EXPECT_TRUE(f.views.compare_scores);
  f.press(GLFW_KEY_W);
  EXPECT_FALSE(f.views.compare_scores);
  EXPECT_EQ(f.document.scenario(), Scenario{}) << "compare settings are the view's, not the scenario's";
}

TEST(ClassroomKeys, TemperatureAndCrossAttentionAreUndoableEdits) {
  Fixture f;  // d_k = 4 by default: 1/√d_k is T = 2
  f.press(GLFW_KEY_T);
  EXPECT_EQ(f.document.scenario().scale.kind, ScaleSetting::Kind::Value);
  EXPECT_NEAR(temperature_of(f.document.scenario()), 4.0, 1e-5);
  f.press(GLFW_KEY_T, true);
  f.press(GLFW_KEY_T, true);
  EXPECT_NEAR(temperature_of(f.document.scenario()), 1.0, 1e-5);
  for (int i = 0; i < 12; ++i) f.press(GLFW_KEY_T, true);
  EXPECT_NEAR(temperature_of(f.document.scenario()), kMinTemperature, 1e-6) << "the Model panel's slider range";
  f.press(GLFW_KEY_X);
  EXPECT_TRUE(f.document.scenario().source.has_value());
  ASSERT_TRUE(f.document.undo());
  EXPECT_FALSE(f.document.scenario().source.has_value());
  ASSERT_TRUE(f.document.undo());
  EXPECT_NEAR(temperature_of(f.document.scenario()), 0.0625, 1e-5) << "each press is one undo step";
}

// Presentation mode hides the menus and tabs; a small overlay in the top-right corner keeps
// the way around for the mouse: for a few seconds after entering, then only when the mouse goes
// to that corner (never in screenshots, whose pictures show what the audience sees).
TEST(PresentationOverlay, ShowsAfterEnteringAndWhenTheMouseIsInItsCorner) {
  EXPECT_TRUE(overlay_shown(0.0, true, false));
  EXPECT_TRUE(overlay_shown(kOverlaySeconds - 0.1, true, false));
  EXPECT_FALSE(overlay_shown(kOverlaySeconds + 0.1, true, false));
  EXPECT_TRUE(overlay_shown(60.0, true, true));
  EXPECT_FALSE(overlay_shown(0.0, false, false)) << "no hints: screenshots and measuring runs";
}

}  // namespace
}  // namespace attnviz::classroom
