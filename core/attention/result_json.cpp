#include "core/attention/result_json.h"

#include <nlohmann/json.hpp>

#include "core/common/error.h"
#include "core/common/json_text.h"

namespace attnviz {
namespace {

using Json = nlohmann::ordered_json;

Json mask_json(const MaskMatrix& mask) {
  Json rows = Json::array();
  for (int r = 0; r < mask.rows; ++r) {
    Json row = Json::array();
    for (int c = 0; c < mask.cols; ++c) row.push_back(mask.at(r, c) ? 1 : 0);
    rows.push_back(std::move(row));
  }
  return rows;
}

// Reading back, for tests and tools: strict about shapes, naming the pointer on error.
class Reader {
 public:
  explicit Reader(std::string origin) : origin_(std::move(origin)) {}

  [[noreturn]] void fail(const std::string& pointer, const std::string& problem) const {
    throw InputError(origin_, pointer, problem);
  }

  const Json& field(const Json& object, const std::string& pointer, const char* key) const {
    if (!object.is_object() || !object.contains(key)) fail(pointer + "/" + key, "missing");
    return object.at(key);
  }

  Matrix matrix(const Json& value, const std::string& pointer) const {
    if (!value.is_array()) fail(pointer, "expected a list of rows");
    Matrix m;
    m.rows = static_cast<int>(value.size());
    for (std::size_t r = 0; r < value.size(); ++r) {
      const Json& row = value[r];
      const std::string row_pointer = pointer + "/" + std::to_string(r);
      if (!row.is_array()) fail(row_pointer, "expected a list of numbers");
      if (r == 0) m.cols = static_cast<int>(row.size());
      if (static_cast<int>(row.size()) != m.cols) fail(row_pointer, "rows have different lengths");
      for (std::size_t c = 0; c < row.size(); ++c) {
        if (!row[c].is_number()) fail(row_pointer + "/" + std::to_string(c), "expected a number");
        m.data.push_back(row[c].get<float>());
      }
    }
    return m;
  }

  std::vector<std::string> strings(const Json& value, const std::string& pointer) const {
    if (!value.is_array()) fail(pointer, "expected a list of strings");
    std::vector<std::string> out;
    for (const Json& item : value) out.push_back(item.get<std::string>());
    return out;
  }

 private:
  std::string origin_;
};

}  // namespace

std::string result_to_json(const Result& result) {
  Json json;
  json["format"] = "attnviz-result/1";
  json["backend"] = result.backend;
  json["device"] = result.device;
  json["tokens"] = result.tokens;
  json["source_tokens"] = result.source_tokens;
  json["mask"] = mask_json(result.mask);
  json["masked_rows"] = result.masked_rows;
  Json heads = Json::array();
  for (const HeadResult& head : result.heads) {
    heads.push_back(Json{{"scores", matrix_to_json(head.scores)},
                         {"weights", matrix_to_json(head.weights)},
                         {"context", matrix_to_json(head.context)}});
  }
  json["heads"] = std::move(heads);
  json["output"] = matrix_to_json(result.output);
  Json timing;
  timing["total"] = result.timing.total_ms;
  for (const auto& [stage, ms] : result.timing.stages_ms) timing[stage] = ms;
  json["timing_ms"] = std::move(timing);
  return readable_json(json);
}

Result parse_result(std::string_view json_text, const std::string& origin) {
  const Reader reader(origin);
  Json json = Json::parse(json_text, nullptr, false);
  if (json.is_discarded()) reader.fail("", "not valid JSON");
  if (json.value("format", "") != "attnviz-result/1") reader.fail("/format", "expected \"attnviz-result/1\"");

  Result result;
  result.backend = reader.field(json, "", "backend").get<std::string>();
  result.device = json.value("device", "");
  result.tokens = reader.strings(reader.field(json, "", "tokens"), "/tokens");
  result.source_tokens = reader.strings(json.value("source_tokens", Json::array()), "/source_tokens");
  const Matrix mask = reader.matrix(reader.field(json, "", "mask"), "/mask");
  result.mask = MaskMatrix{mask.rows, mask.cols, {}};
  for (float v : mask.data) result.mask.visible.push_back(v != 0.0f ? 1 : 0);
  result.masked_rows = json.value("masked_rows", std::vector<int>{});
  const Json& heads = reader.field(json, "", "heads");
  for (std::size_t h = 0; h < heads.size(); ++h) {
    const std::string pointer = "/heads/" + std::to_string(h);
    result.heads.push_back(HeadResult{reader.matrix(reader.field(heads[h], pointer, "scores"), pointer + "/scores"),
                                      reader.matrix(reader.field(heads[h], pointer, "weights"), pointer + "/weights"),
                                      reader.matrix(reader.field(heads[h], pointer, "context"), pointer + "/context")});
  }
  result.output = reader.matrix(reader.field(json, "", "output"), "/output");
  if (json.contains("timing_ms")) {
    for (const auto& [stage, ms] : json["timing_ms"].items()) {
      if (stage == "total") result.timing.total_ms = ms.get<double>();
      else result.timing.stages_ms.emplace_back(stage, ms.get<double>());
    }
  }
  return result;
}

}  // namespace attnviz
