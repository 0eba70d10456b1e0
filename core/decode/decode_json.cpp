#include "core/decode/decode_json.h"

#include <cmath>

#include "core/common/float_text.h"

namespace attnviz::decode {
namespace {

using Json = nlohmann::ordered_json;

// Floats in their shortest round-trip text; −∞ (a score the mask hides) as null.
Json floats(const std::vector<float>& values) {
  Json list = Json::array();
  for (const float value : values) list.push_back(std::isfinite(value) ? Json(json_number(value)) : Json(nullptr));
  return list;
}

Json work_json(const Work& step, const Work& so_far) {
  return {{"macs", step.macs}, {"bytes", step.bytes}, {"macs_so_far", so_far.macs}, {"bytes_so_far", so_far.bytes}};
}

Json step_json(const DecodeStep& step) {
  Json json = {{"t", step.t},
               {"token", step.token},
               {"prefill", step.prefill},
               {"q", floats(step.q)},
               {"k", floats(step.k)},
               {"v", floats(step.v)},
               {"keys", step.cache.keys},
               {"scores", floats(step.scores)},
               {"weights", floats(step.weights)},
               {"context", floats(step.context)},
               {"cache_len", step.cache.keys.size()},
               {"cost",
                {{"with_cache", work_json(step.cost.with_cache, step.cost.with_cache_so_far)},
                 {"without_cache", work_json(step.cost.without_cache, step.cost.without_cache_so_far)}}},
               {"slots", step.cache.slots},
               {"evicted", step.cache.evicted}};
  if (!step.weights_before_dropout.empty()) json["weights_before_dropout"] = floats(step.weights_before_dropout);
  return json;
}

Json mask_json(const MaskSetting& mask) {
  Json json = {{"causal", mask.causal}};
  if (mask.window) json["window"] = *mask.window;
  if (!mask.global.empty()) json["global"] = mask.global;
  if (!mask.expression.empty()) json["expression"] = mask.expression;
  if (!mask.documents.empty()) json["documents"] = mask.documents;
  return json;
}

}  // namespace

nlohmann::ordered_json decode_trace_to_json(const DecodeTrace& trace) {
  Json steps = Json::array();
  for (const DecodeStep& step : trace.steps) steps.push_back(step_json(step));
  return {{"format", "attnviz-decode-trace/1"},
          {"head", trace.head},
          {"prompt", trace.prompt},
          {"kv_head", trace.kv_head},
          {"heads_sharing_cache", trace.heads_sharing_cache},
          {"mask", mask_json(trace.mask)},
          {"cache_capacity", trace.cache_capacity},
          {"steps", std::move(steps)}};
}

}  // namespace attnviz::decode
