#include "core/model/generate_json.h"

#include <nlohmann/json.hpp>

#include <cmath>

#include "core/common/float_text.h"

namespace attnviz::model {
namespace {

using Json = nlohmann::ordered_json;

Json row(const Matrix& m, int r) {
  Json values = Json::array();
  for (int j = 0; j < m.cols; ++j)
    values.push_back(std::isfinite(m.at(r, j)) ? Json(json_number(m.at(r, j))) : Json(nullptr));
  return values;
}

Json step_json(const GenerationStep& step) {
  Json out;
  out["token"] = step.token;
  out["id"] = step.id;
  out["query_position"] = step.query_position;
  out["query_token"] = step.query_token;
  out["first_cached"] = step.first_cached;
  out["cache_length"] = step.cache_length;
  out["cache_bytes"] = step.cache_bytes;
  Json next = Json::array();
  for (const TokenProbability& t : step.next_tokens)
    next.push_back({{"id", t.id}, {"token", t.token}, {"p", t.p}, {"logit", json_number(t.logit)}});
  out["next_tokens"] = std::move(next);
  Json layers = Json::array();
  for (const StepAttention& layer : step.layers) {
    Json heads = Json::array();
    for (int h = 0; h < layer.weights.rows; ++h)
      heads.push_back({{"scores", row(layer.scores, h)}, {"weights", row(layer.weights, h)}});
    layers.push_back({{"layer", layer.layer}, {"heads", std::move(heads)}});
  }
  out["layers"] = std::move(layers);
  return out;
}

}  // namespace

std::string generation_json(const Model& model, const Generation& g) {
  const ModelConfig& c = model.config();
  Json root;
  root["model"] = {
      {"path", model.path()}, {"architecture", c.architecture_name}, {"family", c.family()},  {"layers", c.num_layers},
      {"heads", c.num_heads}, {"kv_heads", c.num_kv_heads},          {"head_dim", c.head_dim}};
  root["tokens"] = g.tokens();
  root["ids"] = g.ids();
  root["prompt_length"] = g.prompt_ids.size();
  root["stop"] = to_string(g.stop);
  root["sliding_window"] = c.sliding_window ? Json(*c.sliding_window) : Json(nullptr);
  Json steps = Json::array();
  for (const GenerationStep& step : g.steps) steps.push_back(step_json(step));
  root["steps"] = std::move(steps);
  return root.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace attnviz::model
