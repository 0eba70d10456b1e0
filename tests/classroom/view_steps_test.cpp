// How the Tiled and Decode views count their steps, play them, and answer the keys
// (app/classroom/view_steps.h, classroom_actions.h), without a window.

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include "app/classroom/classroom_actions.h"
#include "app/classroom/view_steps.h"
#include "app/classroom/view_widgets.h"
#include "app/document/document.h"
#include "core/common/number_text.h"

namespace attnviz::classroom {
namespace {

Problem problem_of(int n, int m) {
  Problem p;
  p.x = Matrix(n, 2);
  p.xs = Matrix(m, 2);
  return p;
}

TEST(ViewSteps, TheTiledAndDecodeViewsStartOnTheirFirstStepWithSizesChosenForTheSentence) {
  const ViewStates views;
  EXPECT_EQ(views.tiled.tile, 0);
  EXPECT_EQ(views.tiled.block_q, 0) << "0: chosen for the sentence";
  EXPECT_EQ(views.decode.step, 0) << "the prefill";
  EXPECT_EQ(views.decode.prompt, 0);
  EXPECT_FALSE(views.tiled.playback.playing);
  EXPECT_GT(views.decode.playback.speed, 0.0f);
}

TEST(ViewSteps, TheTiledViewHasATilePerBlockPairInAnyBlockSize) {
  TiledViewState state;
  const Problem korean = problem_of(8, 8);
  EXPECT_EQ(default_block(8), 2);
  EXPECT_EQ(tiled_step_count(state, korean), 16) << "by default about 4 × 4 tiles";
  state.block_q = 3;  // 8 rows: blocks of 3, 3, 2
  state.block_k = 5;  // 8 keys: blocks of 5, 3
  EXPECT_EQ(tiled_step_count(state, korean), 6);
  state.block_q = 100;
  state.block_k = 1;
  EXPECT_EQ(tiled_step_count(state, korean), 8) << "one block of rows larger than the sentence";
  EXPECT_EQ(tile_grid(state, problem_of(5, 21)).key_blocks(), 21) << "cross-attention: the keys' count";
  EXPECT_EQ(default_block(1), 1);
  EXPECT_EQ(default_block(21), 6);
}

TEST(ViewSteps, TheDecodeViewPrefillsThePromptThenGeneratesOneTokenAStep) {
  DecodeViewState state;
  EXPECT_EQ(decode_prompt(state, 8), 4) << "half the sentence by default";
  state.prompt = 3;
  EXPECT_EQ(decode_prompt(state, 8), 3);
  EXPECT_EQ(decode_step_count(3, 8), 6) << "the prefill and 5 generated tokens";
  EXPECT_EQ(decoded_position(3, 0), 2) << "the prefill shows the prompt's last row";
  EXPECT_EQ(decoded_position(3, 5), 7);
  state.prompt = 20;
  EXPECT_EQ(decode_prompt(state, 8), 8) << "never past the sentence";
  EXPECT_EQ(decode_step_count(8, 8), 1);
  EXPECT_EQ(decode_prompt(DecodeViewState{}, 1), 1);
}

TEST(ViewSteps, PlayingStepsOnceAnIntervalAndStopsAtTheEnd) {
  Playback playback;
  playback.speed = 2.0f;  // a step each 0.5 s
  int step = 0;
  toggle_playback(playback, step, 3, 10.0);
  EXPECT_TRUE(playback.playing);
  EXPECT_FALSE(advance_playback(playback, step, 3, 10.2));
  EXPECT_TRUE(advance_playback(playback, step, 3, 10.5));
  EXPECT_EQ(step, 1);
  EXPECT_FALSE(advance_playback(playback, step, 3, 10.6)) << "one step per interval";
  // The window slept for a minute: one step, not a hundred.
  EXPECT_TRUE(advance_playback(playback, step, 3, 70.0));
  EXPECT_EQ(step, 2);
  EXPECT_FALSE(playback.playing) << "stopped at the last step";
  toggle_playback(playback, step, 3, 71.0);
  EXPECT_EQ(step, 0) << "playing from the end starts again at the first step";
  EXPECT_TRUE(playback.playing);
  toggle_playback(playback, step, 3, 71.1);
  EXPECT_FALSE(playback.playing);
  int only = 0;
  toggle_playback(playback, only, 1, 72.0);
  EXPECT_FALSE(playback.playing) << "nothing to play through";
}

struct Fixture {
  document::Document document{Scenario{}};
  ui::ViewState view;
  ui::ClassroomState state;
  ViewStates views;
  ActionTarget target{document, view, state, views, 1, 8, 16, 5, 0.0};

