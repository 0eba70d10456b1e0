#include "app/heatmap/axis_math.h"

#include <gtest/gtest.h>

#include <string>

namespace attnviz::heatmap {
namespace {

TEST(NiceLabelStep, EveryLabelWhenTheyFitElseOneTwoFiveSteps) {
  EXPECT_EQ(nice_label_step(20.0f, 18.0f), 1);
  EXPECT_EQ(nice_label_step(10.0f, 18.0f), 2);    // 1.8 cells per label
  EXPECT_EQ(nice_label_step(5.0f, 18.0f), 5);     // 3.6
  EXPECT_EQ(nice_label_step(1.0f, 18.0f), 20);    // 18
  EXPECT_EQ(nice_label_step(0.25f, 18.0f), 100);  // 72
  EXPECT_EQ(nice_label_step(0.0f, 18.0f), 1);
}

// Labels every other cell, 8 pixels apart, 13 pixels tall: the hovered cell's label (between
// two of them) would half cover both neighbours, which give way; those further off stay.
TEST(LabelGivesWay, OnlyTheThinnedLabelsTheHoveredOneWouldOverlap) {
  EXPECT_TRUE(label_gives_way(573, 574, 8.0f, 13.0f));
  EXPECT_TRUE(label_gives_way(575, 574, 8.0f, 13.0f));
  EXPECT_FALSE(label_gives_way(572, 574, 8.0f, 13.0f));
  EXPECT_FALSE(label_gives_way(574, 574, 8.0f, 13.0f)) << "the hovered label is drawn, highlighted";
  EXPECT_FALSE(label_gives_way(573, -1, 8.0f, 13.0f)) << "nothing hovered";
  // Every label drawn (cells as tall as the text): none overlaps its neighbour.
  EXPECT_FALSE(label_gives_way(10, 11, 13.0f, 13.0f));
}

TEST(CellWindow, ZoomKeepsTheCellUnderTheMouseAndStaysInside) {
  const CellWindow full = full_window(100, 100);
  const CellWindow zoomed = zoom_window(full, 0.5f, 20.0f, 80.0f, 100, 100);
  EXPECT_FLOAT_EQ(zoomed.rows, 50.0f);
  EXPECT_FLOAT_EQ(zoomed.cols, 50.0f);
  // The anchor was 20% down and 80% across the full view; it stays there.
  EXPECT_FLOAT_EQ((20.0f - zoomed.first_row) / zoomed.rows, 0.2f);
  EXPECT_FLOAT_EQ((80.0f - zoomed.first_col) / zoomed.cols, 0.8f);
  // Zooming out past everything shows everything.
  const CellWindow out = zoom_window(zoomed, 10.0f, 50.0f, 50.0f, 100, 100);
  EXPECT_FLOAT_EQ(out.first_row, 0.0f);
  EXPECT_FLOAT_EQ(out.rows, 100.0f);
}

TEST(CellWindow, PanStopsAtTheEdgesAndZoomStopsAtFourCells) {
  CellWindow w{0.0f, 0.0f, 10.0f, 10.0f};
  w = pan_window(w, -5.0f, 95.0f, 100, 100);
  EXPECT_FLOAT_EQ(w.first_row, 0.0f);
  EXPECT_FLOAT_EQ(w.first_col, 90.0f);
  w = zoom_window(w, 0.01f, 5.0f, 95.0f, 100, 100);
  EXPECT_FLOAT_EQ(w.rows, 4.0f);
  // A 3-token matrix cannot be zoomed below its 3 cells.
  EXPECT_FLOAT_EQ(clamp_window({0, 0, 1, 1}, 3, 3).rows, 3.0f);
}

TEST(CellAt, MapsPixelsToFractionalCells) {
  const CellWindow w{10.0f, 20.0f, 4.0f, 8.0f};
  const CellPoint p = cell_at(w, 150.0f, 25.0f, 100.0f, 0.0f, 200.0f, 100.0f);
  EXPECT_FLOAT_EQ(p.col, 24.0f);  // halfway across 8 columns from 20
  EXPECT_FLOAT_EQ(p.row, 11.0f);  // a quarter down 4 rows from 10
}

TEST(CompactNumber, FitsTheCellAndNeverHidesASmallValue) {
  EXPECT_EQ(compact_number(0.0f), "0");
  EXPECT_EQ(compact_number(0.126f), "0.13");
  EXPECT_EQ(compact_number(-1.5f), "-1.50");
  EXPECT_EQ(compact_number(12.34f), "12.34");
  EXPECT_EQ(compact_number(123.4f), "123.4");
  EXPECT_EQ(compact_number(12345.0f), "12345");
  EXPECT_EQ(compact_number(123456.0f), "1e+05");
  EXPECT_EQ(compact_number(0.0004f), "4e-04");
}

TEST(DistinctNumbers, DifferentValuesNeverShareALabel) {
  // Enough as they are: compact_number's own forms.
  EXPECT_EQ(distinct_numbers({0.0f, 1.0f}, 7), (std::vector<std::string>{"0", "1.00"}));
  EXPECT_EQ(distinct_numbers({-0.32f, 0.32f, 0.0f}, 7), (std::vector<std::string>{"-0.32", "0.32", "0"}));
  // A narrow range: more decimals...
  EXPECT_EQ(distinct_numbers({0.0123f, 0.0187f, 0.0156f}, 7), (std::vector<std::string>{"0.012", "0.019", "0.016"}));
  // ...or, when the values are tiny (a log scale over 20,000 keys), significant digits.
  EXPECT_EQ(distinct_numbers({1.0e-4f, 2.0e-4f, 1.4142e-4f}, 7),
            (std::vector<std::string>{"1.0e-04", "2.0e-04", "1.4e-04"}));
  // Equal values may share one.
  EXPECT_EQ(distinct_numbers({0.5f, 0.5f}, 7), (std::vector<std::string>{"0.50", "0.50"}));
}

TEST(KeptWindow, AMatrixThatGrowsIsShownWholeUnlessZoomedOnPurpose) {
  // Showing everything of 3 tokens, typing on to 8: still everything (the auditor's 0–3 of 8).
  CellWindow zoom = kept_window(full_window(3, 3), 3, 3);
  EXPECT_FALSE(is_zoomed(zoom, 8, 8));
  EXPECT_FLOAT_EQ(clamp_window(zoom, 8, 8).rows, 8.0f);
  // Zoomed on purpose into rows and columns 2..5 of 16: kept when the sentence grows...
  zoom = kept_window({2.0f, 2.0f, 4.0f, 4.0f}, 16, 16);
  EXPECT_TRUE(is_zoomed(zoom, 20, 20));
  EXPECT_FLOAT_EQ(clamp_window(zoom, 20, 20).first_row, 2.0f);
  // ...and clamped when it shrinks; once it covers the matrix, it is "everything" again.
  zoom = kept_window(zoom, 3, 3);
  EXPECT_FALSE(is_zoomed(zoom, 3, 3));
  EXPECT_FALSE(is_zoomed(zoom, 30, 30));
  // One axis zoomed (the context heatmap zooms rows only): the other keeps following.
  zoom = kept_window({4.0f, 0.0f, 4.0f, 16.0f}, 16, 16);
  EXPECT_FLOAT_EQ(zoom.cols, 0.0f);
  EXPECT_FLOAT_EQ(clamp_window(zoom, 16, 40).cols, 40.0f);
}

TEST(ZoomCaption, SaysWhichRowsAndColumnsAreInView) {
  EXPECT_EQ(zoom_caption(full_window(8, 8), 8, 8), "");
  EXPECT_EQ(zoom_caption({0.0f, 0.0f, 4.0f, 8.0f}, 8, 8), "rows 0\u20133 of 8");
  EXPECT_EQ(zoom_caption({0.0f, 2.5f, 8.0f, 4.0f}, 8, 8), "columns 2\u20136 of 8");
  EXPECT_EQ(zoom_caption({10.0f, 20.0f, 50.0f, 50.0f}, 512, 512),
            "rows 10\u201359, columns 20\u201369 of 512 \u00D7 512");
  // Grouped as every number the window shows ("4,096", not "4096").
  EXPECT_EQ(zoom_caption({1000.0f, 0.0f, 500.0f, 4096.0f}, 4096, 4096), "rows 1,000\u20131,499 of 4,096");
}

TEST(CellNumbers, OnALogScaleTwoSignificantDigitsSayWhatDecimalsRoundAway) {
  // The overview's exact cells: a long text's weights are 1e-5 to 1e-4, "0.00" in fixed form.
  EXPECT_EQ(significant_number(7.05094e-05f), "7.1e-05");
  EXPECT_EQ(significant_number(0.3f), "3.0e-01");
  EXPECT_EQ(significant_number(1.0f), "1.0e+00");
}

TEST(CellNumbers, OneFormatForEveryCellOfAHeatmap) {
  EXPECT_EQ(fixed_number(0.002f, 2), "0.00");
  EXPECT_EQ(fixed_number(-0.002f, 2), "0.00");  // never "-0.00"
  EXPECT_EQ(fixed_number(-1.234f, 2), "-1.23");
  EXPECT_EQ(fixed_number(7.48f, 1), "7.5");
  EXPECT_EQ(fixed_number(123.4f, 0), "123");
  // Two significant digits of the largest value at least: weights never round to 0 and 1.
  EXPECT_EQ(fewest_decimals(0.9f), 2);
  EXPECT_EQ(fewest_decimals(1.0f), 2);  // a causal mask's first row weighs exactly 1
  EXPECT_EQ(fewest_decimals(1.84f), 1);
  EXPECT_EQ(fewest_decimals(7.48f), 1);
  EXPECT_EQ(fewest_decimals(45.0f), 0);
  // Every character 6 px: the widest of the extremes decides, for all cells at once.
  const auto width = [](const std::string& text) { return 6.0f * static_cast<float>(text.size()); };
  const auto fixed = [](int decimals) { return CellNumbers{CellNumbers::Form::Fixed, decimals}; };
  const auto same = [](const CellNumbers& a, const CellNumbers& b) {
    return a.form == b.form && a.decimals == b.decimals;
  };
  EXPECT_TRUE(same(cell_numbers_that_fit(-1.23f, 0.5f, 30.0f, width), fixed(2)));   // "-1.23" is 30 px
  EXPECT_TRUE(same(cell_numbers_that_fit(-1.23f, 0.5f, 29.0f, width), fixed(1)));   // "-1.2"
  EXPECT_TRUE(same(cell_numbers_that_fit(0.003f, 1.0f, 24.0f, width), fixed(2)));   // weights: "0.00" to "1.00"
  EXPECT_TRUE(same(cell_numbers_that_fit(-45.0f, 12.0f, 30.0f, width), fixed(1)));  // "-45.0"; never whole numbers
}

// A cell too narrow for the fixed decimals shows the short form rather than nothing (the Weights
// heatmap at 10-14 tokens showed no numbers while Raw and Scaled did) or whole numbers (a raw
// score of 3.4 read "3" once another passed 10).
TEST(CellNumbers, NarrowCellsShowTheShortFormNotNothing) {
  EXPECT_EQ(short_number(0.034f), ".03");
  EXPECT_EQ(short_number(-0.41f), "-.41");
  EXPECT_EQ(short_number(0.5f), ".50");
  EXPECT_EQ(short_number(1.0f), "1");
  EXPECT_EQ(short_number(0.999f), "1");
  EXPECT_EQ(short_number(0.001f), "0");
  EXPECT_EQ(short_number(-0.001f), "0");
  EXPECT_EQ(short_number(3.44f), "3.4");
  EXPECT_EQ(short_number(-7.48f), "-7.5");
  EXPECT_EQ(short_number(9.97f), "10");
  EXPECT_EQ(short_number(12.3f), "12");
  EXPECT_EQ(short_number(-123.4f), "-123");
  EXPECT_EQ(short_number(3.1e6f), "3e+06");
  const auto width = [](const std::string& text) { return 6.0f * static_cast<float>(text.size()); };
  const CellNumbers weights = cell_numbers_that_fit(0.003f, 1.0f, 18.0f, width);  // 3 characters
  EXPECT_EQ(weights.form, CellNumbers::Form::Short);
  EXPECT_EQ(weights.text(0.25f), ".25");
  EXPECT_EQ(weights.text(1.0f), "1");
  const CellNumbers scores = cell_numbers_that_fit(0.5f, 12.6f, 18.0f, width);  // "12.6" too wide
  EXPECT_EQ(scores.form, CellNumbers::Form::Short);
  EXPECT_EQ(scores.text(3.44f), "3.4") << "not rounded to a whole number beside 12.6";
  EXPECT_EQ(scores.text(12.6f), "13");
  EXPECT_FALSE(cell_numbers_that_fit(-7.48f, 7.48f, 23.0f, width).shown()) << "\"-7.5\" is 24 px: none";
  EXPECT_FALSE(cell_numbers_that_fit(0.003f, 0.7f, 17.0f, width).shown()) << "\".70\" is 18 px: none";
}

TEST(ColumnLabels, HorizontalThenStaggeredThenTurnedShrinkingToTheMinimumFirst) {
  // Text 20 px at full size, 12 px at the smallest; the widest label is 60 px at full size.
  ColumnLabelPlan plan = plan_column_labels(60.0f, 20.0f, 12.0f, 70.0f, 100.0f, 4.0f);
  EXPECT_EQ(plan.mode, ColumnLabelMode::Horizontal);
  EXPECT_FLOAT_EQ(plan.size, 20.0f);
  // 40 px cells: 37/60 of 20 = 12.3 px horizontal (a pixel spare), or 20 px on two staggered lines.
  plan = plan_column_labels(60.0f, 20.0f, 12.0f, 40.0f, 100.0f, 4.0f);
  EXPECT_EQ(plan.mode, ColumnLabelMode::Staggered);
  EXPECT_FLOAT_EQ(plan.height, 2.0f * 20.0f + 8.0f);
  // ...but horizontal and smaller when two lines do not fit the room above the cells.
  plan = plan_column_labels(60.0f, 20.0f, 12.0f, 40.0f, 30.0f, 4.0f);
  EXPECT_EQ(plan.mode, ColumnLabelMode::Horizontal);
  EXPECT_NEAR(plan.size, 20.0f * 37.0f / 60.0f, 1e-4f);
  // 21 px cells: 37/60 of 20 = 12.3 px still staggers (Korean stays upright)...
  plan = plan_column_labels(60.0f, 20.0f, 12.0f, 21.0f, 100.0f, 4.0f);
  EXPECT_EQ(plan.mode, ColumnLabelMode::Staggered);
  EXPECT_NEAR(plan.size, 20.0f * 37.0f / 60.0f, 1e-4f);
  // ...18 px cells do not: turned, at the cells' size less the gap (5 px), cut to the room.
  plan = plan_column_labels(60.0f, 20.0f, 12.0f, 18.0f, 40.0f, 4.0f);
  EXPECT_EQ(plan.mode, ColumnLabelMode::Rotated);
  EXPECT_FLOAT_EQ(plan.size, 13.0f);
  EXPECT_FLOAT_EQ(plan.pitch, 18.0f);
  EXPECT_FLOAT_EQ(plan.height, 39.0f + 8.0f);
}

// Turned labels side by side keep the gap too (Korean ones ran together in the Mask panel's
// small heatmap): below the smallest size they are thinned rather than overlapped.
TEST(ColumnLabels, TurnedLabelsKeepAGapOrAreThinned) {
  ColumnLabelPlan plan = plan_column_labels(60.0f, 20.0f, 12.0f, 14.0f, 40.0f, 4.0f);
  EXPECT_EQ(plan.mode, ColumnLabelMode::Rotated);
  EXPECT_FLOAT_EQ(plan.size, 12.0f);
  EXPECT_GE(plan.pitch, plan.size + 5.0f);
  EXPECT_EQ(nice_label_step(14.0f, plan.pitch), 2) << "every other label";
  plan = plan_column_labels(60.0f, 20.0f, 12.0f, 17.0f, 40.0f, 4.0f);
  EXPECT_EQ(nice_label_step(17.0f, plan.pitch), 1) << "12 px text and a 5 px gap fit 17 px cells";
}

TEST(ColumnLabels, SideBySideLabelsKeepAGapBetweenNeighbours) {
  // 64 px cells and a label 60 px wide at 20 px: filling the cell would leave 4 px between
  // neighbours; the label shrinks until a quarter of the text (5 px) separates them.
  const ColumnLabelPlan plan = plan_column_labels(60.0f, 20.0f, 12.0f, 64.0f, 100.0f, 4.0f);
  EXPECT_EQ(plan.mode, ColumnLabelMode::Horizontal);
  EXPECT_NEAR(plan.size, 20.0f * 58.0f / 60.0f, 1e-4f);
  EXPECT_LE(plan.size * 60.0f / 20.0f, 64.0f - 5.0f);
}

}  // namespace
}  // namespace attnviz::heatmap
