#include "core/attention/result_json.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <string_view>
#include <utility>

#include "core/common/error.h"
#include "core/common/float_text.h"

namespace attnviz {
namespace {

using Json = nlohmann::ordered_json;

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

// The JSON text of the result, written in the layout readable_json (core/common/json_text)
// gives the same tree: objects indented by two spaces per level, flat lists on one line, a
// matrix one row per line, an object of plain values on one line.
class ResultWriter {
 public:
  ResultWriter(const std::function<void(std::string_view)>& sink, const std::vector<int>* heads)
      : sink_(sink), selected_(heads) {
    buffer_.reserve(kPiece + 4096);
  }

  void write(const Result& result) {
    text("{\n");
    key(1, "format");
    string("attnviz-result/1");
    text(",\n");
    key(1, "backend");
    string(result.backend);
    text(",\n");
    key(1, "device");
    string(result.device);
    text(",\n");
    key(1, "tokens");
    strings(result.tokens);
    text(",\n");
    key(1, "source_tokens");
    strings(result.source_tokens);
    text(",\n");
    key(1, "mask");
    mask_rows(1, result.mask);
    text(",\n");
    key(1, "masked_rows");
    integers(result.masked_rows);
    text(",\n");
    key(1, "heads");
    heads(result.heads);
    text(",\n");
    key(1, "output");
    matrix(1, result.output);
    text(",\n");
    key(1, "timing_ms");
    text("{\"total\": ");
    number(result.timing.total_ms);
    for (const auto& [stage, ms] : result.timing.stages_ms) {
      if (stage == "total") continue;
      text(", ");
      string(stage);
      text(": ");
      number(ms);
    }
    text("}\n}\n");
    flush();
  }

 private:
  static constexpr std::size_t kPiece = std::size_t{1} << 20;

  void text(std::string_view piece) {
    buffer_.append(piece);
    if (buffer_.size() >= kPiece) flush();
  }
  void flush() {
    if (!buffer_.empty()) sink_(buffer_);
    buffer_.clear();
  }
  void indent(int depth) { buffer_.append(static_cast<std::size_t>(depth) * 2, ' '); }
  void key(int depth, std::string_view name) {
    indent(depth);
    string(name);
    text(": ");
  }
  void string(std::string_view value) { text(nlohmann::ordered_json(value).dump()); }
  void strings(const std::vector<std::string>& values) {
    text("[");
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i) text(", ");
      string(values[i]);
    }
    text("]");
  }
  void integer(long long value) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    text(std::string_view(digits, static_cast<std::size_t>(end - digits)));
  }
  // As nlohmann::json prints a double: the shortest text that reads back to it, "null" when
  // not finite.
  void number(double value) {
    if (!std::isfinite(value)) {
      text("null");
      return;
    }
    char digits[64];
    char* end = nlohmann::detail::to_chars(digits, digits + sizeof digits, value);
    text(std::string_view(digits, static_cast<std::size_t>(end - digits)));
  }
  // A list of `count` rows at `depth`, each drawn by row(r): "[]" when empty.
  template <typename Row>
  void rows(int depth, int count, const Row& row) {
    if (count == 0) {
      text("[]");
      return;
    }
    text("[\n");
    for (int r = 0; r < count; ++r) {
      indent(depth + 1);
      row(r);
      text(r + 1 < count ? ",\n" : "\n");
    }
    indent(depth);
    text("]");
  }
  void integers(const std::vector<int>& values) {
    text("[");
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i) text(", ");
      integer(values[i]);
    }
    text("]");
  }
  void mask_rows(int depth, const MaskMatrix& mask) {
    rows(depth, mask.rows, [&](int r) {
      text("[");
      for (int c = 0; c < mask.cols; ++c) text(c ? (mask.at(r, c) ? ", 1" : ", 0") : (mask.at(r, c) ? "1" : "0"));
      text("]");
    });
  }
  // docs/design.md "Result additions": {"size", "empty", "partial", "full", "tiles"}.
  void blocks(int depth, const HeadBlocks& b) {
    key(depth, "blocks");
    text("{\n");
    for (const auto& [name, count] : {std::pair<std::string_view, long long>{"size", b.size},
                                      {"empty", b.empty},
                                      {"partial", b.partial},
                                      {"full", b.full}}) {
      key(depth + 1, name);
      integer(count);
      text(",\n");
    }
    key(depth + 1, "tiles");
    rows(depth + 1, b.tile_rows, [&](int r) {
      text("[");
      for (int c = 0; c < b.tile_cols; ++c) {
        if (c) text(", ");
        const std::uint8_t kind =
            b.tiles[static_cast<std::size_t>(r) * static_cast<std::size_t>(b.tile_cols) + static_cast<std::size_t>(c)];
        text(kind == 0 ? "0" : (kind == 1 ? "1" : "2"));
      }
      text("]");
    });
    text("\n");
    indent(depth);
    text("}");
  }
  void matrix(int depth, const Matrix& m) {
    rows(depth, m.rows, [&](int r) {
      text("[");
      const float* values = m.row(r);
      for (int c = 0; c < m.cols; ++c) {
        if (c) text(", ");
        const float value = values[c];
        if (std::isfinite(value))
          number(json_number(value));
        else
          text("null");
      }
      text("]");
    });
  }
  // Every head, or the selected ones, each then with its "head" number.
  void heads(const std::vector<HeadResult>& all) {
    std::vector<int> order;
    if (selected_ != nullptr) order = *selected_;
    for (int h = 0; selected_ == nullptr && h < static_cast<int>(all.size()); ++h) order.push_back(h);
    if (order.empty()) {
      text("[]");
      return;
    }
    text("[\n");
    for (std::size_t i = 0; i < order.size(); ++i) {
      const HeadResult& head = all.at(static_cast<std::size_t>(order[i]));
      indent(2);
      const std::pair<const char*, const Matrix*> fields[] = {
          {"scores", &head.scores}, {"weights", &head.weights}, {"context", &head.context}};
      // Three empty matrices make an object of plain values, written on one line.
      const bool own_mask = !head.mask.visible.empty();
      const bool inline_object =
          head.scores.rows == 0 && head.weights.rows == 0 && head.context.rows == 0 && !own_mask && !head.blocks;
      text(inline_object ? "{" : "{\n");
      const bool dropout = !head.weights_before_dropout.empty();
      if (selected_ != nullptr) {
        if (inline_object) {
          text("\"head\": ");
          integer(order[i]);
          text(", ");
        } else {
          key(3, "head");
          integer(order[i]);
          text(",\n");
        }
      }
      for (std::size_t f = 0; f < 3; ++f) {
        if (inline_object) {
          text(f ? ", " : "");
          string(fields[f].first);
          text(": []");
          continue;
        }
        key(3, fields[f].first);
        matrix(3, *fields[f].second);
        text(f < 2 || dropout || own_mask || head.blocks ? ",\n" : "\n");
      }
      if (dropout) {  // docs/design.md "Dropout": the softmax's weights and the kept set
        key(3, "weights_before_dropout");
        matrix(3, head.weights_before_dropout);
        text(",\n");
        key(3, "kept");
        mask_rows(3, head.kept);
        text(own_mask || head.blocks ? ",\n" : "\n");
      }
      if (own_mask) {
        key(3, "mask");
        mask_rows(3, head.mask);
        text(",\n");
        key(3, "masked_rows");
        integers(head.masked_rows);
        text(head.blocks ? ",\n" : "\n");
      }
      if (head.blocks) {
        blocks(3, *head.blocks);
        text("\n");
      }
      if (!inline_object) indent(2);
      text("}");
      text(i + 1 < order.size() ? ",\n" : "\n");
    }
    indent(1);
    text("]");
  }

  const std::function<void(std::string_view)>& sink_;
  const std::vector<int>* selected_;
  std::string buffer_;
};

