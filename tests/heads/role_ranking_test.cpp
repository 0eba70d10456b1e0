// core/heads/role_ranking.h: the window's reading of the head roles (a role's value, its scale,
// the strongest heads, the cells a role is read from).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/heads/role_ranking.h"

namespace attnviz::heads {
namespace {

// Two layers of two heads: layer 0 head 1 attends to the previous token only.
LayerRoles two_by_two() {
  Matrix previous(4, 4);
  previous.at(0, 0) = 1.0f;
  for (int i = 1; i < 4; ++i) previous.at(i, i - 1) = 1.0f;
  Matrix self(4, 4);
  for (int i = 0; i < 4; ++i) self.at(i, i) = 1.0f;
  Matrix half(4, 4);  // half on itself, half on the previous token
  half.at(0, 0) = 1.0f;
  for (int i = 1; i < 4; ++i) half.at(i, i) = half.at(i, i - 1) = 0.5f;
  return {{score_head(self, nullptr), score_head(previous, nullptr)},
          {score_head(half, nullptr), score_head(self, nullptr)}};
}

TEST(RoleRanking, ThePreviousTokenHeadComesFirstThenTheHalfOne) {
  const std::vector<RankedHead> top = strongest_heads(two_by_two(), Role::PreviousToken, 2);
  ASSERT_EQ(top.size(), 2u);
  EXPECT_EQ(top[0].layer, 0);
  EXPECT_EQ(top[0].head, 1);
  EXPECT_DOUBLE_EQ(top[0].value, 1.0);
  EXPECT_EQ(top[1].layer, 1);
  EXPECT_EQ(top[1].head, 0);
  EXPECT_DOUBLE_EQ(top[1].value, 0.5);
}

TEST(RoleRanking, EqualValuesKeepLayerThenHeadOrder) {
  const std::vector<RankedHead> top = strongest_heads(two_by_two(), Role::Self, -1);
  ASSERT_EQ(top.size(), 4u);
  EXPECT_EQ(std::make_pair(top[0].layer, top[0].head), std::make_pair(0, 0));
  EXPECT_EQ(std::make_pair(top[1].layer, top[1].head), std::make_pair(1, 1));
  EXPECT_DOUBLE_EQ(top[2].value, 0.5);
  EXPECT_DOUBLE_EQ(top[3].value, 0.0);
}

TEST(RoleRanking, InductionOnATextHasNoValueSoNoHeadIsRanked) {
  EXPECT_TRUE(strongest_heads(two_by_two(), Role::Induction, 5).empty());
  HeadScores one_token;
  one_token.previous_token = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(role_value(one_token, Role::PreviousToken).has_value());
}

TEST(RoleRanking, SharesSpanZeroToOneAndEntropyZeroToItsLargest) {
  const LayerRoles roles = two_by_two();
  EXPECT_EQ(role_scale(roles, Role::PreviousToken), std::make_pair(0.0, 1.0));
  // The half head: rows 1..3 have entropy ln 2, row 0 none.
  EXPECT_NEAR(role_scale(roles, Role::Entropy).second, 3.0 * std::log(2.0) / 4.0, 1e-6);
  EXPECT_STREQ(role_key(Role::MeanDistance), "mean_distance");
}

TEST(RoleKeyCells, InductionOutlinesTheTokenAfterEachEarlierOccurrence) {
  // a b c a b: the second a (4th) looks at the first b; the second b at the first c.
  const std::vector<int> ids = {1, 2, 3, 1, 2};
  const std::vector<std::pair<int, int>> induction = {{3, 1}, {4, 2}};
  EXPECT_EQ(role_key_cells(Role::Induction, ids), induction);
  const std::vector<std::pair<int, int>> duplicate = {{3, 0}, {4, 1}};
  EXPECT_EQ(role_key_cells(Role::Duplicate, ids), duplicate);
  const std::vector<std::pair<int, int>> previous = {{1, 0}, {2, 1}, {3, 2}, {4, 3}};
  EXPECT_EQ(role_key_cells(Role::PreviousToken, ids), previous);
  EXPECT_TRUE(role_key_cells(Role::Entropy, ids).empty());
  EXPECT_EQ(role_key_cells(Role::FirstToken, ids, 2).size(), 2u);
}

}  // namespace
}  // namespace attnviz::heads
