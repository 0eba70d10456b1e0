#pragma once
// Where the classroom views put their heatmaps: cell sizes that stay readable on a projector,
// and a page that scrolls (or a text column that narrows, or moves below) when the window is
// too small for them, instead of heatmaps shrunk to a few pixels per cell.
//
// Pure arithmetic on sizes in pixels (the views measure text with ImGui and pass the
// results in), so that the rules are unit-tested without a window:
//   - a heatmap whose numbers would be shown (≤ 24 × 24, heatmap_overlay.h) never gets cells
//     narrower than its widest number, nor lower than its font;
//   - a larger heatmap keeps a text line per row up to 24 rows; beyond 24 rows or columns a
//     dimension is drawn as long as 24 cells would be (its labels thin out, as they must);
//   - nothing overlaps: a heatmap's slot is as wide as its caption, labels and cells;
//   - what does not fit the height makes the page taller (it scrolls), never the cells smaller.

#include <functional>
#include <vector>

namespace attnviz::classroom {

inline constexpr int kNumberedCells = 24;  // heatmap::kMaxNumberedCells: numbers up to 24 × 24

// The drawn length of `count` cells of `cell` pixels (capped at kNumberedCells cells).
float drawn_extent(int count, float cell);

// The smallest readable cell of a `rows` × `cols` heatmap: `number_cell` (its widest number
// fits, and the small font's height) when it shows numbers, else `label_cell` (a text line
// per row, so no row loses its token label).
float readable_cell(int rows, int cols, bool numbers, float number_cell, float label_cell);

// One heatmap on a page.
struct MatrixBox {
  int rows = 1;
  int cols = 1;
  float min_cell = 2.0f;     // readable_cell() of this heatmap: it is never drawn smaller
  float row_label_w = 0.0f;  // 0: no row labels
  float caption_w = 0.0f;    // the name line above it
  float side_w = 0.0f;       // drawn to the right of the cells (the softmax page's statistics)
  float min_w = 0.0f;        // e.g. the colorbar's smallest width
  float top_h = 0.0f;        // extra height above the column labels (head groups)
  // Height of the column labels over cells `cell_w` wide (they stagger or turn when narrow).
  std::function<float(float cell_w)> col_label_h;
};

struct PageSpace {
  float width = 800.0f;      // the page's content width
  float height = 600.0f;     // visible height for the heatmaps and what is below them
  float caption_h = 20.0f;   // each heatmap's name line
  float colorbar_h = 30.0f;  // under each heatmap
  float below_h = 0.0f;      // under all heatmaps (the scaling lesson's controls)
  float gap = 24.0f;         // between heatmaps, and between heatmaps and the text column
  float max_cell = 72.0f;
  float text_pref_w = 0.0f;  // the text column beside the heatmaps (never wider); 0: none
  float text_min_w = 0.0f;   // narrowest it may get before it moves below the heatmaps
};

struct MatrixPlace {
  float x = 0.0f;  // the slot's top left, relative to the page's heatmap area
  float y = 0.0f;
  float cell_w = 0.0f;
  float cell_h = 0.0f;
  float label_h = 0.0f;  // column labels
  float w = 0.0f;        // the slot (caption, labels, cells, side column)
  float h = 0.0f;
};

struct PageLayout {
  float cell = 0.0f;  // the common cell size (a heatmap may keep a larger minimum)
  std::vector<MatrixPlace> places;
  float area_w = 0.0f;      // the width left of the text column (text under the heatmaps runs in it)
  float matrices_w = 0.0f;  // the heatmaps' area (below_h included in the height)
  float matrices_h = 0.0f;
  bool text_below = false;  // the text column did not fit beside the heatmaps
  float text_w = 0.0f;      // beside: its width; below: the page width
  bool scrolls = false;     // taller than space.height
  bool too_wide = false;    // a single heatmap is wider than the page even at its smallest
};

// Heatmaps flow left to right and wrap onto a new line when the next one does not fit. The
// cell size is the largest that fits the height, tried with the text column at its preferred
// width, then at its narrowest; when even the smallest readable cells do not fit the height,
// the page scrolls with the text column beside (or below, when it cannot be beside at all).
PageLayout layout_page(const std::vector<MatrixBox>& boxes, const PageSpace& space);

// The compare view's grid: `count` copies of one heatmap (their common row labels drawn once,
// left of each grid row), in as many columns as give the largest cells: all copies on one
// screen matter more here than numbers in the cells, which come when the cells are large
// enough. Below the smallest readable cell (min_cell: every row still labelled) it scrolls.
struct GridSpace {
  float width = 800.0f;
  float height = 600.0f;
  int rows = 8;  // the heatmap's rows and columns
  int cols = 8;
  float min_cell = 2.0f;
  float max_cell = 80.0f;
  float row_label_w = 0.0f;  // drawn once, left of each grid row
  float min_slot_w = 0.0f;   // a copy's titles wrap within its slot, but not to a word per line
  float gap = 24.0f;
  float title_gap = -1.0f;                     // kept free right of a copy's titles (below 0: gap)
  std::function<float(float slot_w)> title_h;  // each copy's heading and numbers, wrapped
  std::function<float(float cell)> col_label_h;
};

struct GridLayout {
  int columns = 1;
  int rows = 1;
  float cell = 0.0f;
  float slot_w = 0.0f;  // one copy: cells and gap (the first column adds row_label_w)
  float slot_h = 0.0f;
  float label_h = 0.0f;
  bool scrolls = false;
};

GridLayout layout_grid(int count, const GridSpace& space);

}  // namespace attnviz::classroom
