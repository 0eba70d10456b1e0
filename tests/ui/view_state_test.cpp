// What one frame hovered becomes the next frame's highlight, the scenario's tokens and a
// pretrained model's apart (their texts differ: index 16 is another word in each).
#include "app/ui/view_state.h"

#include <gtest/gtest.h>

namespace attnviz::ui {
namespace {

TEST(ViewState, AHoveredTokenIsTheNextFramesHighlightAndThenLetGo) {
  ViewState view;
  view.hovered_token_next = 3;
  begin_frame(view);
  EXPECT_EQ(view.hovered_token, 3);
  EXPECT_EQ(view.hovered_token_next, -1);
  begin_frame(view);
  EXPECT_EQ(view.hovered_token, -1) << "nothing hovered in the last frame: nothing highlighted";
}

TEST(ViewState, TheModelsHoveredTokenIsNotTheScenarios) {
  ViewState view;
  view.hovered_model_token_next = 16;
  begin_frame(view);
  EXPECT_EQ(view.hovered_model_token, 16);
  EXPECT_EQ(view.hovered_token, -1) << "the scenario's chip 16 stays unlit";
  view.hovered_token_next = 2;
  begin_frame(view);
  EXPECT_EQ(view.hovered_token, 2);
  EXPECT_EQ(view.hovered_model_token, -1);
}

TEST(ViewState, AClickPinsARowAndASecondClickOnItLetsItGo) {
  ViewState view;
  toggle_pinned(view.pinned_query, 4);
  EXPECT_EQ(view.pinned_query, 4);
  toggle_pinned(view.pinned_query, 7);
  EXPECT_EQ(view.pinned_query, 7) << "another row moves the pin";
  toggle_pinned(view.pinned_query, 7);
  EXPECT_FALSE(view.pinned_query.has_value());
}

TEST(ViewState, TheModelsPinnedRowIsNotTheScenarios) {
  ViewState view;
  toggle_pinned(view.pinned_model_query, 16);
  EXPECT_EQ(view.pinned_model_query, 16);
  EXPECT_FALSE(view.pinned_query.has_value()) << "the scenario's query 16 stays unpinned";
}

}  // namespace
}  // namespace attnviz::ui
