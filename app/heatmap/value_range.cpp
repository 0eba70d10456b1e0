#include "app/heatmap/value_range.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace attnviz::heatmap {
namespace {

constexpr float kFloor = 1e-12f;  // small enough for Vulkan − Eigen differences (~1e-7)

}  // namespace

ValueRange symmetric_range(const Matrix& values, float scale, const MaskMatrix* visible) {
  const bool masked = visible != nullptr && visible->rows == values.rows && visible->cols == values.cols;
  float largest = 0.0f;
  for (std::size_t i = 0; i < values.data.size(); ++i) {
    if (masked && visible->visible[i] == 0) continue;
    const float v = std::fabs(scale * values.data[i]);
    if (std::isfinite(v)) largest = std::max(largest, v);
  }
  if (largest == 0.0f) largest = 1.0f;
  largest = std::max(largest, kFloor);
  return {-largest, largest};
}

ValueRange symmetric_range(const Matrix& values, float scale, const MaskMatrix* visible, float distance_bias) {
  if (distance_bias == 0.0f) return symmetric_range(values, scale, visible);
  const bool masked = visible != nullptr && visible->rows == values.rows && visible->cols == values.cols;
  float largest = 0.0f;
  for (int r = 0; r < values.rows; ++r) {
    for (int c = 0; c < values.cols; ++c) {
      if (masked && !visible->at(r, c)) continue;
      const float v = std::fabs(scale * values.at(r, c) - distance_bias * static_cast<float>(std::abs(r - c)));
      if (std::isfinite(v)) largest = std::max(largest, v);
    }
  }
  if (largest == 0.0f) largest = 1.0f;
  largest = std::max(largest, kFloor);
  return {-largest, largest};
}

ValueRange zero_to_max(const Matrix& values) {
  float largest = 0.0f;
  for (float v : values.data) {
    if (std::isfinite(v)) largest = std::max(largest, v);
  }
  return {0.0f, largest > 0.0f ? std::max(largest, kFloor) : 1.0f};
}

float colormap_position(float value, ValueRange range, bool log) {
  float t = 0.0f;
  if (log) {
    const float low = std::log10(std::max(range.min, 1e-30f));
    const float high = std::log10(std::max(range.max, 1e-30f));
    t = value > 0.0f ? (std::log10(value) - low) / std::max(high - low, 1e-30f) : 0.0f;
  } else {
    t = (value - range.min) / std::max(range.max - range.min, 1e-30f);
  }
  return std::isnan(t) ? 0.0f : std::clamp(t, 0.0f, 1.0f);
}

std::optional<ValueRange> nearly_uniform(const Matrix& weights, const MaskMatrix* visible, ValueRange colours,
                                         float share) {
  const bool masked = visible != nullptr && visible->rows == weights.rows && visible->cols == weights.cols;
  std::optional<ValueRange> seen;
  for (std::size_t i = 0; i < weights.data.size(); ++i) {
    if (masked && visible->visible[i] == 0) continue;
    const float v = weights.data[i];
    if (!std::isfinite(v)) continue;
    seen = seen ? ValueRange{std::min(seen->min, v), std::max(seen->max, v)} : ValueRange{v, v};
  }
  const float span = colours.max - colours.min;
  if (!seen || seen->max - seen->min >= share * span) return std::nullopt;
  // Flat at the top of the range (each row sees one key: every weight is 1), stretching the
  // colours to 0 … the largest would change nothing.
  if (seen->max >= colours.max - share * span) return std::nullopt;
  return seen;
}

float row_max_abs(const Matrix& values, int row) {
  float largest = 0.0f;
  if (row < 0 || row >= values.rows) return largest;
  const float* r = values.row(row);
  for (int c = 0; c < values.cols; ++c) largest = std::max(largest, std::fabs(r[c]));
  return largest;
}

}  // namespace attnviz::heatmap
