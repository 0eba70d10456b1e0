#include "app/edits/matrix_edits.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>

#include "app/i18n/translate.h"
#include "core/scenario/generate.h"

namespace attnviz::edits {

const char* matrix_name(MatrixId id) {
  switch (id) {
    case MatrixId::X: return "X";
    case MatrixId::XSource: return "X_source";  // not translated: a symbol
    case MatrixId::WQ: return "W_Q";
    case MatrixId::WK: return "W_K";
    case MatrixId::WV: return "W_V";
    case MatrixId::WO: return "W_O";
  }
  return "?";
}

const char* matrix_json_key(MatrixId id) {
  switch (id) {
    case MatrixId::X: return "embeddings";
    case MatrixId::XSource: return "source/embeddings";
    case MatrixId::WQ: return "wq";
    case MatrixId::WK: return "wk";
    case MatrixId::WV: return "wv";
    case MatrixId::WO: return "wo";
  }
  return "?";
}

namespace {

std::optional<Matrix>* slot(Scenario& s, MatrixId id) {
  switch (id) {
    case MatrixId::X: return &s.embeddings;
    case MatrixId::XSource: return s.source ? &s.source->embeddings : nullptr;
    case MatrixId::WQ: return &s.wq;
    case MatrixId::WK: return &s.wk;
    case MatrixId::WV: return &s.wv;
    case MatrixId::WO: return &s.wo;
  }
  return nullptr;
}

std::string_view trim(std::string_view text) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

}  // namespace

const Matrix* explicit_matrix(const Scenario& scenario, MatrixId id) {
  const std::optional<Matrix>* s = nullptr;
  switch (id) {
    case MatrixId::X: s = &scenario.embeddings; break;
    case MatrixId::XSource: s = scenario.source ? &scenario.source->embeddings : nullptr; break;
    case MatrixId::WQ: s = &scenario.wq; break;
    case MatrixId::WK: s = &scenario.wk; break;
    case MatrixId::WV: s = &scenario.wv; break;
    case MatrixId::WO: s = &scenario.wo; break;
  }
  return s != nullptr && s->has_value() ? &**s : nullptr;
}

Matrix& materialise(Scenario& scenario, MatrixId id, const Matrix& resolved) {
  std::optional<Matrix>* s = slot(scenario, id);
  if (s == nullptr) {  // X_source without a source: give it one so the caller has a place
    scenario.source.emplace();
    s = slot(scenario, id);
  }
  if (!s->has_value()) *s = resolved;
  return **s;
}

ParsedValue parse_cell_value(std::string_view text) {
  std::string_view t = trim(text);
  if (t.empty()) return {std::nullopt, i18n::tr("empty: type a number such as 0.5 or -1e-3")};
  if (t.front() == '+') t.remove_prefix(1);
  float value = 0.0f;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (ec == std::errc::result_out_of_range) {
    return {std::nullopt, i18n::format(i18n::tr("\"%s\" is out of float range (about \u00B13.4e38)"),
                                       std::string(trim(text)).c_str())};
  }
  if (ec != std::errc() || end != t.data() + t.size()) {
    return {std::nullopt,
            i18n::format(i18n::tr("\"%s\" is not a number (use a dot: 0.5, -1e-3)"), std::string(trim(text)).c_str())};
  }
  if (!std::isfinite(value)) {
    return {std::nullopt, i18n::format(i18n::tr("\"%s\" is not a finite number"), std::string(trim(text)).c_str())};
  }
  return {value, ""};
}

std::string set_cell(Scenario& scenario, MatrixId id, const Matrix& resolved, int row, int col, float value) {
  if (!std::isfinite(value)) return i18n::format(i18n::tr("%s: only finite numbers can be entered"), matrix_name(id));
  if (row < 0 || col < 0 || row >= resolved.rows || col >= resolved.cols) {
    return i18n::format(i18n::tr("%s: cell [%d][%d] is outside the %d\u00D7%d matrix"), matrix_name(id), row, col,
                        resolved.rows, resolved.cols);
  }
  Matrix& m = materialise(scenario, id, resolved);
  if (m.rows != resolved.rows || m.cols != resolved.cols) {
    return i18n::format(i18n::tr("%s: the stored matrix is %d\u00D7%d but %d\u00D7%d is shown; fix the model's "
                                 "dimensions first"),
                        matrix_name(id), m.rows, m.cols, resolved.rows, resolved.cols);
  }
  m.at(row, col) = value;
  return "";
}

void scale_matrix(Matrix& m, float factor) {
  for (float& v : m.data) v *= factor;
}

void zero_matrix(Matrix& m) { std::fill(m.data.begin(), m.data.end(), 0.0f); }

void identity_matrix(Matrix& m) {
  zero_matrix(m);
  for (int i = 0; i < std::min(m.rows, m.cols); ++i) m.at(i, i) = 1.0f;
}

Matrix random_matrix(MatrixId id, std::uint64_t seed, int rows, int cols) {
  const bool embeddings = id == MatrixId::X || id == MatrixId::XSource;
  // The weight generator's N(0, 1/rows), stretched to N(0, 1) for embeddings.
  Matrix m = generate_weight(seed, embeddings ? "random-embeddings" : matrix_json_key(id), rows, cols);
  if (embeddings) scale_matrix(m, static_cast<float>(std::sqrt(static_cast<double>(rows))));
  return m;
}

Matrix resize_blocks(const Matrix& old, Blocks old_rows, Blocks old_cols, Blocks new_rows, Blocks new_cols,
                     const Matrix& fresh) {
  Matrix out = fresh;
  if (old.rows != old_rows.total() || old.cols != old_cols.total()) return out;  // nothing sensible to keep
  const int row_blocks = std::min(old_rows.count, new_rows.count);
  const int row_size = std::min(old_rows.size, new_rows.size);
  const int col_blocks = std::min(old_cols.count, new_cols.count);
  const int col_size = std::min(old_cols.size, new_cols.size);
  for (int rb = 0; rb < row_blocks; ++rb) {
    for (int ri = 0; ri < row_size; ++ri) {
      const int old_r = rb * old_rows.size + ri;
      const int new_r = rb * new_rows.size + ri;
      for (int cb = 0; cb < col_blocks; ++cb) {
        for (int ci = 0; ci < col_size; ++ci) {
          out.at(new_r, cb * new_cols.size + ci) = old.at(old_r, cb * old_cols.size + ci);
        }
      }
    }
  }
  return out;
}

bool heads_split_columns(MatrixId id) { return id != MatrixId::WO; }

int head_slice_size(MatrixId id, int d_k, int d_v) {
  switch (id) {
    case MatrixId::WQ:
    case MatrixId::WK: return d_k;
    case MatrixId::WV:
    case MatrixId::WO: return d_v;
    default: return 0;
  }
}

HeadSlice head_slice_of(MatrixId id, int index, int d_k, int d_v) {
  const int size = head_slice_size(id, d_k, d_v);
  if (size <= 0) return {0, index};
  return {index / size, index % size};
}

}  // namespace attnviz::edits
