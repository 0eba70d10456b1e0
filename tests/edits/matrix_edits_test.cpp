// The Matrices panel's edit logic: typed values, single cells, whole-matrix tools and the
// head-by-head resize. Expected matrices are written out by hand.
#include "app/edits/matrix_edits.h"

#include <gtest/gtest.h>

#include <limits>

namespace attnviz::edits {
namespace {

Matrix make(int rows, int cols, std::vector<float> values) {
  Matrix m(rows, cols);
  m.data = std::move(values);
  return m;
}

TEST(ParseCellValue, AcceptsFiniteNumbersWithSpacesSignsAndExponents) {
  EXPECT_EQ(parse_cell_value("0.5").value, 0.5f);
  EXPECT_EQ(parse_cell_value("  -1e-3 ").value, -0.001f);
  EXPECT_EQ(parse_cell_value("+2").value, 2.0f);
  EXPECT_EQ(parse_cell_value("7").value, 7.0f);
  EXPECT_TRUE(parse_cell_value("0.5").error.empty());
}

TEST(ParseCellValue, RefusesWhatIsNotAFiniteNumberAndSaysWhy) {
  for (const char* text : {"abc", "1.5x", "0,5", "nan", "inf", "-inf", "1e39", "", "   "}) {
    const ParsedValue parsed = parse_cell_value(text);
    EXPECT_FALSE(parsed.value.has_value()) << text;
    EXPECT_FALSE(parsed.error.empty()) << text;
  }
  EXPECT_NE(parse_cell_value("abc").error.find("\"abc\" is not a number"), std::string::npos);
  EXPECT_NE(parse_cell_value("nan").error.find("not a finite number"), std::string::npos);
  EXPECT_NE(parse_cell_value("1e39").error.find("out of float range"), std::string::npos);
}

TEST(SetCell, MaterialisesAGeneratedMatrixAndChangesOnlyThatCell) {
  Scenario s;
  const Matrix shown = make(2, 2, {1, 2, 3, 4});
  EXPECT_EQ(set_cell(s, MatrixId::WQ, shown, 1, 0, 9.0f), "");
  ASSERT_TRUE(s.wq.has_value());
  EXPECT_EQ(*s.wq, make(2, 2, {1, 2, 9, 4}));
  EXPECT_FALSE(s.wk.has_value());  // the others stay generated
}

TEST(SetCell, EditsAnExplicitMatrixInPlace) {
  Scenario s;
  s.embeddings = make(1, 3, {5, 6, 7});
  EXPECT_EQ(set_cell(s, MatrixId::X, *s.embeddings, 0, 2, -1.0f), "");
  EXPECT_EQ(*s.embeddings, make(1, 3, {5, 6, -1}));
}

TEST(SetCell, RefusesNonFiniteValuesAndCellsOutsideWithoutChangingAnything) {
  Scenario s;
  const Matrix shown = make(2, 2, {1, 2, 3, 4});
  const Scenario before = s;
  EXPECT_NE(set_cell(s, MatrixId::WV, shown, 0, 0, std::numeric_limits<float>::quiet_NaN()), "");
  EXPECT_NE(set_cell(s, MatrixId::WV, shown, 0, 0, std::numeric_limits<float>::infinity()), "");
  const std::string outside = set_cell(s, MatrixId::WV, shown, 2, 0, 1.0f);
  EXPECT_NE(outside.find("W_V: cell [2][0] is outside the 2×2 matrix"), std::string::npos) << outside;
  EXPECT_EQ(s, before);
}

TEST(SetCell, XSourceGoesIntoTheSource) {
  Scenario s;
  s.source.emplace();
  EXPECT_EQ(set_cell(s, MatrixId::XSource, make(1, 2, {1, 1}), 0, 1, 3.0f), "");
  ASSERT_TRUE(s.source->embeddings.has_value());
  EXPECT_EQ(*s.source->embeddings, make(1, 2, {1, 3}));
}

TEST(MatrixTools, ScaleZeroIdentity) {
  Matrix m = make(2, 3, {1, -2, 3, 4, 5, 6});
  scale_matrix(m, 0.5f);
  EXPECT_EQ(m, make(2, 3, {0.5f, -1, 1.5f, 2, 2.5f, 3}));
  identity_matrix(m);
  EXPECT_EQ(m, make(2, 3, {1, 0, 0, 0, 1, 0}));
  Matrix tall = make(3, 2, {9, 9, 9, 9, 9, 9});
  identity_matrix(tall);
  EXPECT_EQ(tall, make(3, 2, {1, 0, 0, 1, 0, 0}));
  zero_matrix(tall);
  EXPECT_EQ(tall, make(3, 2, {0, 0, 0, 0, 0, 0}));
}

TEST(MatrixTools, RandomIsDeterministicPerSeedWithTheGeneratorsSpread) {
  const Matrix a = random_matrix(MatrixId::WQ, 3, 64, 64);
  EXPECT_EQ(a, random_matrix(MatrixId::WQ, 3, 64, 64));
  EXPECT_NE(a, random_matrix(MatrixId::WQ, 4, 64, 64));
  const auto variance = [](const Matrix& m) {
    double sum = 0.0;
    for (const float v : m.data) sum += static_cast<double>(v) * static_cast<double>(v);
    return sum / static_cast<double>(m.size());
  };
  // 4096 samples: the sample variance is within a few percent of 1/64 and of 1.
  EXPECT_NEAR(variance(a), 1.0 / 64.0, 0.2 / 64.0);
  EXPECT_NEAR(variance(random_matrix(MatrixId::X, 3, 64, 64)), 1.0, 0.2);
}

// W_Q with 2 heads of d_k = 2 (columns a0 a1 | b0 b1) over d_model = 2 rows.
const Matrix kTwoHeads = make(2, 4,
                              {11, 12, 21, 22,  //
                               13, 14, 23, 24});

TEST(ResizeBlocks, GrowingDkKeepsEachHeadsFirstColumns) {
  const Matrix fresh(2, 6, -1.0f);
  const Matrix out = resize_blocks(kTwoHeads, {1, 2}, {2, 2}, {1, 2}, {2, 3}, fresh);
  EXPECT_EQ(out, make(2, 6,
                      {11, 12, -1, 21, 22, -1,  //
                       13, 14, -1, 23, 24, -1}));
}

TEST(ResizeBlocks, ShrinkingDkDropsTheEndOfEachHead) {
  const Matrix out = resize_blocks(kTwoHeads, {1, 2}, {2, 2}, {1, 2}, {2, 1}, Matrix(2, 2, -1.0f));
  EXPECT_EQ(out, make(2, 2, {11, 21, 13, 23}));
}

TEST(ResizeBlocks, AddingAHeadAppendsAFreshBlockAndRemovingDropsTheLast) {
  const Matrix grown = resize_blocks(kTwoHeads, {1, 2}, {2, 2}, {1, 2}, {3, 2}, Matrix(2, 6, -1.0f));
  EXPECT_EQ(grown, make(2, 6,
                        {11, 12, 21, 22, -1, -1,  //
                         13, 14, 23, 24, -1, -1}));
  const Matrix shrunk = resize_blocks(kTwoHeads, {1, 2}, {2, 2}, {1, 2}, {1, 2}, Matrix(2, 2, -1.0f));
  EXPECT_EQ(shrunk, make(2, 2, {11, 12, 13, 14}));
}

TEST(ResizeBlocks, ChangingDModelKeepsTheFirstRows) {
  const Matrix out = resize_blocks(kTwoHeads, {1, 2}, {2, 2}, {1, 3}, {2, 2}, Matrix(3, 4, -1.0f));
  EXPECT_EQ(out, make(3, 4, {11, 12, 21, 22, 13, 14, 23, 24, -1, -1, -1, -1}));
}

TEST(ResizeBlocks, RowBlocksForWO) {
  // W_O: rows are 2 heads × d_v = 1, d_out = 2. d_v grows to 2.
  const Matrix wo = make(2, 2, {1, 2, 3, 4});
  const Matrix out = resize_blocks(wo, {2, 1}, {1, 2}, {2, 2}, {1, 2}, Matrix(4, 2, 0.0f));
  EXPECT_EQ(out, make(4, 2, {1, 2, 0, 0, 3, 4, 0, 0}));
}

TEST(ResizeBlocks, AMatrixOfTheWrongShapeIsReplacedByTheFreshOne) {
  const Matrix out = resize_blocks(make(1, 1, {5}), {1, 2}, {2, 2}, {1, 2}, {2, 2}, Matrix(2, 4, 7.0f));
  EXPECT_EQ(out, Matrix(2, 4, 7.0f));
}

TEST(HeadSlices, ColumnsOfTheWeightsRowsOfWO) {
  EXPECT_EQ(head_slice_of(MatrixId::WQ, 5, 2, 3).head, 2);
  EXPECT_EQ(head_slice_of(MatrixId::WQ, 5, 2, 3).offset, 1);
  EXPECT_EQ(head_slice_of(MatrixId::WV, 5, 2, 3).head, 1);
  EXPECT_EQ(head_slice_of(MatrixId::WV, 5, 2, 3).offset, 2);
  EXPECT_EQ(head_slice_of(MatrixId::WO, 4, 2, 3).head, 1);
  EXPECT_EQ(head_slice_of(MatrixId::X, 4, 2, 3).head, 0);
  EXPECT_TRUE(heads_split_columns(MatrixId::WK));
  EXPECT_FALSE(heads_split_columns(MatrixId::WO));
  EXPECT_EQ(head_slice_size(MatrixId::X, 2, 3), 0);
}

TEST(MatrixNames, AsTheUserAndTheFileSeeThem) {
  EXPECT_STREQ(matrix_name(MatrixId::WQ), "W_Q");
  EXPECT_STREQ(matrix_json_key(MatrixId::X), "embeddings");
  EXPECT_STREQ(matrix_json_key(MatrixId::XSource), "source/embeddings");
}

}  // namespace
}  // namespace attnviz::edits
