#pragma once
// Internal to core/tiled: the CPU loop over one head's tiles, on its Q, K and V.

#include <Eigen/Core>

#include "core/attention/mask.h"
#include "core/scenario/dropout.h"
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
  int index = 0;  // the query head h (its mask, when the mask depends on the head)
};

// What a head's scores and weights go through besides the mask: the scale, ALiBi's slope
// (0 without ALiBi) and dropout (applied to each tile's P before O += P·V, after l has summed
// P: so O / l is the context of the dropped-out weights, as on the materialised path).
struct HeadRules {
  int head = 0;
  float scale = 1.0f;
  float slope = 0.0f;
  DropoutRule dropout;
};

// Shapes `out` (context N × d_v, m, l) and the trace's tiles for one head.
void prepare_head(const TileGrid& grid, int d_v, TiledHead& out, TiledTrace* trace);
// Query block qb of one head: its rows of `out` and, when `trace` is given, its tiles' visits.
// Blocks are independent (FlashAttention-2's outer loop runs them in parallel too): each writes
// only its own rows and tiles.
void tiled_query_block(const HeadOperands& head, const Mask& mask, const HeadRules& rules, const TileGrid& grid, int qb,
                       TiledHead& out, TiledTrace* trace);

}  // namespace attnviz::tiled
