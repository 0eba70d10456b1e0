// Writing attnviz-scenario/1: keys in the order of docs/design.md, one matrix row per line
// (readable_json), floats in their shortest form that reads back to the same float (so
// save → load is bit exact).

#include "core/common/atomic_file.h"
#include "core/common/json_text.h"
#include "core/scenario/positions.h"
#include "core/scenario/scenario_json.h"

namespace attnviz {
namespace {

using Json = nlohmann::ordered_json;

Json scale_json(const ScaleSetting& scale) {
  switch (scale.kind) {
    case ScaleSetting::Kind::InvSqrtDk: return "inv_sqrt_dk";
    case ScaleSetting::Kind::None: return "none";
    case ScaleSetting::Kind::Value: return scale.value;
  }
  return "inv_sqrt_dk";
}

Json mask_json(const MaskSetting& mask) {
  Json m = Json::object();
  m["causal"] = mask.causal;
  if (mask.window) m["window"] = *mask.window;
  if (!mask.global.empty()) m["global"] = mask.global;
  if (!mask.expression.empty()) m["expression"] = mask.expression;
  if (!mask.documents.empty()) m["documents"] = mask.documents;
  return m;
}

Json source_json(const SourceSetting& source) {
  Json s = Json::object();
  s["sentence"] = source.sentence;
  s["tokenizer"] = to_string(source.tokenizer);
  if (source.tokens) s["tokens"] = *source.tokens;
  if (source.embeddings) s["embeddings"] = matrix_to_json(*source.embeddings);
  return s;
}

}  // namespace

std::string scenario_to_json(const Scenario& s) {
  Json j = Json::object();
  j["format"] = "attnviz-scenario/1";
  if (!s.title.empty()) j["title"] = s.title;
  j["sentence"] = s.sentence;
  j["tokenizer"] = to_string(s.tokenizer);
  if (s.tokens) j["tokens"] = *s.tokens;
  j["d_model"] = s.d_model;
  if (s.embeddings) j["embeddings"] = matrix_to_json(*s.embeddings);
  j["seed"] = s.seed;
  j["num_heads"] = s.num_heads;
  j["num_kv_heads"] = s.num_kv_heads;
  j["d_k"] = s.d_k;
  j["d_v"] = s.d_v;
  if (s.wq) j["wq"] = matrix_to_json(*s.wq);
  if (s.wk) j["wk"] = matrix_to_json(*s.wk);
  if (s.wv) j["wv"] = matrix_to_json(*s.wv);
  if (s.wo) j["wo"] = matrix_to_json(*s.wo);
  if (s.generate_wo) j["generate_wo"] = true;
  j["scale"] = scale_json(s.scale);
  j["mask"] = mask_json(s.mask);
  if (s.source) j["source"] = source_json(*s.source);
  // Positions and dropout only when set: a scenario without them reads as it did before.
  if (s.positional != PositionalKind::None) j["positional"] = to_string(s.positional);
  if (s.positional == PositionalKind::Rope || s.rope_theta != 10000.0) j["rope_theta"] = s.rope_theta;
  if (s.position_offset != 0) j["position_offset"] = s.position_offset;
  if (s.dropout) j["dropout"] = Json{{"p", s.dropout->p}, {"seed", s.dropout->seed}};
  return readable_json(j);
}

void save_scenario(const Scenario& scenario, const std::filesystem::path& path, WriteOptions options) {
  write_file_atomically(path, scenario_to_json(scenario), options);
}

}  // namespace attnviz
