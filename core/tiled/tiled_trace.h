#pragma once
// What the tiled algorithm did, tile by tile, for one head: every tile of the grid in visiting
// order (query block by query block, keys left to right), skipped or not, with each row's m
// and l before and after it, the rescale factor exp(m_old − m_new) and the unnormalised O
// after it. Both backends produce it (core/tiled for the CPU, core/gpu for Vulkan); the
// command line writes it as attnviz-tiled-trace/1 (docs/design.md "Traces"), the Tiled view
// steps through it.

#include <cstdint>
#include <vector>

#include "core/attention/mask.h"
#include "core/common/matrix.h"

namespace attnviz::tiled {

struct TileVisit {
  int qb = 0;
  int kb = 0;
  bool skipped = false;  // the mask hides the whole tile: nothing was computed
  BlockVisibility visibility = BlockVisibility::Full;
  // One entry per row of the block that exists (row_begin .. row_end − 1).
  std::vector<float> m_before, l_before, m_after, l_after;
  std::vector<float> rescale;  // exp(m_before − m_after) (1 for a row still empty)
  Matrix o_after;              // rows × d_v: O after this tile, not yet divided by l
};

struct TiledTrace {
  int head = 0;
  int kv_head = 0;
  int block_q = 1;
  int block_k = 1;
  float scale = 1.0f;
  std::vector<TileVisit> tiles;  // TileGrid::tile_index order
  Matrix context;                // N × d_v: O / l, 0 for rows that see nothing
  std::vector<float> m, l;       // per row, after the last tile
};

// How many floats a trace of these sizes holds (the command line refuses huge ones).
std::int64_t trace_floats(int rows, int cols, int block_q, int block_k, int d_v);

}  // namespace attnviz::tiled
