#include "core/export/number_streams.h"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "core/common/float_text.h"
#include "core/export/export_content.h"
#include "core/export/numbers.h"

namespace attnviz::exporting {
namespace {

// Collects small writes and hands them on in pieces of about 1 MiB.
class Pieces {
 public:
  explicit Pieces(const ByteSink& sink) : sink_(sink) { buffer_.reserve(kPiece + 64 * 1024); }
  ~Pieces() = default;
  Pieces(const Pieces&) = delete;
  Pieces& operator=(const Pieces&) = delete;

  std::string& buffer() { return buffer_; }
  void add(std::string_view text) {
    buffer_.append(text);
    maybe_flush();
  }
  void maybe_flush() {
    if (buffer_.size() >= kPiece) flush();
  }
  void flush() {
    if (!buffer_.empty()) sink_(buffer_);
    buffer_.clear();
  }

 private:
  static constexpr std::size_t kPiece = std::size_t{1} << 20;
  const ByteSink& sink_;
  std::string buffer_;
};

std::string json_string(std::string_view text) { return nlohmann::ordered_json(text).dump(); }

std::string json_strings(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + json_string(values[i]);
  return out + "]";
}

template <typename Integer>
std::string json_integers(const std::vector<Integer>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

// A matrix one row per line at `indent` spaces; non-finite values (the −∞ of masked scaled
// scores) as null: JSON has no infinity.
void json_matrix(MatrixRows& matrix, int indent, Pieces& out) {
  if (matrix.rows() == 0) {
    out.add("[]");
    return;
  }
  const std::string inner(static_cast<std::size_t>(indent + 2), ' ');
  out.add("[\n");
  char digits[32];
  for (int r = 0; r < matrix.rows(); ++r) {
    std::string& text = out.buffer();
    text += inner;
    text += '[';
    const std::span<const float> row = matrix.row(r);
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c) text += ", ";
      if (!std::isfinite(row[c])) {
        text += "null";
        continue;
      }
      const auto end = std::to_chars(digits, digits + sizeof digits, row[c]).ptr;
      text.append(digits, static_cast<std::size_t>(end - digits));
    }
    text += r + 1 < matrix.rows() ? "],\n" : "]\n";
    out.maybe_flush();
  }
  out.add(std::string(static_cast<std::size_t>(indent), ' ') + "]");
}

// "Eigen 3.4.0 (4 threads)" → "Eigen 3.4.0": the thread count follows OMP_NUM_THREADS and the
// machine, not the numbers, and would make the same export differ between machines.
std::string device_for_export(const std::string& device) {
  const std::size_t open = device.rfind(" (");
  if (open == std::string::npos || device.back() != ')') return device;
  const std::string inside = device.substr(open + 2, device.size() - open - 3);
  const std::size_t digits = inside.find_first_not_of("0123456789");
  const bool threads = digits > 0 && digits != std::string::npos &&
                       (inside.substr(digits) == " threads" || inside.substr(digits) == " thread");
  return threads ? device.substr(0, open) : device;
}

}  // namespace

void stream_npy(const ExportRequest& request, const ExportSource& source, Quantity quantity,
                const std::vector<int>& heads, bool heads_axis, const ByteSink& sink) {
  std::vector<MatrixRows> matrices;
  for (const int head : heads) matrices.emplace_back(request, source, quantity, head);
  const auto rows = static_cast<std::size_t>(matrices.front().rows());
  const auto cols = static_cast<std::size_t>(matrices.front().cols());
  std::vector<std::size_t> shape{rows, cols};
  if (heads_axis) shape.insert(shape.begin(), matrices.size());
  Pieces out(sink);
  out.add(npy_header("<f4", shape));
  for (MatrixRows& matrix : matrices) {
    for (int r = 0; r < matrix.rows(); ++r) {
      append_float32_le(matrix.row(r), out.buffer());
      out.maybe_flush();
    }
  }
  out.flush();
}

void stream_csv(const ExportRequest& request, const ExportSource& source, Quantity quantity, int head,
                const ByteSink& sink) {
  MatrixRows matrix(request, source, quantity, head);
  Pieces out(sink);
  std::string& text = out.buffer();
  text += csv_field("query \\ key");
  for (const std::string& label : matrix.col_labels()) text += "," + csv_field(label);
  text += "\r\n";
  char digits[32];
  for (int r = 0; r < matrix.rows(); ++r) {
    text += csv_field(matrix.row_labels()[static_cast<std::size_t>(r)]);
    for (const float value : matrix.row(r)) {
      text += ',';
      if (std::isnan(value))
        text += "nan";
      else if (std::isinf(value))
        text += value < 0 ? "-inf" : "inf";
      else
        text.append(digits,
                    static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, value).ptr - digits));
    }
    text += "\r\n";
    out.maybe_flush();
  }
  out.flush();
}

void stream_json(const ExportRequest& request, const ExportSource& source, Quantity quantity,
                 const std::vector<int>& heads, const ByteSink& sink) {
  const Result& result = primary_result(source, quantity, request.origin);
  const QuantityInfo& about = info(quantity);
  MatrixRows first(request, source, quantity, heads.front());
  const std::string device = quantity == Quantity::Diff ? device_for_export(source.vulkan->device) + " - " +
                                                              device_for_export(source.cpu->device)
                                                        : device_for_export(result.device);
  Pieces out(sink);
  out.add("{\n  \"format\": \"attnviz-export/1\",\n");
  out.add("  \"what\": " + json_string(about.name) + ",\n");
  out.add("  \"description\": " + json_string(about.description) + ",\n");
  out.add("  \"backend\": " + json_string(quantity == Quantity::Diff ? "vulkan - cpu" : result.backend) + ",\n");
  out.add("  \"device\": " + json_string(device) + ",\n");
  out.add("  \"tokens\": " + json_strings(result.tokens) + ",\n");
  out.add("  \"source_tokens\": " + json_strings(result.source_tokens) + ",\n");
  if (const std::optional<CellWindow>& window = first.window()) {
    out.add("  \"window\": {\"rows\": [" + std::to_string(window->row_begin) + ", " + std::to_string(window->row_end) +
            "], \"cols\": [" + std::to_string(window->col_begin) + ", " + std::to_string(window->col_end) + "]},\n");
  }
  out.add("  \"row_labels\": " + json_strings(first.row_labels()) + ",\n");
  out.add("  \"column_labels\": " + json_strings(first.col_labels()) + ",\n");
  out.add("  \"masked_rows\": " + json_integers(result.masked_rows) + ",\n");
  if (!about.per_head) {
    out.add("  \"mask\": ");
    json_matrix(first, 2, out);
    out.add("\n}\n");
    out.flush();
    return;
  }
  out.add("  \"heads\": [\n");
  for (std::size_t i = 0; i < heads.size(); ++i) {
    MatrixRows matrix(request, source, quantity, heads[i]);
    out.add("    {\n      \"head\": " + std::to_string(heads[i]) + ",\n      " + json_string(about.json_key) + ": ");
    json_matrix(matrix, 6, out);
    out.add(i + 1 < heads.size() ? "\n    },\n" : "\n    }\n");
  }
  out.add("  ]\n}\n");
  out.flush();
}

}  // namespace attnviz::exporting
