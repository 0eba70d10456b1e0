#include "core/export/number_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace attnviz::exporting {

std::vector<double> nice_ticks(double low, double high, int target) {
  if (!(high > low) || !std::isfinite(low) || !std::isfinite(high)) return {low};
  const double raw_step = (high - low) / std::max(1, target);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw_step)));
  const double normalized = raw_step / magnitude;
  const double step = (normalized < 1.5 ? 1.0 : normalized < 3.0 ? 2.0 : normalized < 7.0 ? 5.0 : 10.0) * magnitude;
  std::vector<double> ticks;
  const double tolerance = step * 1e-6;
  for (double k = std::ceil((low - tolerance) / step); k * step <= high + tolerance; k += 1.0) {
    const double value = k * step;
    ticks.push_back(std::abs(value) < tolerance ? 0.0 : value);
  }
  return ticks;
}

int tick_decimals(const std::vector<double>& ticks) {
  for (int decimals = 0; decimals < 8; ++decimals) {
    const double scale = std::pow(10.0, decimals);
    const bool exact = std::all_of(ticks.begin(), ticks.end(), [scale](double v) {
      return std::abs(v * scale - std::round(v * scale)) < 1e-6 * std::max(1.0, std::abs(v * scale));
    });
    if (exact) return decimals;
  }
  return 8;
}

std::string fixed_text(double value, int decimals) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
  std::string text(buffer, result.ptr);
  if (text.front() == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
  return text;
}

int cell_decimals(double max_abs) {
  if (max_abs < 10.0) return 2;
  if (max_abs < 100.0) return 1;
  return 0;
}

}  // namespace attnviz::exporting
