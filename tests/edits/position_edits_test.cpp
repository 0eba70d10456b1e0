// The Model panel's position and dropout edits: pure, clamped into what the core accepts,
// leaving everything else as it was, and giving scenarios that build.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "app/edits/model_edits.h"
#include "app/edits/position_edits.h"
#include "core/common/error.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario_checks.h"

namespace attnviz::edits {
namespace {

Scenario base() {
  Scenario s;
  s.sentence = "the cat sat on the mat";
  s.d_model = 6;
  s.num_heads = 2;
  s.num_kv_heads = 2;
  s.d_k = 3;
  s.d_v = 3;
  return s;
}

TEST(PositionEdits, ChoosingAKindChangesOnlyTheKind) {
  const Scenario s = base();
  for (const PositionalKind kind :
       {PositionalKind::Sinusoidal, PositionalKind::Rope, PositionalKind::Alibi, PositionalKind::None}) {
    Scenario next = set_positional(s, kind);
    EXPECT_EQ(next.positional, kind);
    next.positional = s.positional;
    EXPECT_EQ(next, s);
  }
  EXPECT_EQ(positional_label(PositionalKind::Rope), "RoPE (turns q and k)");
}

TEST(PositionEdits, RopeOnAnOddDkIsRefusedNamingDkUntilDkIsMadeEven) {
  const Scenario rope = set_positional(base(), PositionalKind::Rope);
  try {
    build_problem(rope, "<gui>");
    FAIL() << "an odd d_k with RoPE must be refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/d_k"), std::string::npos) << e.what();
  }
  EXPECT_EQ(even_d_k(3), 4);
  EXPECT_EQ(even_d_k(8), 8);
  const Scenario fixed = set_d_k(rope, even_d_k(rope.d_k), default_fresh(rope));
  EXPECT_EQ(fixed.d_k, 4);
  EXPECT_NO_THROW(build_problem(fixed, "<gui>"));
}

TEST(PositionEdits, ThetaAndOffsetAreClampedIntoTheCoresRanges) {
  EXPECT_DOUBLE_EQ(set_rope_theta(base(), 500000.0).rope_theta, 500000.0);
  EXPECT_DOUBLE_EQ(set_rope_theta(base(), 0.0).rope_theta, kMinRopeTheta);
  EXPECT_DOUBLE_EQ(set_rope_theta(base(), 1e300).rope_theta, kMaxRopeTheta);
  EXPECT_DOUBLE_EQ(set_rope_theta(base(), std::numeric_limits<double>::quiet_NaN()).rope_theta, 10000.0);
  EXPECT_EQ(set_position_offset(base(), 12).position_offset, 12);
  EXPECT_EQ(set_position_offset(base(), -3).position_offset, 0);
  EXPECT_EQ(set_position_offset(base(), 1 << 30).position_offset, kMaxPositionOffset);
}

TEST(PositionEdits, DropoutTurnsOnAndOffWithItsProbabilityClamped) {
  const Scenario on = set_dropout_p(base(), 0.25);
  ASSERT_TRUE(on.dropout.has_value());
  EXPECT_DOUBLE_EQ(on.dropout->p, 0.25);
  EXPECT_EQ(on.dropout->seed, 1u);
  EXPECT_DOUBLE_EQ(set_dropout_p(base(), 1.0).dropout->p, kMaxDropoutP);
  EXPECT_DOUBLE_EQ(set_dropout_p(base(), -1.0).dropout->p, 0.0);
  EXPECT_EQ(set_dropout_seed(on, 42).dropout->seed, 42u);
  EXPECT_DOUBLE_EQ(set_dropout_seed(on, 42).dropout->p, 0.25);
  EXPECT_FALSE(set_dropout(on, std::nullopt).dropout.has_value());
  EXPECT_NO_THROW(build_problem(set_dropout_p(base(), 1.0), "<gui>"));
}

}  // namespace
}  // namespace attnviz::edits
