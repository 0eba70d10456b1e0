#include "core/decode/cache_plan.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace attnviz::decode {
namespace {

// last_use[j]: the last query that sees key j (−1 for a key no query sees: an expression may
// hide even the diagonal). Rows come in ascending order, so the last assignment wins.
std::vector<int> last_uses(const Mask& mask, int head) {
  std::vector<int> last_use(static_cast<std::size_t>(mask.cols()), -1);
  std::vector<KeySpan> scratch;
  for (int i = 0; i < mask.rows(); ++i) {
    for (const KeySpan& run : mask.runs(head, i, scratch)) {
      for (int j = run.begin; j < run.end; ++j) last_use[static_cast<std::size_t>(j)] = i;
    }
  }
  return last_use;
}

}  // namespace

CachePlan plan_cache(const Mask& mask, int head) {
  if (!mask.causal() || mask.rows() != mask.cols()) {
    throw std::invalid_argument("plan_cache: decoding needs a causal self-attention mask");
  }
  const std::vector<int> last_use = last_uses(mask, head);
  CachePlan plan;
  plan.steps.resize(static_cast<std::size_t>(mask.rows()));
  std::vector<int> slot_of(last_use.size(), -1);
  std::set<int> free_slots;  // slots emptied by evictions, lowest reused first
  std::vector<int> held;     // ascending
  for (int t = 0; t < mask.rows(); ++t) {
    CacheStep& step = plan.steps[static_cast<std::size_t>(t)];
    // Rows whose last use was the previous step leave before row t takes a slot: with a
    // window r, row t lands in the slot of row t − r − 1 (slot t mod (r + 1)).
    std::vector<int> kept;
    for (const int j : held) {
      if (last_use[static_cast<std::size_t>(j)] >= t) {
        kept.push_back(j);
      } else {
        step.evicted.push_back(j);
        free_slots.insert(slot_of[static_cast<std::size_t>(j)]);
      }
    }
    int slot = plan.capacity;
    if (!free_slots.empty()) {
      slot = *free_slots.begin();
      free_slots.erase(free_slots.begin());
    } else {
      ++plan.capacity;
    }
    slot_of[static_cast<std::size_t>(t)] = slot;
    kept.push_back(t);
    held = std::move(kept);
    step.keys = held;
    for (const int j : held) step.slots.push_back(slot_of[static_cast<std::size_t>(j)]);
  }
  return plan;
}

}  // namespace attnviz::decode
