#pragma once
// Colour ranges of the heatmaps, from the host values (pure functions, unit-tested).

#include <optional>

#include "core/common/matrix.h"

namespace attnviz::heatmap {

struct ValueRange {
  float min = 0.0f;
  float max = 1.0f;
};

// Symmetric around 0: ±(largest |scale · value|), counting only the cells `visible` allows
// (all when null). Never empty: a matrix of zeros gets ±1, tiny ones a floor of 1e-12.
ValueRange symmetric_range(const Matrix& values, float scale = 1.0f, const MaskMatrix* visible = nullptr);
// The same for scale · values − distance_bias · |row − col| (scaled scores with ALiBi's bias).
ValueRange symmetric_range(const Matrix& values, float scale, const MaskMatrix* visible, float distance_bias);

// [0, largest value] (weights with an automatic range); a 1e-12 floor as above.
ValueRange zero_to_max(const Matrix& values);

// Where `value` falls on the colormap, 0..1 (clamped): linear in [min, max], or linear in
// log10 between them when `log` (values ≤ 0 at the bottom). The shader computes the same.
float colormap_position(float value, ValueRange range, bool log);

// The log scale of the weights: 1e-4 to 1.
inline constexpr ValueRange kLogWeights{1e-4f, 1.0f};

// Weights that barely vary look like one flat block on their colour range (the Korean worked
// example: 0.120 to 0.131 on 0 to 1). The visible weights' own range when it spans less than
// `share` of `colours`, else nullopt (also when no weight is visible, and when they are all
// within `share` of the top, as when each row sees a single key: stretching changes nothing).
std::optional<ValueRange> nearly_uniform(const Matrix& weights, const MaskMatrix* visible, ValueRange colours,
                                         float share = 0.05f);

// Largest |value| in row `row` (bar charts); 0 for a row outside the matrix.
float row_max_abs(const Matrix& values, int row);

}  // namespace attnviz::heatmap
