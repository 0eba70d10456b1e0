// The Model view's activation patching off the window's thread (app/compute/patching_session.h):
// the same numbers as core/heads' patching of the shown result's tokens, the clean logit the
// window's own pass gives the likeliest next token, a chosen target honoured, the window's
// edits in every run, one position patched, and a second text of another length refused naming both lengths with the
// last patching kept.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "app/compute/model_session.h"
#include "app/compute/patching_session.h"
#include "core/cpu/cpu_backend.h"
#include "model_session_support.h"

namespace attnviz::compute {
namespace {

using model_session_support::gpt2;
using model_session_support::kText;

const std::string kSecond = "the mat sat on the cat";

TEST(PatchingSession, EveryHeadAsTheCoreFindsItAndTheCleanLogitTheWindowsPassGives) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  ASSERT_NE(session.result(), nullptr);
  PatchingSession patching;
  PatchingAsk ask;
  ask.source = session.generation();
  ask.corrupted = kSecond;
  patching.request(session.shared_model(), session.shared_result(), session.shown_edits(), ask);
  patching.wait();
  ASSERT_EQ(patching.error(), "");
  ASSERT_NE(patching.patching(), nullptr);
  const heads::Patching& got = patching.patching()->patching;
  const auto shown = session.shared_result();  // kept: the head switch below replaces the session's
  const model::ForwardResult& result = *shown;
  EXPECT_EQ(got.target, result.next_tokens.front().id);
  EXPECT_NEAR(got.clean_logit, result.next_tokens.front().logit, 1e-4);
  EXPECT_EQ(patching.patching()->clean.tokens, result.tokens);

  const auto model = model::Model::open(gpt2());
  const auto backend = make_cpu_backend();
  const heads::Patching want = heads::patch_every_head(*model, *backend, model->tokenizer().encode(kText, "test"),
                                                       model->tokenizer().encode(kSecond, "test"), {});
  ASSERT_EQ(got.patched.size(), want.patched.size());
  for (std::size_t l = 0; l < want.patched.size(); ++l)
    for (std::size_t h = 0; h < want.patched[l].size(); ++h) EXPECT_NEAR(got.patched[l][h], want.patched[l][h], 1e-5);
  EXPECT_NEAR(got.corrupted_logit, want.corrupted_logit, 1e-5);

  // A chosen target and a head switched off: nothing of it to patch.
  session.set_head_factor(0, 1, 0.0f);
  session.wait();
  ask.source = session.generation();
  ask.target = result.next_tokens[2].id;
  patching.request(session.shared_model(), session.shared_result(), session.shown_edits(), ask);
  patching.wait();
  ASSERT_NE(patching.patching(), nullptr);
  const heads::Patching& off = patching.patching()->patching;
  EXPECT_EQ(off.target, ask.target);
  EXPECT_NEAR(off.patched[0][1], off.clean_logit, 1e-5 * std::max(1.0, std::abs(off.clean_logit)));

  // One position patched ("cat" / "mat"), as the core patches it.
  ask.patched_position = 1;
  patching.request(session.shared_model(), session.shared_result(), session.shown_edits(), ask);
  patching.wait();
  ASSERT_NE(patching.patching(), nullptr);
  const heads::Patching& one = patching.patching()->patching;
  EXPECT_EQ(one.patched_position, 1);
  heads::PatchingRequest request;
  request.target = ask.target;
  request.patched_position = 1;
  request.edits = session.shown_edits();
  const heads::Patching core = heads::patch_every_head(*model, *backend, model->tokenizer().encode(kText, "test"),
                                                       model->tokenizer().encode(kSecond, "test"), request);
  for (std::size_t l = 0; l < core.patched.size(); ++l)
    for (std::size_t h = 0; h < core.patched[l].size(); ++h) EXPECT_NEAR(one.patched[l][h], core.patched[l][h], 1e-5);
}

TEST(PatchingSession, ASecondTextOfAnotherLengthSaysBothAndKeepsTheLastPatching) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  PatchingSession patching;
  PatchingAsk ask;
  ask.source = session.generation();
  ask.corrupted = kSecond;
  patching.request(session.shared_model(), session.shared_result(), session.shown_edits(), ask);
  patching.wait();
  ASSERT_NE(patching.patching(), nullptr);
  ask.corrupted = "the cat";
  patching.request(session.shared_model(), session.shared_result(), session.shown_edits(), ask);
  patching.wait();
  EXPECT_NE(patching.error().find("makes 2 tokens"), std::string::npos) << patching.error();
  ASSERT_NE(patching.patching(), nullptr) << "the last patching is kept";
  EXPECT_EQ(patching.patching()->ask.corrupted, kSecond);
  patching.clear();
  EXPECT_EQ(patching.patching(), nullptr);
}

}  // namespace
}  // namespace attnviz::compute
