#pragma once
// attnviz-decode-trace/1 (docs/design.md "Traces"): the pinned fields of every step, and
// besides them (new fields, as the contract allows) the cache head and the query heads
// sharing it, the mask decoded under, the buffer's capacity, each held row's slot, the rows
// evicted, and the costs summed so far.

#include <nlohmann/json.hpp>

#include "core/decode/decoder.h"

namespace attnviz::decode {

nlohmann::ordered_json decode_trace_to_json(const DecodeTrace& trace);

}  // namespace attnviz::decode
