// The window's one undo timeline: Ctrl+Z undoes the scenario's and a model's edits in the order
// the user made them, redo follows the order they were undone in, and a new edit ends what
// could be redone in both histories.

#include "app/ui/undo_timeline.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/compute/model_session_support.h"

namespace attnviz::ui {
namespace {

using compute::model_session_support::gpt2;
using compute::model_session_support::kText;

class UndoTimelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    model.open(gpt2(), kText);
    model.wait();
    ASSERT_TRUE(model.has_model()) << model.error();
    timeline.observe(document, model);
  }
  void edit_scenario(const std::string& sentence) {
    Scenario next = document.scenario();
    next.sentence = sentence;
    document.apply(next, "Sentence " + sentence);
    timeline.observe(document, model);
  }
  void switch_off(int head) {
    model.set_head_factor(0, head, 0.0f);
    model.wait();
    timeline.observe(document, model);
  }
  std::string undo(std::optional<History> only = std::nullopt) {
    const auto done = timeline.undo(document, model, only);
    model.wait();
    return done ? done->label : "(none)";
  }
  std::string redo() {
    const auto done = timeline.redo(document, model);
    model.wait();
    return done ? done->label : "(none)";
  }

  document::Document document;
  compute::ModelSession model;
  UndoTimeline timeline;
};

TEST_F(UndoTimelineTest, UndoFollowsTheOrderTheUserActedIn) {
  edit_scenario("a b");
  switch_off(0);
  edit_scenario("a b c");
  EXPECT_EQ(timeline.next_undo(document, model), History::Scenario);
  EXPECT_EQ(undo(), "Sentence a b c");
  EXPECT_EQ(timeline.next_undo(document, model), History::Model);
  EXPECT_EQ(undo(), "Layer 0 head 0 off");
  EXPECT_FALSE(model.head_factor(0, 0).has_value());
  EXPECT_EQ(undo(), "Sentence a b");
  EXPECT_EQ(undo(), "(none)");
  EXPECT_EQ(document.scenario().sentence, Scenario{}.sentence);

  // Redo in the order undone: the first edit first.
  EXPECT_EQ(timeline.next_redo(document, model), History::Scenario);
  EXPECT_EQ(redo(), "Sentence a b");
  EXPECT_EQ(redo(), "Layer 0 head 0 off");
  EXPECT_EQ(model.head_factor(0, 0), 0.0f);
  EXPECT_EQ(redo(), "Sentence a b c");
  EXPECT_EQ(redo(), "(none)");
  EXPECT_EQ(document.scenario().sentence, "a b c");
}

TEST_F(UndoTimelineTest, ANewEditEndsWhatCouldBeRedoneInBothHistories) {
  switch_off(0);
  edit_scenario("a b");
  EXPECT_EQ(undo(), "Sentence a b");
  EXPECT_EQ(undo(), "Layer 0 head 0 off");
  EXPECT_TRUE(model.can_redo());
  edit_scenario("x y");  // a new action: the model's undone switch cannot come back
  EXPECT_FALSE(model.can_redo());
  EXPECT_FALSE(document.can_redo());
  EXPECT_EQ(redo(), "(none)");
  EXPECT_EQ(undo(), "Sentence x y");
}

TEST_F(UndoTimelineTest, TheModelViewsOwnUndoTakesTheModelsLastStep) {
  switch_off(0);
  edit_scenario("a b");
  EXPECT_EQ(undo(History::Model), "Layer 0 head 0 off");
  EXPECT_EQ(document.scenario().sentence, "a b") << "the scenario's later edit stays";
  EXPECT_EQ(undo(), "Sentence a b");
  EXPECT_EQ(undo(), "(none)");
}

TEST_F(UndoTimelineTest, StepsAHistoryNoLongerHoldsArePassedOver) {
  switch_off(0);
  edit_scenario("a b");
  model.open(gpt2(), kText);  // a model opened again: its switches and their undo start empty
  model.wait();
  timeline.observe(document, model);
  EXPECT_EQ(undo(), "Sentence a b");
  EXPECT_EQ(timeline.next_undo(document, model), std::nullopt);
  EXPECT_EQ(undo(), "(none)");
}

}  // namespace
}  // namespace attnviz::ui
