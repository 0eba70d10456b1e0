#include "core/lesson/mistakes.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/attention/mask.h"
#include "core/common/wording.h"
#include "core/scenario/positions.h"

namespace attnviz::lesson {
namespace {

using Grid = std::vector<std::vector<double>>;  // N rows of M values

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

// The softmax of `values` over the entries `use` marks; the others (and an empty set) get 0.
std::vector<double> softmax(const std::vector<double>& values, const std::vector<bool>& use) {
  double largest = kMinusInfinity;
  for (std::size_t k = 0; k < values.size(); ++k)
    if (use[k]) largest = std::max(largest, values[k]);
  std::vector<double> out(values.size(), 0.0);
  if (largest == kMinusInfinity) return out;
  double sum = 0.0;
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (!use[k]) continue;
    out[k] = std::exp(values[k] - largest);
    sum += out[k];
  }
  for (double& v : out) v /= sum;
  return out;
}

// The scores the softmax sees: scale · raw + ALiBi's bias (or raw + bias without scaling).
Grid logits(const Problem& p, const Matrix& raw, int head, bool scaled) {
  const float slope = head_slopes(p)[static_cast<std::size_t>(head)];
  Grid out(static_cast<std::size_t>(raw.rows), std::vector<double>(static_cast<std::size_t>(raw.cols)));
  for (int i = 0; i < raw.rows; ++i)
    for (int j = 0; j < raw.cols; ++j)
      out[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] =
          (scaled ? static_cast<double>(p.scale) : 1.0) * raw.at(i, j) + static_cast<double>(alibi_bias(slope, i, j));
  return out;
}

std::vector<bool> row_visibility(const Mask& mask, int i, int m) {
  std::vector<bool> seen(static_cast<std::size_t>(m));
  for (int j = 0; j < m; ++j) seen[static_cast<std::size_t>(j)] = mask.visible(i, j);
  return seen;
}

Grid row_softmax(const Grid& s, const Mask& mask) {
  Grid out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    out.push_back(softmax(s[i], row_visibility(mask, static_cast<int>(i), static_cast<int>(s[i].size()))));
  }
  return out;
}

// Softmax down each column, over the rows that may see that key.
Grid column_softmax(const Grid& s, const Mask& mask) {
  const std::size_t n = s.size();
  const std::size_t m = n == 0 ? 0 : s[0].size();
  Grid out(n, std::vector<double>(m, 0.0));
  for (std::size_t j = 0; j < m; ++j) {
    std::vector<double> column(n);
    std::vector<bool> seen(n);
    for (std::size_t i = 0; i < n; ++i) {
      column[i] = s[i][j];
      seen[i] = mask.visible(static_cast<int>(i), static_cast<int>(j));
    }
    const std::vector<double> weights = softmax(column, seen);
    for (std::size_t i = 0; i < n; ++i) out[i][j] = weights[i];
  }
  return out;
}

// Softmax over every key, then the hidden ones set to 0 (and, when asked, each row divided by
// what is left of its sum).
Grid mask_after(const Grid& s, const Mask& mask, bool renormalise) {
  Grid out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    std::vector<double> row = softmax(s[i], std::vector<bool>(s[i].size(), true));
    double kept = 0.0;
    for (std::size_t j = 0; j < row.size(); ++j) {
      if (!mask.visible(static_cast<int>(i), static_cast<int>(j))) row[j] = 0.0;
      kept += row[j];
    }
    if (renormalise && kept > 0.0)
      for (double& v : row) v /= kept;
    out.push_back(std::move(row));
  }
  return out;
}

Matrix rounded(const Grid& values, int rows, int cols) {
  Matrix out(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      out.at(i, j) = static_cast<float>(values[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)]);
  return out;
}

}  // namespace

Mistake mistake_at(int index) { return static_cast<Mistake>(std::clamp(index, 0, kMistakeCount - 1)); }

