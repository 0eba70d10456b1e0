#pragma once
// The heatmaps' Masks, made once per (setting, rows, cols, heads) and kept while they are asked
// for: a mask with an expression costs its bisection once, and a block grid its pass over the
// runs once, not every frame. The one place masks are made for drawing: the renderer hatches
// cells with them (uploading each one's table once, by its id) and the overlays read them (in-cell
// numbers, the block-sparsity tiles). Owned by the HeatmapRenderer (one per window), never a static.

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "core/attention/mask.h"
#include "core/scenario/scenario.h"

namespace attnviz::heatmap {

class MaskCache {
 public:
  // A mask and the number it was made under. A mask made again after it went has a new number,
  // so what is kept for it elsewhere (the renderer's uploaded table) is never taken for another's.
  struct Found {
    const Mask* mask = nullptr;
    std::uint64_t id = 0;
  };
  Found find(const MaskSetting& setting, int rows, int cols, int heads);
  const Mask& mask(const MaskSetting& setting, int rows, int cols, int heads);
  // Every size × size tile of head `head`'s mask (Mask::block_grid).
  const BlockGrid& blocks(const MaskSetting& setting, int rows, int cols, int heads, int head, int size);

 private:
  struct Entry {
    MaskSetting setting;
    int rows = 0, cols = 0, heads = 0;
    Mask mask;
    std::map<std::pair<int, int>, BlockGrid> grids;  // (head, size)
    std::uint64_t used = 0;
    std::uint64_t id = 0;
  };
  Entry& entry(const MaskSetting& setting, int rows, int cols, int heads);

  std::vector<std::unique_ptr<Entry>> entries_;  // a few: the masks of the views open now
  std::uint64_t clock_ = 0;
  std::uint64_t made_ = 0;  // masks made so far: the next one's id
};

}  // namespace attnviz::heatmap
