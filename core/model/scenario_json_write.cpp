// Writing attnviz-scenario/1: keys in the order of DESIGN.md, one matrix row per line, floats
// in their shortest form that reads back to the same float (so save → load is bit exact).

#include <nlohmann/json.hpp>

#include "core/common/atomic_file.h"
#include "core/common/float_text.h"
#include "core/model/scenario_json.h"

namespace attnviz {
namespace {

using nlohmann::json;

std::string matrix_text(const Matrix& m, const std::string& indent) {
  std::string text = "[\n";
  for (int r = 0; r < m.rows; ++r) {
    json row = json::array();
    for (int c = 0; c < m.cols; ++c) row.push_back(json_number(m.at(r, c)));
    std::string line = row.dump();
    // nlohmann writes "[1.0,2.0]"; a space after commas reads better in an editor.
    std::string spaced;
    for (const char ch : line) {
      spaced += ch;
      if (ch == ',') spaced += ' ';
    }
    text += indent + "  " + spaced + (r + 1 < m.rows ? ",\n" : "\n");
  }
  return text + indent + "]";
}

// Collects "key": value lines of one JSON object.
class ObjectWriter {
 public:
  explicit ObjectWriter(std::string indent) : indent_(std::move(indent)) {}
  void value(const std::string& key, const json& v) { raw(key, v.dump()); }
  void matrix(const std::string& key, const std::optional<Matrix>& m) {
    if (m) raw(key, matrix_text(*m, indent_ + "  "));
  }
  void raw(const std::string& key, const std::string& text) {
    lines_.push_back(indent_ + "  " + json(key).dump() + ": " + text);
  }
  [[nodiscard]] std::string text() const {
    std::string out = "{\n";
    for (std::size_t i = 0; i < lines_.size(); ++i) out += lines_[i] + (i + 1 < lines_.size() ? ",\n" : "\n");
    return out + indent_ + "}";
  }

 private:
  std::string indent_;
  std::vector<std::string> lines_;
};

json scale_json(const ScaleSetting& scale) {
  switch (scale.kind) {
    case ScaleSetting::Kind::InvSqrtDk: return "inv_sqrt_dk";
    case ScaleSetting::Kind::None: return "none";
    case ScaleSetting::Kind::Value: return scale.value;
  }
  return "inv_sqrt_dk";
}

std::string mask_text(const MaskSetting& mask) {
  std::string text = std::string("{\"causal\": ") + (mask.causal ? "true" : "false");
  if (mask.window) text += ", \"window\": " + std::to_string(*mask.window);
  if (!mask.global.empty()) text += ", \"global\": " + json(mask.global).dump();
  return text + "}";
}

std::string source_text(const SourceSetting& source) {
  ObjectWriter w("  ");
  w.value("sentence", source.sentence);
  w.value("tokenizer", to_string(source.tokenizer));
  if (source.tokens) w.value("tokens", *source.tokens);
  w.matrix("embeddings", source.embeddings);
  return w.text();
}

}  // namespace

std::string scenario_to_json(const Scenario& s) {
  ObjectWriter w("");
  w.value("format", "attnviz-scenario/1");
  if (!s.title.empty()) w.value("title", s.title);
  w.value("sentence", s.sentence);
  w.value("tokenizer", to_string(s.tokenizer));
  if (s.tokens) w.value("tokens", *s.tokens);
  w.value("d_model", s.d_model);
  w.matrix("embeddings", s.embeddings);
  w.value("seed", s.seed);
  w.value("num_heads", s.num_heads);
  w.value("num_kv_heads", s.num_kv_heads);
  w.value("d_k", s.d_k);
  w.value("d_v", s.d_v);
  w.matrix("wq", s.wq);
  w.matrix("wk", s.wk);
  w.matrix("wv", s.wv);
  w.matrix("wo", s.wo);
  if (s.generate_wo) w.value("generate_wo", true);
  w.value("scale", scale_json(s.scale));
  w.raw("mask", mask_text(s.mask));
  if (s.source) w.raw("source", source_text(*s.source));
  return w.text() + "\n";
}

void save_scenario(const Scenario& scenario, const std::filesystem::path& path) {
  write_file_atomically(path, scenario_to_json(scenario));
}

}  // namespace attnviz
