#pragma once
// The classic mistakes a popular tutorial warns about, computed the wrong way beside the right
// way for one head, so the step view can show what goes wrong (and, for the one that is not a
// mistake, that nothing does):
//   - softmax over the wrong axis: each column sums to 1, the rows do not;
//   - no scaling: the softmax of the unscaled scores saturates (the scaling lesson's subject);
//   - masking after the softmax: the hidden keys' weights are removed after normalising, so the
//     rows no longer sum to 1;
//   - masking after the softmax and renormalising each row: identical to masking before (the
//     difference is 0 up to float64 rounding).
// Every matrix here is float64 arithmetic on the Result's raw scores, the problem's scale and
// ALiBi's bias (what the softmax sees), rounded to float32 once; the correct weights are the
// softmax before dropout. UI-free: the window draws them, tests check them.

#include <vector>

#include "core/attention/result.h"
#include "core/scenario/problem.h"

namespace attnviz::lesson {

enum class Mistake { SoftmaxOverColumns, NoScaling, MaskAfterSoftmax, MaskAfterSoftmaxRenormalised };
inline constexpr int kMistakeCount = 4;

Mistake mistake_at(int index);              // 0-based; clamps into [0, kMistakeCount)
const char* mistake_name(Mistake mistake);  // "softmax over the wrong axis", ...

struct MistakeDemo {
  Mistake mistake = Mistake::SoftmaxOverColumns;
  Matrix mistaken;                        // N × M: what the mistaken computation gives
  Matrix correct;                         // N × M: the softmax of each row over its visible keys
  Matrix difference;                      // N × M: mistaken − correct (in float64, then rounded)
  std::vector<double> mistaken_row_sums;  // N
  std::vector<double> mistaken_col_sums;  // M
  std::vector<double> correct_row_sums;   // N (1, or 0 for a row that sees nothing)
  double largest_difference = 0.0;        // max |mistaken − correct|, in float64
  // The masking mistakes need a mask: a scenario without one is shown under a causal mask.
  MaskSetting mask;
  bool mask_substituted = false;
  // What the softmax's inputs were multiplied by. 1: the head's own. A head whose weights are
  // nearly uniform looks the same both ways (the Korean example's did, for every mistake but
  // masking), so its scores are made sharper, ×2, ×4, … (×256 at most), until the mistake
  // changes some weight by 0.25 or more (a quarter of the colour scale); the page says so. Never for renormalising, whose
  // point is that nothing changes.
  double sharpness = 1.0;
};

// Throws std::out_of_range for a head outside the problem.
MistakeDemo demonstrate(const Problem& problem, const Result& result, int head, Mistake mistake);

}  // namespace attnviz::lesson
