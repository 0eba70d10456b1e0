// The window's model session: opening off the window's thread, failures that keep the work
// shown, cancelling, head switches recomputing the later layers and the next tokens, undo.
// The numbers themselves are the core's (tests/model, tests/reference/check_models.py); here
// the session must show exactly what a ForwardPass of the same edits gives.

#include "app/compute/model_session.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/compute/model_session_support.h"

namespace attnviz::compute {
namespace {

using namespace model_session_support;

TEST(ModelSession, OpensOffTheWindowThreadAndShowsEveryLayer) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  ASSERT_TRUE(session.has_model()) << session.error();
  EXPECT_FALSE(session.busy());
  EXPECT_EQ(session.error(), "");
  EXPECT_FALSE(session.take_failure().has_value());
  const model::ForwardResult* result = session.result();
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(static_cast<int>(result->layers.size()), session.model()->config().num_layers);
  EXPECT_EQ(result->next_tokens.size(), 10u);
  EXPECT_EQ(session.text(), kText);
  EXPECT_EQ(session.rollout().rows, static_cast<int>(result->ids.size()));
  EXPECT_EQ(session.generation(), 1u);
  expect_same(*result, direct(gpt2(), {}));
}

TEST(ModelSession, AFailureIsReportedOnceAndKeepsTheModelShown) {
  ModelSession session;
  session.open("/nonexistent/attnviz-model", kText);
  session.wait();
  EXPECT_FALSE(session.has_model());
  const std::optional<std::string> failure = session.take_failure();
  ASSERT_TRUE(failure.has_value());
  EXPECT_NE(failure->find("/nonexistent/attnviz-model"), std::string::npos) << *failure;
  EXPECT_FALSE(session.take_failure().has_value()) << "reported once";

  session.open(gpt2(), kText);
  session.wait();
  ASSERT_TRUE(session.has_model());
  session.set_head_factor(0, 0, 0.0f);
  session.wait();
  const model::Model* shown = session.model();
  session.open("/nonexistent/attnviz-model", kText);
  session.wait();
  EXPECT_EQ(session.model(), shown) << "the model shown before stays";
  EXPECT_NE(session.error(), "");
  ASSERT_NE(session.result(), nullptr);
  EXPECT_EQ(session.head_factor(0, 0), 0.0f) << "with its head switched off";
  EXPECT_TRUE(session.can_undo());

  // Another model opened: its heads as they are, nothing to undo.
  session.open(gpt2(), kText);
  session.wait();
  EXPECT_NE(session.model(), shown);
  EXPECT_FALSE(session.head_factor(0, 0).has_value());
  EXPECT_TRUE(session.shown_edits().empty());
  EXPECT_FALSE(session.can_undo());

  // A text the model refuses (longer than its 32 positions) keeps the result of the last one.
  std::string long_text;
  for (int i = 0; i < 40; ++i) long_text += "the cat ";
  session.set_text(long_text);
  session.wait();
  EXPECT_EQ(session.text(), kText);
  EXPECT_TRUE(session.take_failure().has_value());
}

TEST(ModelSession, AModelWhoseFirstTextIsRefusedStaysOpenForTheTextToBeMended) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  const model::Model* before = session.model();
  std::string long_text;
  for (int i = 0; i < 40; ++i) long_text += "the cat ";
  session.open(gpt2(), long_text);  // 81 tokens (the last space one of them), the model has 32 positions
  session.wait();
  ASSERT_TRUE(session.has_model());
  EXPECT_NE(session.model(), before) << "the model asked for is open";
  EXPECT_EQ(session.result(), nullptr) << "the last model's result is not shown beside it";
  EXPECT_EQ(session.rollout().rows, 0);
  EXPECT_EQ(session.text(), "");
  EXPECT_EQ(session.requested_text(), long_text) << "the text field keeps what was asked for";
  EXPECT_EQ(session.error(), "The text makes 81 tokens but the model has positions for 32");
  EXPECT_EQ(session.take_failure(), session.error()) << "reported";

  session.set_text(kText);
  session.wait();
  EXPECT_EQ(session.error(), "");
  ASSERT_NE(session.result(), nullptr);
  expect_same(*session.result(), direct(gpt2(), {}));
}

