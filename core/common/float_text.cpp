#include "core/common/float_text.h"

#include <charconv>
#include <cstdlib>

namespace attnviz {

std::string format_float(float f) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, f);
  (void)ec;  // 32 bytes always suffice for a float
  return std::string(buffer, end);
}

std::string group_thousands(long long value) {
  // The magnitude as unsigned, so that the most negative value has one too.
  const unsigned long long magnitude =
      value < 0 ? 0ULL - static_cast<unsigned long long>(value) : static_cast<unsigned long long>(value);
  std::string digits = std::to_string(magnitude);
  for (std::size_t at = digits.size(); at > 3;) {
    at -= 3;
    digits.insert(at, ",");
  }
  return value < 0 ? "-" + digits : digits;
}

double json_number(float f) {
  const std::string text = format_float(f);
  const double shortest = std::strtod(text.c_str(), nullptr);
  // Reading text as a double then rounding to float can, in rare double-rounding cases,
  // land on a neighbour; fall back to the exact value, which always round-trips.
  return static_cast<float>(shortest) == f ? shortest : static_cast<double>(f);
}

std::string with_minus_signs(std::string text) {
  for (std::size_t at = text.find('-'); at != std::string::npos; at = text.find('-', at + 3)) {
    text.replace(at, 1, "\xE2\x88\x92");
  }
  return text;
}

}  // namespace attnviz
