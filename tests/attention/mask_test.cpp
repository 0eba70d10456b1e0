// The visibility predicate against hand-written bitmaps (docs/design.md "Masks").

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/attention/mask.h"

namespace attnviz {
namespace {

// One string per query row, '1' visible, '.' masked.
std::vector<std::string> bitmap(const MaskSetting& setting, int rows, int cols) {
  const MaskMatrix mask = build_mask(setting, rows, cols);
  std::vector<std::string> lines;
  for (int i = 0; i < rows; ++i) {
    std::string line;
    for (int j = 0; j < cols; ++j) line += mask.at(i, j) ? '1' : '.';
    lines.push_back(line);
  }
  return lines;
}

MaskSetting make(bool causal, std::optional<int> window = std::nullopt, std::vector<int> global = {}) {
  return MaskSetting{causal, window, std::move(global)};
}

TEST(Mask, NoMaskSeesEverything) {
  EXPECT_EQ(bitmap(make(false), 3, 3), (std::vector<std::string>{"111", "111", "111"}));
}

TEST(Mask, CausalIsLowerTriangular) {
  EXPECT_EQ(bitmap(make(true), 4, 4), (std::vector<std::string>{"1...", "11..", "111.", "1111"}));
}

TEST(Mask, WindowZeroIsTheDiagonal) {
  EXPECT_EQ(bitmap(make(false, 0), 4, 4), (std::vector<std::string>{"1...", ".1..", "..1.", "...1"}));
}

TEST(Mask, SymmetricWindowOfRadiusOneIsABand) {
  EXPECT_EQ(bitmap(make(false, 1), 5, 5), (std::vector<std::string>{"11...", "111..", ".111.", "..111", "...11"}));
}

TEST(Mask, WindowAtLeastNSeesEverything) {
  EXPECT_EQ(bitmap(make(false, 4), 4, 4), (std::vector<std::string>{"1111", "1111", "1111", "1111"}));
  EXPECT_EQ(bitmap(make(false, 100), 3, 3), (std::vector<std::string>{"111", "111", "111"}));
}

TEST(Mask, CausalSlidingWindowKeepsRPlusOneKeys) {
  // Mistral style: i − 2 ≤ j ≤ i.
  EXPECT_EQ(bitmap(make(true, 2), 6, 6),
            (std::vector<std::string>{"1.....", "11....", "111...", ".111..", "..111.", "...111"}));
}

TEST(Mask, GlobalTokensAtBothEndsSeeAndAreSeenByAll) {
  EXPECT_EQ(bitmap(make(false, 1, {0, 5}), 6, 6),
            (std::vector<std::string>{"111111", "111..1", "1111.1", "1.1111", "1..111", "111111"}));
}

TEST(Mask, LongformerOfTheKoreanFixture) {
  // r = 1, globals 0 and 5, N = 8: the mask in tests/fixtures/korean-longformer1-g05.json.
  EXPECT_EQ(bitmap(make(false, 1, {0, 5}), 8, 8),
            (std::vector<std::string>{"11111111", "111..1..", "1111.1..", "1.1111..", "1..111..", "11111111",
                                      "1....111", "1....111"}));
}

TEST(Mask, CausalStillAppliesToGlobalTokens) {
  EXPECT_EQ(bitmap(make(true, 0, {0, 3}), 5, 5), (std::vector<std::string>{"1....", "11...", "1.1..", "1111.", "1..11"}));
}

TEST(Mask, CrossAttentionWindowLeavesLateQueriesWithNothing) {
  // 10 queries over a 3-token source, window 1: query i sees keys j with |i − j| ≤ 1.
  const MaskMatrix mask = build_mask(make(false, 1), 10, 3);
  EXPECT_EQ(bitmap(make(false, 1), 10, 3),
            (std::vector<std::string>{"11.", "111", ".11", "..1", "...", "...", "...", "...", "...", "..."}));
  EXPECT_EQ(fully_masked_rows(mask), (std::vector<int>{4, 5, 6, 7, 8, 9}));
}

TEST(Mask, CrossAttentionGlobalIndexMarksRowAndColumnWhereTheyExist) {
  // g = 4 is a query row (N = 6) but not a key column (M = 3).
  EXPECT_EQ(bitmap(make(false, 0, {4}), 6, 3), (std::vector<std::string>{"1..", ".1.", "..1", "...", "111", "..."}));
}

TEST(Mask, FullyMaskedRowsIsEmptyWhenEveryRowSeesSomething) {
  EXPECT_TRUE(fully_masked_rows(build_mask(make(true, 0), 7, 7)).empty());
}

}  // namespace
}  // namespace attnviz
