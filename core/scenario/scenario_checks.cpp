#include "core/scenario/scenario_checks.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/common/error.h"
#include "core/common/float_text.h"
#include "core/scenario/mask_expression_check.h"

namespace attnviz {
namespace {

// "0.1", "1e+300", "nan": a double as a user typed it (up to 17 significant digits).
std::string format_double(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  // The shortest of 15..17 digits that reads back the same: 0.1 rather than 0.10000000000000001.
  for (int digits = 15; digits < 17; ++digits) {
    char shorter[40];
    std::snprintf(shorter, sizeof shorter, "%.*g", digits, value);
    if (std::strtod(shorter, nullptr) == value || !std::isfinite(value)) return shorter;
  }
  return text;
}

std::string shape_text(long long rows, long long cols) { return std::to_string(rows) + "×" + std::to_string(cols); }

void check_positive(int value, const std::string& origin, const std::string& pointer) {
  if (value < 1) throw InputError(origin, pointer, "must be a positive integer, got " + std::to_string(value));
}

void check_optional_matrix(const std::optional<Matrix>& matrix, long long rows, long long cols,
                           const std::string& origin, const std::string& pointer, const std::string& rule) {
  if (!matrix) return;
  check_matrix_shape(*matrix, rows, cols, origin, pointer, rule);
  check_finite(*matrix, origin, pointer);
}

void check_dimensions(const Scenario& s, const std::string& origin) {
  check_positive(s.d_model, origin, "/d_model");
  check_positive(s.num_heads, origin, "/num_heads");
  check_positive(s.num_kv_heads, origin, "/num_kv_heads");
  check_positive(s.d_k, origin, "/d_k");
  check_positive(s.d_v, origin, "/d_v");
  if (s.num_heads % s.num_kv_heads != 0) {
    throw InputError(origin, "/num_kv_heads",
                     "num_heads (" + std::to_string(s.num_heads) + ") must be a multiple of num_kv_heads (" +
                         std::to_string(s.num_kv_heads) + ")");
  }
}

// Products of two dimensions in 64 bits: each may be up to 10^6 here (the limits are checked
// later, by build_problem), so their product does not fit an int.
long long product(int a, int b) { return static_cast<long long>(a) * static_cast<long long>(b); }

void check_weights(const Scenario& s, const std::string& origin) {
  check_optional_matrix(s.wq, s.d_model, product(s.num_heads, s.d_k), origin, "/wq", "d_model × (num_heads·d_k)");
  check_optional_matrix(s.wk, s.d_model, product(s.num_kv_heads, s.d_k), origin, "/wk", "d_model × (num_kv_heads·d_k)");
  check_optional_matrix(s.wv, s.d_model, product(s.num_kv_heads, s.d_v), origin, "/wv", "d_model × (num_kv_heads·d_v)");
  if (s.wo) {
    if (s.wo->cols < 1) throw InputError(origin, "/wo", "needs at least one column");
    check_optional_matrix(s.wo, product(s.num_heads, s.d_v), s.wo->cols, origin, "/wo", "(num_heads·d_v) × d_out");
  }
}

void check_tokens_and_embeddings(const std::optional<std::vector<std::string>>& tokens,
                                 const std::optional<Matrix>& embeddings, int d_model, const std::string& origin,
                                 const std::string& prefix) {
  if (tokens && tokens->empty()) throw InputError(origin, prefix + "/tokens", "is empty; give at least one token");
  if (!embeddings) return;
  if (embeddings->cols != d_model) {
    throw InputError(
        origin, prefix + "/embeddings",
        "rows have " + std::to_string(embeddings->cols) + " values but d_model is " + std::to_string(d_model));
  }
  if (tokens && embeddings->rows != static_cast<int>(tokens->size())) {
    throw InputError(origin, prefix + "/embeddings",
                     "has " + std::to_string(embeddings->rows) + " rows but there are " +
                         std::to_string(tokens->size()) + " tokens (one row per token)");
  }
  check_finite(*embeddings, origin, prefix + "/embeddings");
}

void check_mask(const MaskSetting& mask, const std::string& origin) {
  if (mask.window && *mask.window < 0)
    throw InputError(origin, "/mask/window", "must be 0 or more, got " + std::to_string(*mask.window));
  if (!mask.global.empty() && !mask.window && !has_expression(mask)) {
    throw InputError(origin, "/mask/global",
                     "global tokens need a window (Longformer) or an expression using global(i): set \"window\" too, "
                     "or remove \"global\"");
  }
  check_mask_expression(mask, origin);
  for (std::size_t i = 0; i < mask.global.size(); ++i) {
    if (mask.global[i] < 0)
      throw InputError(origin, "/mask/global/" + std::to_string(i),
                       "token index must be 0 or more, got " + std::to_string(mask.global[i]));
  }
}

// Positions and dropout (docs/design.md "Positions", "Dropout").
void check_positions(const Scenario& s, const std::string& origin) {
  if (s.positional == PositionalKind::Rope && s.d_k % 2 != 0) {
    throw InputError(origin, "/d_k",
                     "RoPE turns q and k in pairs of components, so d_k must be even; d_k is " + std::to_string(s.d_k) +
                         " (choose an even d_k or another \"positional\")");
  }
  if (!std::isfinite(s.rope_theta) || s.rope_theta <= 0.0)
    throw InputError(origin, "/rope_theta",
                     "must be a number above 0 (10000 in RoPE's paper), got " + format_double(s.rope_theta));
  if (s.position_offset < 0 || s.position_offset > kMaxPositionOffset) {
    throw InputError(
        origin, "/position_offset",
        "must be from 0 to " + std::to_string(kMaxPositionOffset) + ", got " + std::to_string(s.position_offset));
  }
  if (s.dropout && !(s.dropout->p >= 0.0 && s.dropout->p < 1.0)) {
    throw InputError(
        origin, "/dropout/p",
        "must be at least 0 and below 1 (the probability of dropping a weight), got " + format_double(s.dropout->p));
  }
}

}  // namespace

void check_matrix_shape(const Matrix& matrix, long long rows, long long cols, const std::string& origin,
                        const std::string& pointer, const std::string& rule) {
  if (matrix.rows == rows && matrix.cols == cols) return;
  throw InputError(
      origin, pointer,
      "has shape " + shape_text(matrix.rows, matrix.cols) + " but needs " + rule + " = " + shape_text(rows, cols));
}

void check_finite(const Matrix& matrix, const std::string& origin, const std::string& pointer) {
  for (int r = 0; r < matrix.rows; ++r) {
    for (int c = 0; c < matrix.cols; ++c) {
      const float value = matrix.at(r, c);
      if (!std::isfinite(value)) {
        throw InputError(
            origin, pointer + "/" + std::to_string(r) + "/" + std::to_string(c),
            "must be a finite number, got " + format_float(value) + " (NaN, infinite or beyond float range)");
      }
    }
  }
}

void check_scenario(const Scenario& s, const std::string& origin) {
  check_dimensions(s, origin);
  check_weights(s, origin);
  check_tokens_and_embeddings(s.tokens, s.embeddings, s.d_model, origin, "");
  if (s.source) check_tokens_and_embeddings(s.source->tokens, s.source->embeddings, s.d_model, origin, "/source");
  if (s.scale.kind == ScaleSetting::Kind::Value && !std::isfinite(s.scale.value))
    throw InputError(origin, "/scale", "must be a finite number, \"inv_sqrt_dk\" or \"none\"");
  check_mask(s.mask, origin);
  check_positions(s, origin);
}

}  // namespace attnviz
