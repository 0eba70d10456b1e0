#pragma once
// The Tiled view's pieces (tiled_view.cpp puts them on the page): the score matrix cut into
// tiles, the query block's running m and l as bar charts with the rescale factors, and the
// memory line. Everything they show is read from core (tiled::TileStep, tiled::head_memory).

#include <string>
#include <vector>

#include "app/classroom/view_widgets.h"
#include "core/tiled/tile_grid.h"
#include "core/tiled/tile_step.h"
#include "core/tiled/tiled_trace.h"

namespace attnviz::classroom {

// The tiles drawn over the score matrix's cells (`cells`: their screen rectangle): block
// boundaries, tiles not visited yet washed out, skipped tiles marked, the current tile
// outlined, the current query block bracketed at the right, block numbers outside.
void draw_tile_overlay(const tiled::TileGrid& grid, const tiled::TiledTrace& trace, int current, const CellsRect& cells,
                       float ui_scale);

// One query block's rows: token, m before → after (bars), l before → after (bars), and the
// rescale factor exp(m_old − m_new). `m_range`, `l_range`: the bars' axes over the whole block
// (the bars keep their scale while stepping through it).
struct RowStateRanges {
  float m_low = 0.0f, m_high = 1.0f;
  float l_high = 1.0f;
};
RowStateRanges row_state_ranges(const tiled::TiledTrace& trace, const tiled::TileGrid& grid, int qb);
void draw_row_states(const tiled::TileStep& step, const std::vector<std::string>& tokens, const RowStateRanges& ranges,
                     float width, float ui_scale);

// The algorithm, a line a step, `width` pixels wide (under the scores, where the square
// matrix leaves room).
void draw_algorithm(float width);

// Memory per head: dense against tiled, for this sentence (float32) and for N = 4,096 and
// 131,072 at d = 128 in fp16, with the chosen tiles and with a GPU kernel's 64 × 64.
void draw_memory_line(int rows, int cols, int d_v, const tiled::TileGrid& grid, float width);

// "−∞", "0.412", "1.37e-08": a number for the row table.
std::string state_number(float value);

}  // namespace attnviz::classroom
