// The Model view's head roles off the window's thread (app/compute/head_roles_session.h): the
// values are those the core reads off the shown result's weights, counted here by hand, and the
// probe's induction scores those of an independent pass; an edit brings new values.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "app/compute/head_roles_session.h"
#include "app/compute/model_session.h"
#include "core/cpu/cpu_backend.h"
#include "core/heads/head_roles.h"
#include "model_session_support.h"

namespace attnviz::compute {
namespace {

using model_session_support::gpt2;
using model_session_support::kText;

// mean over rows i ≥ 1 of A[i, i−1], counted here rather than by the core.
double previous_token_by_hand(const Matrix& a) {
  double sum = 0.0;
  for (int i = 1; i < a.rows; ++i) sum += a.at(i, i - 1);
  return sum / (a.rows - 1);
}

// The roles of the session's shown result, asked and waited for.
const HeadRoles& roles_of(const ModelSession& session, HeadRolesSession& roles) {
  roles.request(session.shared_model(), session.shared_result(), session.shown_edits(), session.generation());
  roles.wait();
  EXPECT_EQ(roles.error(), "");
  EXPECT_NE(roles.roles(), nullptr);
  return *roles.roles();
}

TEST(HeadRolesSession, EveryHeadsPreviousTokenScoreIsItsShownWeightsOne) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  ASSERT_NE(session.result(), nullptr);
  HeadRolesSession roles;
  const HeadRoles& got = roles_of(session, roles);
  EXPECT_EQ(got.source, session.generation());
  const model::ForwardResult& result = *session.result();
  ASSERT_EQ(got.roles.size(), result.layers.size());
  for (std::size_t l = 0; l < result.layers.size(); ++l) {
    EXPECT_EQ(got.layers[l], result.layers[l].layer);
    const std::vector<HeadResult>& heads = result.layers[l].attention.heads;
    ASSERT_EQ(got.roles[l].size(), heads.size());
    for (std::size_t h = 0; h < heads.size(); ++h)
      EXPECT_NEAR(got.roles[l][h].previous_token, previous_token_by_hand(heads[h].weights), 1e-6);
  }
}

TEST(HeadRolesSession, InductionIsReadOnTheProbeAsAnIndependentPassReadsIt) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  HeadRolesSession roles;
  const HeadRoles& got = roles_of(session, roles);
  const auto model = model::Model::open(gpt2());
  const heads::RepeatProbe probe = heads::make_repeat_probe(*model, heads::default_repeat(*model), 0);
  EXPECT_EQ(got.probe_repeat, probe.repeat);
  const auto backend = make_cpu_backend();
  model::ForwardPass pass(*model, *backend);
  const heads::LayerRoles want = heads::head_roles(pass.run(heads::probe_encoding(*model, probe), {}), &probe);
  for (std::size_t l = 0; l < want.size(); ++l) {
    for (std::size_t h = 0; h < want[l].size(); ++h) {
      ASSERT_TRUE(got.roles[l][h].induction.has_value());
      EXPECT_NEAR(*got.roles[l][h].induction, *want[l][h].induction, 1e-6);
      EXPECT_NEAR(*got.roles[l][h].duplicate, *want[l][h].duplicate, 1e-6);
    }
  }
}

TEST(HeadRolesSession, AHeadSwitchedOffChangesTheLaterLayersRoles) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  HeadRolesSession roles;
  const double before = roles_of(session, roles).roles[1][0].previous_token;
  const double before_induction = *roles.roles()->roles[1][0].induction;
  session.set_head_factor(0, 0, 0.0f);
  session.wait();
  const HeadRoles& after = roles_of(session, roles);
  EXPECT_EQ(after.source, session.generation());
  const double now = after.roles[1][0].previous_token;
  EXPECT_NEAR(now, previous_token_by_hand(session.result()->layers[1].attention.heads[0].weights), 1e-6);
  EXPECT_GT(std::abs(now - before), 1e-6);
  EXPECT_GT(std::abs(*after.roles[1][0].induction - before_induction), 1e-6);  // the probe ran with the edit
}

TEST(HeadRolesSession, AfterClearNothingIsShownAndTheOldAskIsDropped) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  HeadRolesSession roles;
  roles.request(session.shared_model(), session.shared_result(), session.shown_edits(), session.generation());
  roles.clear();
  roles.wait();
  EXPECT_EQ(roles.roles(), nullptr);
  EXPECT_EQ(roles.requested(), 0u);
}

}  // namespace
}  // namespace attnviz::compute
