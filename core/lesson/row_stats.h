#pragma once
// The scaling lesson in numbers: how peaked each query's softmax is. Forgetting 1/√d_k makes
// the scores d_k times larger in variance, and the softmax saturates (one weight near 1, the
// others near 0); the row entropy drops towards 0 bits and the max weight rises towards 1.

#include <string>
#include <vector>

#include "core/common/matrix.h"
#include "core/common/wording.h"

namespace attnviz::lesson {

struct RowStats {
  int visible_keys = 0;
  double max_weight = 0.0;
  double entropy_bits = 0.0;          // −Σ w·log2 w over the row
  double uniform_entropy_bits = 0.0;  // log2(visible_keys): the flattest possible row
};

// One entry per row of `weights` (N × M, rows summing to 1 or all 0).
std::vector<RowStats> row_statistics(const Matrix& weights, const MaskMatrix& mask);

struct RowStatsSummary {
  int rows = 0;  // rows with at least one visible key
  double mean_entropy_bits = 0.0;
  double mean_uniform_entropy_bits = 0.0;
  double mean_max_weight = 0.0;
};

RowStatsSummary summarize(const std::vector<RowStats>& rows);

// The same raw scores under another scale factor (float64 masked softmax), for "what if".
Matrix softmax_at_scale(const Matrix& scores, const MaskMatrix& mask, double scale);

struct ScaleCase {
  std::string label;  // "1/√d_k = 0.500", "no scaling (1)", "T = 4 (scale 0.25)"
  double scale = 1.0;
  RowStatsSummary summary;
};

// 1/√d_k, no scaling, and the current factor when it is neither (as a temperature T, the
// Model panel's wording: scale = 1/T), each on `scores`; the labels in `wording`'s language.
std::vector<ScaleCase> scaling_contrast(const Matrix& scores, const MaskMatrix& mask, int d_k, double current_scale,
                                        const Wording& wording = {});

// What the contrast (the first two cases of scaling_contrast) shows for these scores, in one
// sentence: whether leaving 1/√d_k out saturates the softmax, only sharpens it, or hardly
// changes anything (small scores). The lesson's general claim is true; this says what the
// data on screen shows, so the text never promises a saturation the heatmap does not have.
std::string scaling_verdict(const std::vector<ScaleCase>& cases, int d_k, const Wording& wording = {});

}  // namespace attnviz::lesson
