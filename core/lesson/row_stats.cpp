#include "core/lesson/row_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/number_text.h"

namespace attnviz::lesson {

std::vector<RowStats> row_statistics(const Matrix& weights, const MaskMatrix& mask) {
  std::vector<RowStats> stats(static_cast<std::size_t>(weights.rows));
  for (int i = 0; i < weights.rows; ++i) {
    RowStats& row = stats[static_cast<std::size_t>(i)];
    for (int j = 0; j < weights.cols; ++j) {
      if (!mask.at(i, j)) continue;
      ++row.visible_keys;
      const double w = weights.at(i, j);
      row.max_weight = std::max(row.max_weight, w);
      if (w > 0.0) row.entropy_bits -= w * std::log2(w);
    }
    row.uniform_entropy_bits = row.visible_keys > 0 ? std::log2(static_cast<double>(row.visible_keys)) : 0.0;
    // A one-key row has entropy exactly 0; rounding in w·log2 w must not show "-0.000".
    row.entropy_bits = std::max(row.entropy_bits, 0.0);
  }
  return stats;
}

RowStatsSummary summarize(const std::vector<RowStats>& rows) {
  RowStatsSummary summary;
  for (const RowStats& row : rows) {
    if (row.visible_keys == 0) continue;
    ++summary.rows;
    summary.mean_entropy_bits += row.entropy_bits;
    summary.mean_uniform_entropy_bits += row.uniform_entropy_bits;
    summary.mean_max_weight += row.max_weight;
  }
  if (summary.rows > 0) {
    const double count = summary.rows;
    summary.mean_entropy_bits /= count;
    summary.mean_uniform_entropy_bits /= count;
    summary.mean_max_weight /= count;
  }
  return summary;
}

Matrix softmax_at_scale(const Matrix& scores, const MaskMatrix& mask, double scale) {
  Matrix weights(scores.rows, scores.cols);
  for (int i = 0; i < scores.rows; ++i) {
    double row_max = -std::numeric_limits<double>::infinity();
    for (int j = 0; j < scores.cols; ++j)
      if (mask.at(i, j)) row_max = std::max(row_max, scale * scores.at(i, j));
    if (std::isinf(row_max)) continue;  // nothing visible: all zero
    double sum = 0.0;
    std::vector<double> e(static_cast<std::size_t>(scores.cols), 0.0);
    for (int j = 0; j < scores.cols; ++j) {
      if (!mask.at(i, j)) continue;
      e[static_cast<std::size_t>(j)] = std::exp(scale * scores.at(i, j) - row_max);
      sum += e[static_cast<std::size_t>(j)];
    }
    for (int j = 0; j < scores.cols; ++j) weights.at(i, j) = static_cast<float>(e[static_cast<std::size_t>(j)] / sum);
  }
  return weights;
}

std::vector<ScaleCase> scaling_contrast(const Matrix& scores, const MaskMatrix& mask, int d_k, double current_scale,
                                        const Wording& wording) {
  const double inv_sqrt_dk = 1.0 / std::sqrt(static_cast<double>(d_k));
  std::vector<ScaleCase> cases;
  const auto add = [&](std::string label, double scale) {
    cases.push_back({std::move(label), scale, summarize(row_statistics(softmax_at_scale(scores, mask, scale), mask))});
  };
  add("1/\u221ad_k = " + format_number(inv_sqrt_dk), inv_sqrt_dk);
  add(wording.tr("no scaling (1)"), 1.0);
  // The Problem stores the factor as float: compare at float precision.
  const auto same = [](double a, double b) { return static_cast<float>(a) == static_cast<float>(b); };
  if (!same(current_scale, inv_sqrt_dk) && !same(current_scale, 1.0))
    add(wording.tr("T = %1$s (scale %2$s)",
                   {format_significant(1.0 / current_scale), format_significant(current_scale)}),
        current_scale);
  return cases;
}

std::string scaling_verdict(const std::vector<ScaleCase>& cases, int d_k, const Wording& wording) {
  if (cases.size() < 2 || cases[0].summary.rows == 0) return "";
  if (d_k == 1) return wording.tr("With d_k = 1, 1/\u221ad_k is 1: scaling changes nothing here.");
  const RowStatsSummary& scaled = cases[0].summary;
  const RowStatsSummary& unscaled = cases[1].summary;
  const std::string entropies = wording.tr("%1$s \u2192 %2$s bits", {format_number(scaled.mean_entropy_bits, 2),
                                                                     format_number(unscaled.mean_entropy_bits, 2)});
  const std::string maxima =
      format_number(scaled.mean_max_weight, 2) + " \u2192 " + format_number(unscaled.mean_max_weight, 2);
  // Thresholds a class can see on the heatmap: a fifth of a bit, or a tenth of the weight.
  const bool sharper = scaled.mean_entropy_bits - unscaled.mean_entropy_bits >= 0.2 ||
                       unscaled.mean_max_weight - scaled.mean_max_weight >= 0.1;
  if (unscaled.mean_max_weight >= 0.9)
    return wording.tr(
        "Without 1/\u221ad_k the softmax saturates: nearly all weight on one key per row (entropy %1$s, max "
        "weight %2$s).",
        {entropies, maxima});
  if (sharper)
    return wording.tr(
        "Without 1/\u221ad_k every row gets sharper (entropy %1$s, max weight %2$s); larger d_k makes "
        "it worse.",
        {entropies, maxima});
  return wording.tr(
      "Here the scores are small, so leaving out 1/\u221ad_k changes little (entropy %1$s, max weight %2$s): the "
      "softmax stays flat either way. The effect grows with d_k and with larger scores.",
      {entropies, maxima});
}

}  // namespace attnviz::lesson
