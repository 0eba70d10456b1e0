// The Model view's logit lens off the window's thread (app/compute/lens_session.h): its last
// layer is the model's own prediction, so at every position its top tokens are those an
// independent pass predicts there (ForwardOptions::query_position), and at the last position
// those of the session's shown result, edits included; the embeddings' row does not move.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "app/compute/lens_session.h"
#include "app/compute/model_session.h"
#include "core/cpu/cpu_backend.h"
#include "model_session_support.h"

namespace attnviz::compute {
namespace {

using model_session_support::gpt2;
using model_session_support::kText;

// The lens of the session's shown result, asked and waited for.
const LensTable& lens_of(const ModelSession& session, LensSession& lens) {
  lens.request(session.shared_model(), session.shared_result(), session.shown_edits(), session.generation());
  lens.wait();
  EXPECT_EQ(lens.error(), "");
  EXPECT_NE(lens.lens(), nullptr);
  return *lens.lens();
}

// A cell's top tokens are `want`'s first ones, with the same probabilities.
void expect_top(const heads::LensCell& cell, const std::vector<model::TokenProbability>& want) {
  ASSERT_EQ(cell.top.size(), static_cast<std::size_t>(LensSession::kTopTokens));
  ASSERT_GE(want.size(), cell.top.size());
  for (std::size_t k = 0; k < cell.top.size(); ++k) {
    EXPECT_EQ(cell.top[k].id, want[k].id) << "rank " << k;
    EXPECT_NEAR(cell.top[k].p, want[k].p, 1e-5) << "rank " << k;
  }
}

TEST(LensSession, TheLastLayerPredictsAtEveryPositionAsAPinnedQueryDoes) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  ASSERT_NE(session.result(), nullptr);
  LensSession lens;
  const LensTable& got = lens_of(session, lens);
  EXPECT_EQ(got.source, session.generation());
  const model::ForwardResult& result = *session.result();
  const std::size_t n = result.ids.size();
  EXPECT_EQ(got.tokens, result.tokens);
  const auto model = model::Model::open(gpt2());
  ASSERT_EQ(got.lens.cells.size(), static_cast<std::size_t>(model->config().num_layers + 1));
  const auto backend = make_cpu_backend();
  model::ForwardPass pass(*model, *backend);
  const tokenizers::Encoding encoding = model->tokenizer().encode(kText, "test");
  for (std::size_t i = 0; i < n; ++i) {
    const heads::LensCell& cell = got.lens.cells.back()[i];
    model::ForwardOptions options;
    options.query_position = static_cast<int>(i);
    expect_top(cell, pass.run(encoding, options).query_tokens);
    EXPECT_EQ(cell.p_next.has_value(), i + 1 < n);  // the last position has no next token
  }
  expect_top(got.lens.cells.back()[n - 1], result.next_tokens);
}

TEST(LensSession, AHeadSwitchedOffMovesTheLaterLayersButNotTheEmbeddings) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  LensSession lens;
  const LensTable before = lens_of(session, lens);
  session.set_head_factor(0, 0, 0.0f);
  session.wait();
  const LensTable& after = lens_of(session, lens);
  EXPECT_EQ(after.source, session.generation());
  const std::size_t last = after.tokens.size() - 1;
  expect_top(after.lens.cells.back()[last], session.result()->next_tokens);  // the edited pass's prediction
  EXPECT_GT(std::abs(after.lens.cells.back()[last].top[0].p - before.lens.cells.back()[last].top[0].p), 1e-7);
  for (std::size_t i = 0; i <= last; ++i) {
    EXPECT_EQ(after.lens.cells[0][i].top[0].id, before.lens.cells[0][i].top[0].id);
    EXPECT_DOUBLE_EQ(after.lens.cells[0][i].top[0].p, before.lens.cells[0][i].top[0].p);
  }
}

TEST(LensSession, AfterClearNothingIsShownAndTheOldAskIsDropped) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  LensSession lens;
  lens.request(session.shared_model(), session.shared_result(), session.shown_edits(), session.generation());
  lens.clear();
  lens.wait();
  EXPECT_EQ(lens.lens(), nullptr);
  EXPECT_EQ(lens.requested(), 0u);
}

}  // namespace
}  // namespace attnviz::compute
