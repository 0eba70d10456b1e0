#pragma once
// Internal to core/tiled: the CPU loop over one head's tiles, on its Q, K and V.

#include <Eigen/Core>

#include "core/attention/mask.h"
#include "core/tiled/tile_grid.h"
#include "core/tiled/tiled_attention.h"

namespace attnviz::tiled {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
// A head's block of columns inside the projections (Q_h in X·W_Q, ...): no copy.
using ColumnBlock = Eigen::Map<const RowMajor, 0, Eigen::OuterStride<>>;

struct HeadOperands {
  ColumnBlock q;  // N × d_k
  ColumnBlock k;  // M × d_k
  ColumnBlock v;  // M × d_v
};

// Fills `out` (context N × d_v, m, l) and, when `trace` is given, every tile's visit.
void tiled_head(const HeadOperands& head, const Mask& mask, float scale, const TileGrid& grid, TiledHead& out,
                TiledTrace* trace);

}  // namespace attnviz::tiled
