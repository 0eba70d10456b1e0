#pragma once
// What the overview's axes and tooltip say (overview_view.cpp). A text past 4,096 tokens is too
// long for a word alone to say where a row is, so every label carries its position: exact
// cells "32,427 dog", pooled pixels the first position of their block, "16,384".

#include <functional>
#include <string>
#include <vector>

#include "core/overview/overview.h"
#include "core/overview/pixel_grid.h"

namespace attnviz::panels {

// One label per pixel row (`rows`) or pixel column of the grid. `tokens` are the query tokens
// for rows, the key tokens for columns; fewer than the window needs: positions alone.
std::vector<std::string> overview_axis_labels(const overview::PixelGrid& grid, bool rows,
                                              const std::vector<std::string>& tokens);

// The room above the image for its column labels, and the image's pixels across that leaves.
struct ColumnLabelRoom {
  float height = 0.0f;
  bool words = false;  // the labels carry their tokens ("32,427 dog"), else positions alone
  int pixels = 0;
};
// The words' room (`words_height`) while the asked window of cells fits in the pixels it leaves
// (`pixels_below(height)`), so the cells are exact and worth naming; else the room of positions
// alone (`numbers_height`, turned numbers such as "65,535"): pooled pixels have no word to
// show, and the image takes the rest. The choice depends on the asked window, never on what
// the pixels turn out to be, so it cannot flip back and forth.
ColumnLabelRoom column_label_room(int window_rows, int window_cols, float words_height, float numbers_height,
                                  const std::function<int(float)>& pixels_below);

// "query 32,427 “dog”, key 32,519 “sat”" for an exact cell, "queries 0–92, keys 93–185" for
// a pooled pixel (r, c).
std::string overview_cell_place(const overview::PixelGrid& grid, int r, int c,
                                const std::vector<std::string>& row_tokens, const std::vector<std::string>& col_tokens);

// "weight", "raw score", "scaled score": what one cell holds.
const char* quantity_text(overview::Quantity quantity);
// "the largest weight", "the mean of its visible scores": what one pooled pixel holds.
const char* pooling_text(overview::Pooling pooling, overview::Quantity quantity);

// The caption above the image in two parts: where the image lies ("head 0 · queries 0–65,535 ×
// keys 0–65,535") and what each pixel holds ("each pixel: 147 × 147 cells, the largest weight",
// "each pixel: one cell").
struct OverviewCaption {
  std::string where;
  std::string pixel;
  [[nodiscard]] std::string one_line() const { return where + " \xC2\xB7 " + pixel; }
};
OverviewCaption overview_caption(int head, const overview::PixelGrid& grid, overview::Pooling pooling,
                                 overview::Quantity quantity);
// The widest caption the overview of an n × m matrix with `heads` heads can show with this
// pooling and quantity (the largest numbers, the largest blocks, those of a 64-pixel image): a
// panel narrower than it shows the caption on two lines. Deciding from it rather than from the
// caption shown keeps the image where it is as one zooms or pans.
OverviewCaption widest_overview_caption(int heads, int n, int m, overview::Pooling pooling,
                                        overview::Quantity quantity);

}  // namespace attnviz::panels
