#include "core/tiled/tiled_trace_json.h"

#include <cmath>

#include "core/common/float_text.h"
#include "core/common/json_text.h"

namespace attnviz::tiled {
namespace {

using Json = nlohmann::ordered_json;

Json numbers(const std::vector<float>& values) {
  Json list = Json::array();
  for (const float v : values) list.push_back(std::isfinite(v) ? Json(json_number(v)) : Json(nullptr));
  return list;
}

}  // namespace

Json tiled_trace_to_json(const TiledTrace& trace) {
  Json tiles = Json::array();
  for (const TileVisit& tile : trace.tiles) {
    Json entry;
    entry["qb"] = tile.qb;
    entry["kb"] = tile.kb;
    entry["skipped"] = tile.skipped;
    entry["m"] = numbers(tile.m_after);
    entry["l"] = numbers(tile.l_after);
    tiles.push_back(std::move(entry));
  }
  Json json;
  json["format"] = "attnviz-tiled-trace/1";
  json["head"] = trace.head;
  json["block_q"] = trace.block_q;
  json["block_k"] = trace.block_k;
  json["tiles"] = std::move(tiles);
  json["context"] = matrix_to_json(trace.context);
  return json;
}

}  // namespace attnviz::tiled
