#include "core/heads/heads_json.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace attnviz::heads {
namespace {

using Json = nlohmann::ordered_json;

Json number(double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); }
Json number(const std::optional<double>& value) { return value ? number(*value) : Json(nullptr); }
Json index(int value) { return value >= 0 ? Json(value) : Json(nullptr); }

std::string dump(const Json& json) { return json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"; }

Json text_json(const std::string& format, const tokenizers::Encoding& text) {
  Json json;
  json["format"] = format;
  json["ids"] = text.ids;
  json["tokens"] = text.tokens;
  return json;
}

}  // namespace

std::string heads_json(const tokenizers::Encoding& text, const RepeatProbe* probe, const std::vector<int>& layers,
                       const std::vector<std::vector<HeadScores>>& roles) {
  Json json = text_json("attnviz-heads/1", text);
  json["prefix"] = probe ? Json(probe->prefix) : Json(nullptr);
  json["repeat"] = probe ? Json(probe->repeat) : Json(nullptr);
  Json& out_layers = json["layers"] = Json::array();
  for (std::size_t l = 0; l < roles.size(); ++l) {
    Json heads = Json::array();
    for (std::size_t h = 0; h < roles[l].size(); ++h) {
      const HeadScores& s = roles[l][h];
      heads.push_back({{"head", h},
                       {"previous_token", number(s.previous_token)},
                       {"first_token", number(s.first_token)},
                       {"self", number(s.self)},
                       {"induction", number(s.induction)},
                       {"duplicate", number(s.duplicate)},
                       {"entropy", number(s.entropy)},
                       {"mean_distance", number(s.mean_distance)}});
    }
    out_layers.push_back({{"layer", layers[l]}, {"heads", heads}});
  }
  return dump(json);
}

std::string lens_json(const tokenizers::Encoding& text, const LogitLens& lens) {
  Json json = text_json("attnviz-lens/1", text);
  Json& out_layers = json["layers"] = Json::array();
  for (std::size_t l = 0; l < lens.cells.size(); ++l) {
    Json positions = Json::array();
    for (const LensCell& cell : lens.cells[l]) {
      Json top = Json::array();
      for (const LensToken& token : cell.top) top.push_back({{"id", token.id}, {"token", token.token}, {"p", token.p}});
      positions.push_back({{"top", top},
                           {"p_next", number(cell.p_next)},
                           {"rank_next", cell.rank_next ? Json(*cell.rank_next) : Json(nullptr)}});
    }
    out_layers.push_back({{"layer", l}, {"positions", positions}});
  }
  return dump(json);
}

std::string attribution_json(const Attribution& a) {
  Json json;
  json["format"] = "attnviz-attribution/1";
  json["position"] = a.position;
  json["target"] = {{"id", a.target}, {"token", a.target_token}};
  json["logit"] = number(a.logit);
  Json& components = json["components"] = Json::array();
  for (const AttributionPart& part : a.parts) {
    components.push_back({{"kind", part_kind_name(part.kind)},
                          {"layer", index(part.layer)},
                          {"head", index(part.head)},
                          {"value", number(part.value)}});
  }
  return dump(json);
}

std::string patching_json(const tokenizers::Encoding& clean, const tokenizers::Encoding& corrupted, const Patching& p) {
  Json json = text_json("attnviz-patching/1", clean);
  json["corrupted_ids"] = corrupted.ids;
  json["corrupted_tokens"] = corrupted.tokens;
  json["position"] = p.position;
  json["patch_positions"] = p.patched_position ? Json(*p.patched_position) : Json("all");
  json["target"] = {{"id", p.target}, {"token", p.target_token}};
  json["clean_logit"] = number(p.clean_logit);
  json["corrupted_logit"] = number(p.corrupted_logit);
  json["logit_difference"] = number(p.clean_logit - p.corrupted_logit);
  Json& layers = json["layers"] = Json::array();
  for (std::size_t l = 0; l < p.patched.size(); ++l) {
    Json heads = Json::array();
    for (std::size_t h = 0; h < p.patched[l].size(); ++h) {
      heads.push_back({{"head", h},
                       {"patched_logit", number(p.patched[l][h])},
                       {"effect", number(p.patched[l][h] - p.clean_logit)}});
    }
    layers.push_back({{"layer", l}, {"heads", heads}});
  }
  return dump(json);
}

}  // namespace attnviz::heads
