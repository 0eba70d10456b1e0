#include "app/heatmap/axis_math.h"

#include <gtest/gtest.h>

namespace attnviz::heatmap {
namespace {

TEST(NiceLabelStep, EveryLabelWhenTheyFitElseOneTwoFiveSteps) {
  EXPECT_EQ(nice_label_step(20.0f, 18.0f), 1);
  EXPECT_EQ(nice_label_step(10.0f, 18.0f), 2);   // 1.8 cells per label
  EXPECT_EQ(nice_label_step(5.0f, 18.0f), 5);    // 3.6
  EXPECT_EQ(nice_label_step(1.0f, 18.0f), 20);   // 18
  EXPECT_EQ(nice_label_step(0.25f, 18.0f), 100); // 72
  EXPECT_EQ(nice_label_step(0.0f, 18.0f), 1);
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

}  // namespace
}  // namespace attnviz::heatmap
