#pragma once
// What a heatmap draws on top of its GPU cells with ImDrawList: grid lines, in-cell numbers,
// the block-sparsity tiles, outlines (hovered cell, highlighted token, pinned query) and the
// axis labels. All of it is bounded by what fits on screen, never by the matrix size.

#include <string>

#include "app/heatmap/heatmap_widget.h"

struct ImDrawList;

namespace attnviz::heatmap {

// Where the cells are on screen and which of them are shown.
struct CellGeometry {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // the cells' rectangle
  CellWindow window;
  int rows = 0;
  int cols = 0;

  [[nodiscard]] float cell_w() const { return (x1 - x0) / window.cols; }
  [[nodiscard]] float cell_h() const { return (y1 - y0) / window.rows; }
  [[nodiscard]] float col_x(float col) const { return x0 + (col - window.first_col) * cell_w(); }
  [[nodiscard]] float row_y(float row) const { return y0 + (row - window.first_row) * cell_h(); }
  // Indices of the rows / columns at least partly visible: [first, last).
  [[nodiscard]] int first_row() const;
  [[nodiscard]] int last_row() const;
  [[nodiscard]] int first_col() const;
  [[nodiscard]] int last_col() const;
};

inline constexpr int kMaxNumberedCells = 24;  // values shown in cells up to 24 × 24 visible

// The narrowest cell that shows `widest` ("0.12", "-1.84") in the cells' font, as draw_overlay
// needs it (and no lower than that font): for layouts that keep numbers (presentation mode).
float number_cell(const char* widest);

// The masks the overlay reads, and the block size of the tiles it draws (0: none).
struct OverlayMasks {
  MaskCache* cache = nullptr;
  int block_size = 0;
};

// Grid, numbers, tiles, outlines; returns whether the cells got their numbers.
bool draw_overlay(ImDrawList* list, const HeatmapSpec& spec, const CellGeometry& g, int hovered_row, int hovered_col,
                  const OverlayMasks& masks);

// "12 of 36 tiles skipped (33 %)": what the block grid says the kernels skip.
std::string tiles_skipped_text(const BlockGrid& grid);

// The tiles' three styles (ABGR): empty tiles are shaded (nothing computed there), partial ones
// outlined in amber, full ones in green.
inline constexpr std::uint32_t kEmptyTileFill = 0x70201818u;
inline constexpr std::uint32_t kPartialTileColour = 0xff10a0f0u;
inline constexpr std::uint32_t kFullTileColour = 0xff40b040u;
void draw_axis_labels(ImDrawList* list, const HeatmapSpec& spec, const CellGeometry& g, int hovered_row,
                      int hovered_col);

// Colours the overlays share with the panels (tooltips, bars, chips).
inline constexpr std::uint32_t kHighlightColour = 0xff1f8cffu;  // orange (ABGR): a hovered token
inline constexpr std::uint32_t kPinnedColour = 0xffd0301fu;     // strong blue: the pinned query

}  // namespace attnviz::heatmap
