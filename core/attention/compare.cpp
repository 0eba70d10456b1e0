#include "core/attention/compare.h"

#include <cmath>
#include <stdexcept>

namespace attnviz {
namespace {

MatrixDifference compare_matrix(std::string name, const Matrix& a, const Matrix& b) {
  if (a.rows != b.rows || a.cols != b.cols) {
    throw std::invalid_argument(name + ": shapes differ (" + std::to_string(a.rows) + "×" + std::to_string(a.cols) +
                                " vs " + std::to_string(b.rows) + "×" + std::to_string(b.cols) + ")");
  }
  MatrixDifference diff{std::move(name)};
  double largest_reference = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const double delta = std::fabs(static_cast<double>(a.data[k]) - static_cast<double>(b.data[k]));
    largest_reference = std::fmax(largest_reference, std::fabs(static_cast<double>(b.data[k])));
    if (delta > diff.max_abs) {
      diff.max_abs = delta;
      diff.row = static_cast<int>(k / static_cast<std::size_t>(a.cols));
      diff.col = static_cast<int>(k % static_cast<std::size_t>(a.cols));
    }
  }
  diff.max_rel = largest_reference > 0.0 ? diff.max_abs / largest_reference : 0.0;
  return diff;
}

}  // namespace

std::vector<MatrixDifference> compare_results(const Result& a, const Result& b) {
  if (a.heads.size() != b.heads.size()) throw std::invalid_argument("results have different head counts");
  std::vector<MatrixDifference> diffs;
  for (std::size_t h = 0; h < a.heads.size(); ++h) {
    const std::string prefix = "head" + std::to_string(h) + ".";
    diffs.push_back(compare_matrix(prefix + "scores", a.heads[h].scores, b.heads[h].scores));
    diffs.push_back(compare_matrix(prefix + "weights", a.heads[h].weights, b.heads[h].weights));
    diffs.push_back(compare_matrix(prefix + "context", a.heads[h].context, b.heads[h].context));
  }
  diffs.push_back(compare_matrix("output", a.output, b.output));
  return diffs;
}

Matrix difference(const Matrix& a, const Matrix& b) {
  if (a.rows != b.rows || a.cols != b.cols) throw std::invalid_argument("difference: shapes differ");
  Matrix diff(a.rows, a.cols);
  for (std::size_t k = 0; k < a.size(); ++k) diff.data[k] = a.data[k] - b.data[k];
  return diff;
}

}  // namespace attnviz
