#include "core/model/model_json.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

#include "core/common/float_text.h"

namespace attnviz::model {
namespace {

constexpr std::size_t kPiece = 1 << 20;

std::string quoted(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string number(double value) {
  if (!std::isfinite(value)) return "null";
  return nlohmann::json(value).dump();
}

class Writer {
 public:
  explicit Writer(const std::function<void(std::string_view)>& sink) : sink_(sink) { buffer_.reserve(kPiece + 4096); }
  ~Writer() = default;

  Writer& operator<<(std::string_view text) {
    buffer_ += text;
    if (buffer_.size() >= kPiece) flush();
    return *this;
  }
  void flush() {
    if (!buffer_.empty()) sink_(buffer_);
    buffer_.clear();
  }

  void floats(const float* values, int count) {
    *this << "[";
    for (int i = 0; i < count; ++i) {
      if (i > 0) *this << ", ";
      *this << (std::isfinite(values[i]) ? format_float(values[i]) : std::string("null"));
    }
    *this << "]";
  }

  // One row per line at `indent` spaces.
  void matrix(const Matrix& m, int indent) {
    if (m.rows == 0) {
      *this << "[]";
      return;
    }
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    *this << "[\n";
    for (int r = 0; r < m.rows; ++r) {
      *this << pad << "  ";
      floats(m.row(r), m.cols);
      *this << (r + 1 < m.rows ? ",\n" : "\n");
    }
    *this << pad << "]";
  }

  template <typename Item, typename Format>
  void list(const std::vector<Item>& items, Format format) {
    *this << "[";
    for (std::size_t i = 0; i < items.size(); ++i) *this << (i > 0 ? ", " : "") << format(items[i]);
    *this << "]";
  }

 private:
  const std::function<void(std::string_view)>& sink_;
  std::string buffer_;
};

void token_list(Writer& out, const std::vector<TokenProbability>& tokens) {
  out << "[";
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const TokenProbability& t = tokens[i];
    out << (i > 0 ? ",\n    " : "\n    ") << "{\"id\": " << std::to_string(t.id) << ", \"token\": " << quoted(t.token)
        << ", \"p\": " << number(t.p) << ", \"logit\": " << number(t.logit) << "}";
  }
  out << (tokens.empty() ? "]" : "\n  ]");
}

void model_summary(Writer& out, const Model& model) {
  const ModelConfig& c = model.config();
  out << "{\"path\": " << quoted(model.path()) << ", \"architecture\": " << quoted(c.architecture_name)
      << ", \"family\": " << quoted(c.family()) << ", \"format\": " << quoted(c.format)
      << ", \"layers\": " << std::to_string(c.num_layers) << ", \"heads\": " << std::to_string(c.num_heads)
      << ", \"kv_heads\": " << std::to_string(c.num_kv_heads) << ", \"d_model\": " << std::to_string(c.d_model)
      << ", \"head_dim\": " << std::to_string(c.head_dim) << ", \"vocab_size\": " << std::to_string(c.vocab_size)
      << ", \"parameters\": " << std::to_string(model.parameter_count())
      << ", \"tokenizer\": " << quoted(model.tokenizer().description()) << "}";
}

}  // namespace

void write_model_result_json(const Model& model, const ForwardResult& result,
                             const std::function<void(std::string_view)>& sink) {
  Writer out(sink);
  out << "{\n  \"format\": \"attnviz-result/1\",\n";
  out << "  \"backend\": " << quoted(result.backend) << ",\n";
  out << "  \"device\": " << quoted(result.device) << ",\n";
  out << "  \"model\": ";
  model_summary(out, model);
  out << ",\n  \"ids\": ";
  out.list(result.ids, [](int id) { return std::to_string(id); });
  out << ",\n  \"tokens\": ";
  out.list(result.tokens, quoted);
  out << ",\n  \"source_tokens\": ";
  out.list(result.tokens, quoted);
  if (!result.layers.empty()) {
    const Result& first = result.layers.front().attention;
    out << ",\n  \"mask\": [\n";
    for (int r = 0; r < first.mask.rows; ++r) {
      out << "    [";
      for (int c = 0; c < first.mask.cols; ++c) out << (c > 0 ? ", " : "") << (first.mask.at(r, c) ? "1" : "0");
      out << (r + 1 < first.mask.rows ? "],\n" : "]\n");
    }
    out << "  ],\n  \"masked_rows\": ";
    out.list(first.masked_rows, [](int row) { return std::to_string(row); });
  }
  out << ",\n  \"scale\": " << format_float(1.0f / std::sqrt(static_cast<float>(model.config().head_dim)));
  out << ",\n  \"layers\": [";
  for (std::size_t l = 0; l < result.layers.size(); ++l) {
    const LayerAttention& layer = result.layers[l];
    out << (l > 0 ? ",\n" : "\n") << "    {\"layer\": " << std::to_string(layer.layer) << ", \"heads\": [";
    for (std::size_t h = 0; h < layer.attention.heads.size(); ++h) {
      const HeadResult& head = layer.attention.heads[h];
      out << (h > 0 ? ",\n" : "\n") << "      {\"scores\": ";
      out.matrix(head.scores, 8);
      out << ",\n       \"weights\": ";
      out.matrix(head.weights, 8);
      out << ",\n       \"context\": ";
      out.matrix(head.context, 8);
      out << "}";
    }
    out << "]}";
  }
  out << (result.layers.empty() ? "],\n" : "\n  ],\n");
  out << "  \"next_tokens\": ";
  token_list(out, result.next_tokens);
  if (result.query_position >= 0) {
    out << ",\n  \"query_position\": " << std::to_string(result.query_position) << ",\n  \"query_tokens\": ";
    token_list(out, result.query_tokens);
  }
  out << ",\n  \"timing_ms\": {\"total\": " << number(result.timing.total_ms);
  for (const auto& [stage, ms] : result.timing.stages_ms) out << ", " << quoted(stage) << ": " << number(ms);
  out << "}\n}\n";
  out.flush();
}

std::string encoding_json(const tokenizers::Encoding& encoding) {
  nlohmann::ordered_json root;
  root["ids"] = encoding.ids;
  root["tokens"] = encoding.tokens;
  return root.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace attnviz::model
