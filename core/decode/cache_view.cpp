#include "core/decode/cache_view.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace attnviz::decode {

CacheView cache_view(const DecodeTrace& trace, int t, bool whole_buffer, int written_from) {
  if (t < 0 || t >= static_cast<int>(trace.steps.size())) {
    throw std::out_of_range("cache_view: step " + std::to_string(t) + " of " + std::to_string(trace.steps.size()));
  }
  const DecodeStep& step = trace.steps[static_cast<std::size_t>(t)];
  const CacheStep& cache = step.cache;
  int slots = 0;
  for (const int slot : cache.slots) slots = std::max(slots, slot + 1);
  if (whole_buffer) slots = std::max(slots, trace.cache_capacity);
  CacheView view;
  view.t = t;
  view.slots.resize(static_cast<std::size_t>(slots));
  for (std::size_t n = 0; n < cache.keys.size(); ++n) {
    const int key = cache.keys[n];
    CacheSlot& slot = view.slots[static_cast<std::size_t>(cache.slots[n])];
    const DecodeStep& written_at = trace.steps[static_cast<std::size_t>(key)];
    slot.key = key;
    slot.written = key >= written_from;
    slot.visible = std::isfinite(step.scores[n]);
    slot.score = slot.visible ? step.scores[n] : 0.0f;
    slot.weight = step.weights[n];
    slot.k = written_at.k;
    slot.v = written_at.v;
  }
  if (!whole_buffer) {  // slots in use only: drop the empty ones a freed slot left
    view.slots.erase(std::remove_if(view.slots.begin(), view.slots.end(), [](const CacheSlot& s) { return s.key < 0; }),
                     view.slots.end());
  }
  view.evicted = cache.evicted;
  for (const int key : cache.evicted) {
    view.evicted_k.push_back(trace.steps[static_cast<std::size_t>(key)].k);
    view.evicted_v.push_back(trace.steps[static_cast<std::size_t>(key)].v);
  }
  return view;
}

}  // namespace attnviz::decode
