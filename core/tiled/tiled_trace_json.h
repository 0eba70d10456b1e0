#pragma once
// A tiled trace as the attnviz-tiled-trace/1 JSON of docs/design.md ("Traces"): every tile in
// visiting order with qb, kb, skipped and each row's m and l after it, then the context. A row
// that has seen no visible key yet has m = −∞, written null (JSON has no infinity).

#include <nlohmann/json.hpp>

#include "core/tiled/tiled_trace.h"

namespace attnviz::tiled {

nlohmann::ordered_json tiled_trace_to_json(const TiledTrace& trace);

}  // namespace attnviz::tiled
