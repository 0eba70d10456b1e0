#include "core/common/number_text.h"

#include <cctype>
#include <cmath>
#include <cstdio>

#include "core/common/float_text.h"

namespace attnviz {

std::string format_number(double value, int decimals) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value < 0 ? "\u2212\u221e" : "\u221e";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  std::string result(text);
  // "-0.000" reads as a sign error to students: a value that rounds to zero has no sign.
  if (result.front() == '-' && result.find_first_not_of("-0.") == std::string::npos) result.erase(0, 1);
  return with_minus_signs(result);
}

std::string format_significant(double value, int digits) {
  if (!std::isfinite(value)) return format_number(value);
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return with_minus_signs(text);
}

std::string format_vector(const std::vector<double>& values, int decimals) {
  return format_vector_lines(values, decimals, 0);
}

std::string format_vector(const std::vector<float>& values, int decimals) {
  return format_vector(std::vector<double>(values.begin(), values.end()), decimals);
}

std::string format_vector_lines(const std::vector<double>& values, int decimals, int per_line) {
  std::string text = "(";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += per_line > 0 && i % static_cast<std::size_t>(per_line) == 0 ? ",\n " : ", ";
    text += format_number(values[i], decimals);
  }
  return text + ")";
}

std::string format_grouped(long long value) { return with_minus_signs(group_thousands(value)); }

std::string group_whole_numbers(std::string_view text) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  // A number stands alone: no letter, digit, '.', '_', '/' or '-' joined to it on either side.
  const auto joined = [&](char c) {
    return digit(c) || std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '/' ||
           c == '-' || c == ',';
  };
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (!digit(text[i])) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && digit(text[end])) ++end;
    const std::string_view run = text.substr(i, end - i);
    const bool alone =
        (i == 0 || !joined(text[i - 1])) && (end == text.size() || !joined(text[end]) ||
                                             (text[end] == ',' && (end + 1 == text.size() || !digit(text[end + 1]))) ||
                                             (text[end] == '.' && (end + 1 == text.size() || !digit(text[end + 1]))));
    if (alone && run.size() >= 4 && run.size() <= 18) {
      out += format_grouped(std::stoll(std::string(run)));
    } else {
      out += run;
    }
    i = end;
  }
  return out;
}

}  // namespace attnviz
