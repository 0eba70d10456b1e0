#include "core/attention/compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace attnviz {
namespace {

void require_same_shape(const std::string& name, int a_rows, int a_cols, int b_rows, int b_cols) {
  if (a_rows == b_rows && a_cols == b_cols) return;
  throw std::invalid_argument(name + ": shapes differ (" + std::to_string(a_rows) + "×" + std::to_string(a_cols) +
                              " vs " + std::to_string(b_rows) + "×" + std::to_string(b_cols) + ")");
}

// |a − b|, where a NaN or an infinity on either side is an infinite difference unless both
// sides hold the same infinity: docs/design.md promises finite results, so any other is a failure.
double distance(float a, float b) {
  if (std::isfinite(a) && std::isfinite(b)) return std::fabs(static_cast<double>(a) - static_cast<double>(b));
  return a == b ? 0.0 : std::numeric_limits<double>::infinity();
}

template <class Value>
MatrixDifference compare_cells(std::string name, int cols, const std::vector<Value>& a, const std::vector<Value>& b) {
  MatrixDifference diff{std::move(name)};
  for (std::size_t k = 0; k < a.size(); ++k) {
    const auto va = static_cast<float>(a[k]);
    const auto vb = static_cast<float>(b[k]);
    const double delta = distance(va, vb);
    if (std::isfinite(vb)) diff.largest = std::fmax(diff.largest, std::fabs(static_cast<double>(vb)));
    if (delta > diff.max_abs) {
      diff.max_abs = delta;
      diff.row = static_cast<int>(k / static_cast<std::size_t>(cols));
      diff.col = static_cast<int>(k % static_cast<std::size_t>(cols));
    }
  }
  diff.max_rel = diff.largest > 0.0 ? diff.max_abs / diff.largest : 0.0;
  return diff;
}

MatrixDifference compare_matrix(std::string name, const Matrix& a, const Matrix& b) {
  require_same_shape(name, a.rows, a.cols, b.rows, b.cols);
  return compare_cells(std::move(name), a.cols, a.data, b.data);
}

}  // namespace

bool MatrixDifference::agrees(double tolerance) const { return max_abs <= tolerance * std::max(1.0, largest); }

std::vector<MatrixDifference> compare_results(const Result& a, const Result& b) {
  if (a.heads.size() != b.heads.size()) throw std::invalid_argument("results have different head counts");
  std::vector<MatrixDifference> diffs;
  require_same_shape("mask", a.mask.rows, a.mask.cols, b.mask.rows, b.mask.cols);
  diffs.push_back(compare_cells("mask", a.mask.cols, a.mask.visible, b.mask.visible));
  for (std::size_t h = 0; h < a.heads.size(); ++h) {
    const std::string prefix = "head" + std::to_string(h) + ".";
    diffs.push_back(compare_matrix(prefix + "scores", a.heads[h].scores, b.heads[h].scores));
    diffs.push_back(compare_matrix(prefix + "weights", a.heads[h].weights, b.heads[h].weights));
    diffs.push_back(compare_matrix(prefix + "context", a.heads[h].context, b.heads[h].context));
    if (!a.heads[h].mask.visible.empty() || !b.heads[h].mask.visible.empty()) {
      const MaskMatrix& ma = a.mask_of(h);
      const MaskMatrix& mb = b.mask_of(h);
      require_same_shape(prefix + "mask", ma.rows, ma.cols, mb.rows, mb.cols);
      diffs.push_back(compare_cells(prefix + "mask", ma.cols, ma.visible, mb.visible));
    }
    if (!a.heads[h].weights_before_dropout.empty() || !b.heads[h].weights_before_dropout.empty()) {
      diffs.push_back(compare_matrix(prefix + "weights_before_dropout", a.heads[h].weights_before_dropout,
                                     b.heads[h].weights_before_dropout));
      const MaskMatrix& ka = a.heads[h].kept;
      const MaskMatrix& kb = b.heads[h].kept;
      require_same_shape(prefix + "kept", ka.rows, ka.cols, kb.rows, kb.cols);
      diffs.push_back(compare_cells(prefix + "kept", ka.cols, ka.visible, kb.visible));
    }
  }
  diffs.push_back(compare_matrix("output", a.output, b.output));
  return diffs;
}

bool results_agree(const std::vector<MatrixDifference>& differences, double tolerance) {
  return std::all_of(differences.begin(), differences.end(),
                     [&](const MatrixDifference& d) { return d.agrees(tolerance); });
}

Matrix difference(const Matrix& a, const Matrix& b) {
  if (a.rows != b.rows || a.cols != b.cols) throw std::invalid_argument("difference: shapes differ");
  Matrix diff(a.rows, a.cols);
  for (std::size_t k = 0; k < a.size(); ++k) diff.data[k] = a.data[k] - b.data[k];
  return diff;
}

}  // namespace attnviz