const char* mistake_name(Mistake mistake) {
  switch (mistake) {
    case Mistake::SoftmaxOverColumns: return N_("softmax over the wrong axis");
    case Mistake::NoScaling: return N_("no scaling");
    case Mistake::MaskAfterSoftmax: return N_("masking after the softmax");
    case Mistake::MaskAfterSoftmaxRenormalised: return N_("renormalising after masking");
  }
  return "";
}

namespace {

// Below this the two pictures look alike (the Korean example's nearly uniform weights: every
// mistake but masking changed no cell by more than a few hundredths).
constexpr double kVisibleDifference = 0.25;  // a quarter of the weights' colour scale
constexpr double kMostSharpening = 256.0;

Grid sharpened(Grid logits, double factor) {
  for (std::vector<double>& row : logits)
    for (double& v : row) v *= factor;
  return logits;
}

// The demonstration with the softmax's inputs multiplied by `factor` (1: as the head computed them).
MistakeDemo demonstrate_at(const Problem& p, const Matrix& raw, int head, Mistake mistake, const MistakeDemo& base,
                           double factor) {
  const int n = raw.rows;
  const int m = raw.cols;
  MistakeDemo demo = base;
  demo.sharpness = factor;
  const Mask mask(demo.mask, n, m);
  const Grid scaled = sharpened(logits(p, raw, head, true), factor);
  const Grid correct = row_softmax(scaled, mask);
  Grid mistaken;
  switch (mistake) {
    case Mistake::SoftmaxOverColumns: mistaken = column_softmax(scaled, mask); break;
    case Mistake::NoScaling: mistaken = row_softmax(sharpened(logits(p, raw, head, false), factor), mask); break;
    case Mistake::MaskAfterSoftmax: mistaken = mask_after(scaled, mask, false); break;
    case Mistake::MaskAfterSoftmaxRenormalised: mistaken = mask_after(scaled, mask, true); break;
  }
  demo.mistaken = rounded(mistaken, n, m);
  demo.correct = rounded(correct, n, m);
  demo.difference = Matrix(n, m);
  demo.mistaken_row_sums.assign(static_cast<std::size_t>(n), 0.0);
  demo.correct_row_sums.assign(static_cast<std::size_t>(n), 0.0);
  demo.mistaken_col_sums.assign(static_cast<std::size_t>(m), 0.0);
  demo.largest_difference = 0.0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
    for (std::size_t j = 0; j < static_cast<std::size_t>(m); ++j) {
      const double d = mistaken[i][j] - correct[i][j];
      demo.difference.at(static_cast<int>(i), static_cast<int>(j)) = static_cast<float>(d);
      demo.largest_difference = std::max(demo.largest_difference, std::fabs(d));
      demo.mistaken_row_sums[i] += mistaken[i][j];
      demo.mistaken_col_sums[j] += mistaken[i][j];
      demo.correct_row_sums[i] += correct[i][j];
    }
  }
  return demo;
}

}  // namespace

MistakeDemo demonstrate(const Problem& p, const Result& result, int head, Mistake mistake) {
  if (head < 0 || static_cast<std::size_t>(head) >= result.heads.size())
    throw std::out_of_range("lesson: no such head");  // not translated: a programming error
  const Matrix& raw = result.heads[static_cast<std::size_t>(head)].scores;
  MistakeDemo base;
  base.mistake = mistake;
  base.mask = p.mask;
  const bool masking = mistake == Mistake::MaskAfterSoftmax || mistake == Mistake::MaskAfterSoftmaxRenormalised;
  if (masking && !p.mask.causal && !p.mask.window) {
    base.mask.causal = true;
    base.mask_substituted = true;
  }
  MistakeDemo demo = demonstrate_at(p, raw, head, mistake, base, 1.0);
  // Renormalising is the one that is no mistake: its point is that nothing changes.
  if (mistake == Mistake::MaskAfterSoftmaxRenormalised) return demo;
  for (double factor = 2.0; demo.largest_difference < kVisibleDifference && factor <= kMostSharpening; factor *= 2.0) {
    demo = demonstrate_at(p, raw, head, mistake, base, factor);
  }
  return demo;
}

}  // namespace attnviz::lesson
