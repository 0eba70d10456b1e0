#include "core/export/number_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace attnviz::exporting {
namespace {

// floor(log10(value)) for value > 0, robust to log10(1e-8) coming out as -7.9999999.
int decade_of(double value) { return static_cast<int>(std::floor(std::log10(value) + 1e-9)); }

}  // namespace

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

std::vector<double> log_ticks(double low, double high, int target) {
  if (!(low > 0.0) || !(high > low) || !std::isfinite(high)) return {low};
  const int first = static_cast<int>(std::ceil(std::log10(low) - 1e-9));
  const int last = decade_of(high);
  std::vector<double> ticks;
  if (last - first + 1 >= 2) {
    // Every stride-th decade, counted down from the top one (1 for weights), so it is labelled.
    const int stride = (last - first + 1 + std::max(1, target) - 1) / std::max(1, target);
    for (int e = last; e >= first; e -= stride) ticks.insert(ticks.begin(), std::pow(10.0, e));
    return ticks;
  }
  for (int e = decade_of(low) - 1; e <= last + 1; ++e) {
    for (const double mantissa : {1.0, 2.0, 5.0}) {
      const double value = mantissa * std::pow(10.0, e);
      if (value >= low * (1 - 1e-9) && value <= high * (1 + 1e-9)) ticks.push_back(value);
    }
  }
  if (ticks.size() < 2) return {low, high};
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

std::vector<std::string> linear_tick_texts(const std::vector<double>& ticks, std::string& common_exponent) {
  common_exponent.clear();
  double largest = 0.0;
  for (const double tick : ticks) largest = std::max(largest, std::abs(tick));
  std::vector<double> shown = ticks;
  // Fixed-point text of 6e-8 needs 8 decimals (and tick_decimals gives up there); 250000 reads
  // better as 2.5 ×10⁵. Both become small multiples of one power of ten.
  if (largest > 0.0 && std::isfinite(largest) && (largest < 1e-3 || largest >= 1e5)) {
    const int exponent = decade_of(largest);
    const double unit = std::pow(10.0, exponent);
    for (double& tick : shown) tick /= unit;
    common_exponent = std::to_string(exponent);
  }
  const int decimals = tick_decimals(shown);
  std::vector<std::string> texts;
  for (const double tick : shown) texts.push_back(fixed_text(tick, decimals));
  return texts;
}

std::vector<PowerText> log_tick_texts(const std::vector<double>& ticks) {
  std::vector<PowerText> texts;
  for (const double tick : ticks) {
    if (!(tick > 0.0) || !std::isfinite(tick)) {
      texts.push_back({fixed_text(tick, 0), ""});
      continue;
    }
    const int exponent = decade_of(tick);
    if (exponent >= -4 && exponent <= 4) {
      texts.push_back({fixed_text(tick, std::max(0, -exponent)), ""});
      continue;
    }
    const double mantissa = tick / std::pow(10.0, exponent);
    const bool whole = std::abs(mantissa - std::round(mantissa)) < 1e-6;
    const std::string base = whole && std::lround(mantissa) == 1 ? "10" : fixed_text(mantissa, whole ? 0 : 1) + "×10";
    texts.push_back({base, std::to_string(exponent)});
  }
  return texts;
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

std::string scientific_text(double value) {
  if (value == 0.0) return "0";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific, 1);
  std::string text(buffer, result.ptr);  // "-5.9e-08"
  const std::size_t e = text.find('e');
  if (e == std::string::npos) return text;
  std::string mantissa = text.substr(0, e);
  const int exponent = std::stoi(text.substr(e + 1));
  return mantissa + "e" + std::to_string(exponent);
}

}  // namespace attnviz::exporting
