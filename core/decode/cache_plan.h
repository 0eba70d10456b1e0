#pragma once
// Which key rows the KV cache holds at each decoding step, and in which slot of its buffer.
//
// Under a causal mask, key row j enters the cache at step j and is needed until its last use,
// the last query i ≥ j that sees it. Row j is held at step t when j ≤ t ≤ last_use(j), so the
// cache holds exactly what the remaining steps will read (docs/decode.md "Which rows the cache
// holds"):
//   - no window: every row is used by every later query: the cache grows by one row a step;
//   - a window r: last_use(j) = j + r, the cache is a rolling buffer of r + 1 slots and step t
//     evicts row t − r − 1, whose slot row t takes;
//   - global tokens: a global key is seen by every later query, so it is pinned until the end;
//     a global query sees every earlier key, so nothing before it is evicted until it has run.

#include <vector>

#include "core/attention/mask.h"

namespace attnviz::decode {

struct CacheStep {
  std::vector<int> keys;     // rows held once row t is in, ascending (t among them)
  std::vector<int> slots;    // the buffer slot of each of `keys`
  std::vector<int> evicted;  // rows held at step t − 1 and gone at step t, ascending
};

struct CachePlan {
  std::vector<CacheStep> steps;  // one per query row
  int capacity = 0;              // slots the buffer needs: the most rows held at once
};

// `mask` must be causal and square (self-attention); throws std::invalid_argument otherwise.
// `head`: whose rows to plan for (when the mask depends on the head).
CachePlan plan_cache(const Mask& mask, int head = 0);

}  // namespace attnviz::decode