  void press(int key, bool shift = false) {
    (void)apply_action(action_for_key(key, shift, state.shown, state.presenting, state.help_open), target);
  }
};

TEST(ViewSteps, ArrowKeysStepTheViewOnScreenAndPPlays) {
  Fixture f;
  f.press(GLFW_KEY_5);
  EXPECT_EQ(f.state.select_tab, ui::MainView::Tiled);
  f.press(GLFW_KEY_6);
  EXPECT_EQ(f.state.select_tab, ui::MainView::Decode);

  f.state.shown = ui::MainView::Tiled;
  f.press(GLFW_KEY_RIGHT);
  f.press(GLFW_KEY_PAGE_DOWN);
  EXPECT_EQ(f.views.tiled.tile, 2);
  EXPECT_EQ(f.views.step, 0) << "the step view's page stays";
  f.press(GLFW_KEY_END);
  EXPECT_EQ(f.views.tiled.tile, 15);
  f.press(GLFW_KEY_RIGHT);
  EXPECT_EQ(f.views.tiled.tile, 15) << "stays on the last tile";
  f.press(GLFW_KEY_HOME);
  EXPECT_EQ(f.views.tiled.tile, 0);
  f.press(GLFW_KEY_P);
  EXPECT_TRUE(f.views.tiled.playback.playing);
  f.press(GLFW_KEY_RIGHT);
  EXPECT_FALSE(f.views.tiled.playback.playing) << "stepping by hand takes over from the play button";

  f.state.shown = ui::MainView::Decode;
  f.press(GLFW_KEY_END);
  EXPECT_EQ(f.views.decode.step, 4);
  f.press(GLFW_KEY_LEFT);
  EXPECT_EQ(f.views.decode.step, 3);
  EXPECT_EQ(f.views.tiled.tile, 1) << "the Tiled view's tile stays";

  f.state.shown = ui::MainView::Heatmaps;
  EXPECT_EQ(action_for_key(GLFW_KEY_P, false, ui::MainView::Heatmaps, false, false), Action::None);
  EXPECT_EQ(action_for_key(GLFW_KEY_RIGHT, false, ui::MainView::Compare, false, false), Action::None);
}

TEST(ViewWidgets, LineChartsSpanTheirBoxFromZeroToTheLargestValue) {
  const auto lines = chart_lines({{0.0, 5.0, 10.0}, {10.0, 20.0, 40.0}}, 100.0f, 0.0f, 300.0f, 40.0f);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_FLOAT_EQ(lines[0][0].x, 100.0f);
  EXPECT_FLOAT_EQ(lines[0][2].x, 300.0f);
  EXPECT_FLOAT_EQ(lines[0][0].y, 40.0f) << "0 at the bottom";
  EXPECT_FLOAT_EQ(lines[1][2].y, 0.0f) << "the largest value of any series at the top";
  EXPECT_FLOAT_EQ(lines[0][2].y, 30.0f);
  EXPECT_EQ(chart_lines({{3.0}}, 0.0f, 0.0f, 10.0f, 10.0f)[0][0].x, 0.0f) << "a single point at the start";
}

TEST(ViewWidgets, CountsForAxesAndTables) {
  EXPECT_EQ(short_count(950), "950");
  EXPECT_EQ(short_count(1234), "1.23 K");
  EXPECT_EQ(short_count(56'700'000), "56.7 M");
  EXPECT_EQ(short_count(123'000'000'000.0), "123 G");
  EXPECT_EQ(short_bytes(464), "464 B");
  EXPECT_EQ(short_bytes(1434), "1.4 KiB");
  EXPECT_EQ(short_bytes(67108864), "64.0 MiB");
  EXPECT_EQ(short_bytes(68719476736ull), "64.0 GiB");
  EXPECT_EQ(format_grouped(0), "0");
  EXPECT_EQ(format_grouped(1234567), "1,234,567");
  EXPECT_EQ(format_grouped(131072), "131,072");
}

}  // namespace
}  // namespace attnviz::classroom
