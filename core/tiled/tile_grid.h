#pragma once
// The grid of tiles the tiled (FlashAttention) algorithm walks: blocks of Br query rows by
// blocks of Bc keys over an N × M score matrix. Any positive Br and Bc: the last block of a
// row or column holds what is left (tiles at the edges are the cells that exist). Pure
// arithmetic, shared by the CPU loop, the Vulkan kernel's host side, the traces and the view.

#include <vector>

#include "core/attention/mask.h"

namespace attnviz::tiled {

struct TileGrid {
  int rows = 0;     // N, query rows
  int cols = 0;     // M, keys
  int block_q = 1;  // Br as asked for (may exceed N)
  int block_k = 1;  // Bc as asked for (may exceed M)

  // Throws std::invalid_argument for a block size below 1 or an empty matrix.
  TileGrid(int rows, int cols, int block_q, int block_k);

  [[nodiscard]] int query_blocks() const { return (rows + block_q - 1) / block_q; }
  [[nodiscard]] int key_blocks() const { return (cols + block_k - 1) / block_k; }
  [[nodiscard]] int tile_count() const { return query_blocks() * key_blocks(); }
  [[nodiscard]] int row_begin(int qb) const { return qb * block_q; }
  [[nodiscard]] int row_end(int qb) const;
  [[nodiscard]] int col_begin(int kb) const { return kb * block_k; }
  [[nodiscard]] int col_end(int kb) const;
  // The rows a block can have: Br, or N when N < Br (every traced block is at most this tall).
  [[nodiscard]] int block_rows() const { return block_q < rows ? block_q : rows; }
  // Tiles are visited query block by query block, keys left to right: index qb·KB + kb.
  [[nodiscard]] int tile_index(int qb, int kb) const { return qb * key_blocks() + kb; }
};

// What the mask leaves of each tile, in visiting order (Mask::classify_block: hidden tiles are
// the ones every kernel skips).
std::vector<BlockVisibility> classify_tiles(const TileGrid& grid, const Mask& mask, int head = 0);

}  // namespace attnviz::tiled
