#pragma once
// The KV cache at one decoding step as its buffer holds it, slot by slot, for the Decode view
// (app/classroom/decode_view.cpp): which row each slot holds, its k and v, whether it was
// written at this step or reused, and the row's score and weight; and the rows that leave the
// cache at this step. Read from a DecodeTrace (decoder.h); nothing is computed again.

#include <vector>

#include "core/decode/decoder.h"

namespace attnviz::decode {

struct CacheSlot {
  int key = -1;          // the sentence position held; −1: an empty slot (the buffer is not full yet)
  bool written = false;  // k and v were written at this step (reused from an earlier step otherwise)
  bool visible = false;  // the step's query sees it (false: held for a later global query)
  float score = 0.0f;    // scaled score (meaningful when visible)
  float weight = 0.0f;
  std::vector<float> k;  // d_k (empty for an empty slot)
  std::vector<float> v;  // d_v
};

struct CacheView {
  int t = 0;
  std::vector<CacheSlot> slots;  // buffer order
  std::vector<int> evicted;      // rows that left at this step, ascending
  std::vector<std::vector<float>> evicted_k, evicted_v;
};

// The cache after step t. `whole_buffer`: every slot of the buffer (cache_capacity of them,
// empty ones included), for a rolling buffer; otherwise only the slots in use (the cache that
// grows a row a step). Rows with key ≥ `written_from` count as written at this step (t for a
// decoding step, 0 for the prompt's prefill, which writes all its rows at once). Throws
// std::out_of_range for a t outside the trace.
CacheView cache_view(const DecodeTrace& trace, int t, bool whole_buffer, int written_from);

}  // namespace attnviz::decode
