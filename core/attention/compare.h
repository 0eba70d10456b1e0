#pragma once
// Differences between two Results of the same Problem (`--backend both`, the GUI's
// Backend panel, parity tests).

#include <string>
#include <vector>

#include "core/attention/result.h"

namespace attnviz {

struct MatrixDifference {
  std::string name;      // "head0.scores", "head0.weights", "head0.context", ..., "output"
  double max_abs = 0.0;  // largest |a − b|
  double max_rel = 0.0;  // max_abs divided by the largest |b| in that matrix (0 when b is all 0)
  int row = 0;           // where max_abs occurs
  int col = 0;
};

// One entry per matrix, in the order above. Throws std::invalid_argument when the shapes differ.
std::vector<MatrixDifference> compare_results(const Result& a, const Result& b);

// Elementwise a − b of one matrix (the GUI's difference heatmap).
Matrix difference(const Matrix& a, const Matrix& b);

}  // namespace attnviz
