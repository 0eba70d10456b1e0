#pragma once
// One tile of a trace as the Tiled view shows it (app/classroom/tiled_view.cpp): where it lies,
// the running m and l of its query block before and after it, the rescale factors, the
// unnormalised O before and after it, O / l so far (the block's context over the keys seen up
// to this tile), the dense computation's context rows beside it, and their difference. After
// the block's last tile O / l is the context, and the difference is the tiled algorithm's
// rounding against the materialised path (within 1e-5).
//
// Everything is read from the trace (TiledTrace: core/tiled) and the dense context; the view
// only draws it.

#include "core/common/matrix.h"
#include "core/tiled/tile_grid.h"
#include "core/tiled/tiled_trace.h"

namespace attnviz::tiled {

struct TileStep {
  int index = 0;  // in visiting order
  int qb = 0, kb = 0;
  int row_begin = 0, row_end = 0;  // the query block's rows
  int col_begin = 0, col_end = 0;  // the tile's keys
  bool skipped = false;
  BlockVisibility visibility = BlockVisibility::Full;
  bool first_of_block = false;                                       // O before is 0 and m = −∞: nothing seen yet
  bool last_of_block = false;                                        // O / l after it is the block's context
  std::vector<float> m_before, l_before, m_after, l_after, rescale;  // per row of the block
  Matrix o_before;                                                   // rows × d_v, unnormalised
  Matrix o_after;                                                    // rows × d_v, unnormalised
  Matrix running;     // rows × d_v: O / l after the tile (0 for a row that saw nothing)
  Matrix dense;       // rows × d_v: the dense context of the same rows
  Matrix difference;  // running − dense
  double max_abs_difference = 0.0;
};

// `grid`: the one the trace walked; `dense_context`: N × d_v, the materialised path's context
// of the traced head. Throws std::out_of_range for a tile outside the trace and
// std::invalid_argument when the grid or the dense context does not match the trace.
TileStep tile_step(const TiledTrace& trace, const TileGrid& grid, int tile, const Matrix& dense_context);

// The largest |tiled context − dense context| over the whole head (after every tile).
double context_difference(const TiledTrace& trace, const Matrix& dense_context);

}  // namespace attnviz::tiled
