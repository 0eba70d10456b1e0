#pragma once
// What the overview's axes and tooltip say (overview_view.cpp). A text past 4,096 tokens is too
// long for a word alone to say where a row is, so every label carries its position: exact
// cells "32,427 dog", pooled pixels the first position of their block, "16,384".

#include <functional>
#include <string>
#include <vector>

#include "core/overview/pixel_grid.h"

namespace attnviz::panels {

// One label per pixel row (`rows`) or pixel column of the grid. `tokens` are the query tokens
// for rows, the key tokens for columns; fewer than the window needs: positions alone.
std::vector<std::string> overview_axis_labels(const overview::PixelGrid& grid, bool rows, const std::vector<std::string>& tokens);

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
std::string overview_cell_place(const overview::PixelGrid& grid, int r, int c, const std::vector<std::string>& row_tokens,
                                const std::vector<std::string>& col_tokens);

}  // namespace attnviz::panels