TEST(ModelSession, ATextTooLongIsCutToItsStartThatFitsAsOneUndoStep) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  session.set_head_factor(0, 1, 0.0f);
  session.wait();
  std::string long_text;
  for (int i = 0; i < 40; ++i) long_text += "the cat ";
  session.set_text(long_text);
  session.wait();
  const model::TextCut* cut = session.text_cut();
  ASSERT_NE(cut, nullptr) << "refused for its length: its start is offered";
  const std::string kept = cut->text;
  EXPECT_EQ(long_text.rfind(kept, 0), 0u);
  EXPECT_LE(cut->tokens, 32);
  EXPECT_EQ(cut->tokens, static_cast<int>(session.model()->tokenizer().encode(kept).ids.size()));

  session.keep_text_start();
  session.wait();
  EXPECT_EQ(session.error(), "");
  EXPECT_EQ(session.text_cut(), nullptr);
  EXPECT_EQ(session.text(), kept);
  EXPECT_EQ(session.requested_text(), kept);
  ASSERT_NE(session.result(), nullptr);
  EXPECT_EQ(session.undo_label(), "Keep the first " + std::to_string(session.result()->ids.size()) + " tokens");
  EXPECT_EQ(session.head_factor(0, 1), 0.0f) << "the head stays off";

  session.undo();  // the whole text again, refused again
  session.wait();
  EXPECT_EQ(session.requested_text(), long_text);
  EXPECT_NE(session.text_cut(), nullptr);
  EXPECT_EQ(session.head_factor(0, 1), 0.0f);
  session.redo();
  session.wait();
  EXPECT_EQ(session.text(), kept);
  EXPECT_EQ(session.error(), "");

  // Undoing a head switch leaves the text typed since as it is.
  session.set_text("the mat");
  session.set_head_factor(0, 2, 0.0f);
  session.undo();
  session.wait();
  EXPECT_FALSE(session.head_factor(0, 2).has_value());
  EXPECT_EQ(session.text(), "the mat");
}

TEST(ModelSession, TheWindowSaysWhatIsWrongWithATextInItsOwnWords) {
  EXPECT_EQ(window_message(InputError("<text>", "--text", "makes 40 tokens but the model has positions for 32")),
            "The text makes 40 tokens but the model has positions for 32");
  EXPECT_EQ(window_message(InputError("<text>", "the text", "byte 3 is not UTF-8")), "The text: byte 3 is not UTF-8");
  EXPECT_EQ(window_message(InputError("<text>", "the text", "makes 180001 tokens; at most 4096 are computed")),
            "The text makes 180,001 tokens; at most 4,096 are computed");
  EXPECT_EQ(
      window_message(model::KeptAttentionTooLarge(4000, 32, 32)),
      "The text makes 4,000 tokens; keeping the attention of 32 layers \xc3\x97 32 heads for them takes 125,000 MiB, more "
      "than the window keeps (2,048 MiB): use a shorter text");
  EXPECT_EQ(window_message(InputError("gpt2/config.json", "/n_head", "is missing")),
            "gpt2/config.json: /n_head: is missing");
}

TEST(ModelSession, CancelBeforeTheWorkStartsKeepsWhatWasShown) {
  ModelSession session;
  session.pause_worker_for_tests(true);
  session.open(gpt2(), kText);
  EXPECT_EQ(session.activity(), ModelActivity::Loading);
  EXPECT_EQ(session.loading_path(), gpt2());
  session.cancel();
  session.pause_worker_for_tests(false);
  session.wait();
  EXPECT_FALSE(session.busy());
  EXPECT_FALSE(session.has_model());
  EXPECT_EQ(session.error(), "cancelled");
  EXPECT_FALSE(session.take_failure().has_value()) << "a cancel is not a failure";
}

