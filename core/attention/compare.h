#pragma once
// Differences between two Results of the same Problem (`--backend both`, the GUI's
// Backend panel, parity tests).

#include <string>
#include <vector>

#include "core/attention/result.h"

namespace attnviz {

// The agreement attnviz promises between its backends: 1e-5, absolute for matrices whose
// values stay within ±1 (weights always), relative to the largest value beyond that (raw
// scores and contexts grow with d_k and the inputs, and so does float32 rounding).
constexpr double kAgreementTolerance = 1e-5;

struct MatrixDifference {
  std::string name;      // "mask", "head0.scores", "head0.weights", "head0.context", ..., "output"
  double max_abs = 0.0;  // largest |a − b|; +inf where one side is NaN or infinite and the other is not the same
  double max_rel = 0.0;  // max_abs divided by `largest` (0 when b is all 0)
  double largest = 0.0;  // the largest |b| in that matrix
  int row = 0;           // where max_abs occurs
  int col = 0;

  // max_abs ≤ tolerance · max(1, largest): see kAgreementTolerance.
  [[nodiscard]] bool agrees(double tolerance = kAgreementTolerance) const;
};

// One entry for the mask (max_abs 1 where the two differ), then one per matrix in the order
// above. Throws std::invalid_argument when the shapes differ.
std::vector<MatrixDifference> compare_results(const Result& a, const Result& b);

// True when every entry agrees().
bool results_agree(const std::vector<MatrixDifference>& differences, double tolerance = kAgreementTolerance);

// Elementwise a − b of one matrix (the GUI's difference heatmap).
Matrix difference(const Matrix& a, const Matrix& b);

}  // namespace attnviz
