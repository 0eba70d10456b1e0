#include "core/tiled/tile_grid.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace attnviz::tiled {

TileGrid::TileGrid(int n, int m, int br, int bc) : rows(n), cols(m), block_q(br), block_k(bc) {
  if (br < 1 || bc < 1) {
    throw std::invalid_argument("tiled attention: block sizes must be at least 1, got Br = " + std::to_string(br) +
                                ", Bc = " + std::to_string(bc));
  }
  if (n < 1 || m < 1) throw std::invalid_argument("tiled attention: no queries or no keys");
}

int TileGrid::row_end(int qb) const { return std::min(rows, (qb + 1) * block_q); }
int TileGrid::col_end(int kb) const { return std::min(cols, (kb + 1) * block_k); }

std::vector<BlockVisibility> classify_tiles(const TileGrid& grid, const Mask& mask, int head) {
  std::vector<BlockVisibility> kinds;
  kinds.reserve(static_cast<std::size_t>(grid.tile_count()));
  for (int qb = 0; qb < grid.query_blocks(); ++qb) {
    for (int kb = 0; kb < grid.key_blocks(); ++kb) {
      kinds.push_back(
          mask.classify_block(head, grid.row_begin(qb), grid.row_end(qb), grid.col_begin(kb), grid.col_end(kb)));
    }
  }
  return kinds;
}

}  // namespace attnviz::tiled