TEST(ModelSession, AHeadSwitchRecomputesTheLaterLayersAndTheNextTokensAndUndoes) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  ASSERT_TRUE(session.has_model());
  const model::ForwardResult before = *session.result();

  session.set_head_factor(0, 1, 0.0f);
  EXPECT_EQ(session.head_factor(0, 1), 0.0f) << "the switch shows at once";
  session.wait();
  EXPECT_EQ(session.shown_edits().head_factors.size(), 1u);
  model::ModelEdits off;
  off.head_factors[{0, 1}] = 0.0f;
  const model::ForwardResult expected = direct(gpt2(), off);
  expect_same(*session.result(), expected);
  // Layer 0's own attention is as before; layer 1 and the prediction changed.
  EXPECT_LT(largest_difference(session.result()->layers[0].attention.heads[1].weights,
                               before.layers[0].attention.heads[1].weights),
            1e-5);
  EXPECT_GT(largest_difference(session.result()->layers[1].attention.heads[0].weights,
                               before.layers[1].attention.heads[0].weights),
            1e-3);
  EXPECT_GT(std::abs(session.result()->next_tokens[0].p - before.next_tokens[0].p), 1e-4);
  EXPECT_EQ(session.undo_label(), "Layer 0 head 1 off");

  session.set_head_factor(1, 2, 0.5f);
  session.wait();
  off.head_factors[{1, 2}] = 0.5f;
  expect_same(*session.result(), direct(gpt2(), off));

  session.undo();
  session.undo();
  EXPECT_FALSE(session.can_undo());
  session.wait();
  expect_same(*session.result(), before);
  session.redo();
  session.wait();
  expect_same(*session.result(), expected);
  EXPECT_EQ(session.undo_label(), "Layer 0 head 1 off");
}

TEST(ModelSession, AnEditedWQRecomputesFromItsLayerAndUndoes) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  ASSERT_TRUE(session.has_model());
  const model::ForwardResult before = *session.result();
  Matrix wq = session.model()->head_weight(1, 2, model::Projection::Query);
  for (float& value : wq.data) value *= -2.0f;
  session.set_head_weight(1, 2, model::Projection::Query, wq, "Layer 1 head 2 W_Q: x -2");
  ASSERT_NE(session.edited_weight(1, 2, model::Projection::Query), nullptr);
  session.wait();
  model::ModelEdits edits;
  edits.weights[{1, 2, model::Projection::Query}] = wq;
  expect_same(*session.result(), direct(gpt2(), edits));
  EXPECT_LT(largest_difference(session.result()->layers[0].attention.heads[2].weights,
                               before.layers[0].attention.heads[2].weights),
            1e-5);
  EXPECT_GT(largest_difference(session.result()->layers[1].attention.heads[2].weights,
                               before.layers[1].attention.heads[2].weights),
            1e-3);
  session.undo();
  EXPECT_EQ(session.edited_weight(1, 2, model::Projection::Query), nullptr);
  session.wait();
  expect_same(*session.result(), before);
  // Putting back a matrix that was never edited is no step at all.
  session.set_head_weight(0, 0, model::Projection::Key, std::nullopt, "nothing");
  EXPECT_FALSE(session.can_undo());
}

TEST(ModelSession, ANewTextRunsWithTheHeadsSwitched) {
  ModelSession session;
  session.open(gpt2(), "the mat");
  session.wait();
  session.set_head_factor(1, 0, 0.0f);
  session.set_text(kText);
  session.wait();
  EXPECT_EQ(session.text(), kText);
  model::ModelEdits off;
  off.head_factors[{1, 0}] = 0.0f;
  expect_same(*session.result(), direct(gpt2(), off));
}

TEST(ModelSession, CloseForgetsTheModel) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  session.close();
  EXPECT_FALSE(session.has_model());
  session.wait();
  EXPECT_FALSE(session.has_model());
  EXPECT_EQ(session.result(), nullptr);
}

TEST(ModelSession, FirstChangedLayer) {
  model::ModelEdits a;
  model::ModelEdits b;
  EXPECT_EQ(first_changed_layer(a, b, 12), 12);
  a.head_factors[{5, 1}] = 0.0f;
  EXPECT_EQ(first_changed_layer(a, b, 12), 5);
  b.head_factors[{5, 1}] = 0.0f;
  b.head_factors[{3, 0}] = 0.5f;
  EXPECT_EQ(first_changed_layer(a, b, 12), 3);
  a.head_factors[{3, 0}] = 0.5f;
  EXPECT_EQ(first_changed_layer(a, b, 12), 12);
  EXPECT_EQ(head_switch_label(3, 1, 0.5f), "Layer 3 head 1 \xC3\x97 0.5");
  EXPECT_EQ(head_switch_label(3, 1, std::nullopt), "Layer 3 head 1 on");
}

}  // namespace
}  // namespace attnviz::compute
