#include "app/heatmap/mask_cache.h"

#include <algorithm>

namespace attnviz::heatmap {
namespace {

// Masks kept (the least recently used goes first) and block grids kept per mask. A frame draws
// a few distinct masks (views share their problem's); twice that many never go while in use.
constexpr std::size_t kMasks = 16;
constexpr std::size_t kGridsPerMask = 96;

}  // namespace

MaskCache::Entry& MaskCache::entry(const MaskSetting& setting, int rows, int cols, int heads) {
  ++clock_;
  for (const auto& e : entries_) {
    if (e->rows == rows && e->cols == cols && e->heads == heads && e->setting == setting) {
      e->used = clock_;
      return *e;
    }
  }
  if (entries_.size() >= kMasks) {
    const auto oldest = std::min_element(entries_.begin(), entries_.end(),
                                         [](const auto& a, const auto& b) { return a->used < b->used; });
    entries_.erase(oldest);
  }
  auto made = std::make_unique<Entry>();
  made->setting = setting;
  made->rows = rows;
  made->cols = cols;
  made->heads = heads;
  made->mask = Mask(setting, rows, cols, heads);
  made->used = clock_;
  made->id = ++made_;
  entries_.push_back(std::move(made));
  return *entries_.back();
}

MaskCache::Found MaskCache::find(const MaskSetting& setting, int rows, int cols, int heads) {
  const Entry& e = entry(setting, rows, cols, heads);
  return {&e.mask, e.id};
}

const Mask& MaskCache::mask(const MaskSetting& setting, int rows, int cols, int heads) {
  return entry(setting, rows, cols, heads).mask;
}

const BlockGrid& MaskCache::blocks(const MaskSetting& setting, int rows, int cols, int heads, int head, int size) {
  Entry& e = entry(setting, rows, cols, heads);
  // A mask that does not depend on the head has one grid per size for every head.
  const int key_head = e.mask.depends_on_head() ? head : 0;
  const auto key = std::make_pair(key_head, size);
  auto found = e.grids.find(key);
  if (found == e.grids.end()) {
    if (e.grids.size() >= kGridsPerMask) e.grids.clear();
    found = e.grids.emplace(key, e.mask.block_grid(key_head, size)).first;
  }
  return found->second;
}

}  // namespace attnviz::heatmap