void write_result_json(const Result& result, const std::function<void(std::string_view)>& sink,
                       const std::vector<int>* heads) {
  ResultWriter(sink, heads).write(result);
}

std::string result_to_json(const Result& result) {
  std::string text;
  write_result_json(result, [&text](std::string_view piece) { text.append(piece); });
  return text;
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
    HeadResult& head = result.heads.emplace_back();
    head.scores = reader.matrix(reader.field(heads[h], pointer, "scores"), pointer + "/scores");
    head.weights = reader.matrix(reader.field(heads[h], pointer, "weights"), pointer + "/weights");
    head.context = reader.matrix(reader.field(heads[h], pointer, "context"), pointer + "/context");
    if (heads[h].contains("weights_before_dropout")) {
      head.weights_before_dropout =
          reader.matrix(heads[h]["weights_before_dropout"], pointer + "/weights_before_dropout");
      const Matrix kept = reader.matrix(reader.field(heads[h], pointer, "kept"), pointer + "/kept");
      head.kept = MaskMatrix{kept.rows, kept.cols, {}};
      for (float v : kept.data) head.kept.visible.push_back(v != 0.0f ? 1 : 0);
    }
    if (heads[h].contains("mask")) {
      const Matrix own = reader.matrix(heads[h]["mask"], pointer + "/mask");
      head.mask = MaskMatrix{own.rows, own.cols, {}};
      for (float v : own.data) head.mask.visible.push_back(v != 0.0f ? 1 : 0);
      head.masked_rows = heads[h].value("masked_rows", std::vector<int>{});
    }
    if (heads[h].contains("blocks") && heads[h]["blocks"].is_object()) {
      const Json& b = heads[h]["blocks"];
      HeadBlocks blocks;
      blocks.size = b.value("size", 0);
      blocks.empty = b.value("empty", 0LL);
      blocks.partial = b.value("partial", 0LL);
      blocks.full = b.value("full", 0LL);
      const Matrix tiles = reader.matrix(b.value("tiles", Json::array()), pointer + "/blocks/tiles");
      blocks.tile_rows = tiles.rows;
      blocks.tile_cols = tiles.cols;
      for (float v : tiles.data) blocks.tiles.push_back(static_cast<std::uint8_t>(v));
      head.blocks = std::move(blocks);
    }
  }
  result.output = reader.matrix(reader.field(json, "", "output"), "/output");
  if (json.contains("timing_ms")) {
    for (const auto& [stage, ms] : json["timing_ms"].items()) {
      if (stage == "total")
        result.timing.total_ms = ms.get<double>();
      else
        result.timing.stages_ms.emplace_back(stage, ms.get<double>());
    }
  }
  return result;
}

}  // namespace attnviz
