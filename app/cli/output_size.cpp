#include "app/cli/output_size.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/common/error.h"
#include "core/export/result_arrays.h"

namespace attnviz::cli {
namespace {

// Shortest float text of softmax weights and raw scores is 9 to 12 characters ("0.00024414062",
// "-1.2345679"), plus ", " between numbers: 12 on average over the results measured (1 head of
// 4096 tokens: 417 MB for 33.6 million numbers).
constexpr std::uint64_t kJsonBytesPerNumber = 12;
constexpr std::uint64_t kJsonBytesPerMaskCell = 3;  // "1, "

std::uint64_t tokens_text_bytes(const Problem& problem) {
  std::uint64_t bytes = 0;
  for (const auto& token : problem.tokens) bytes += token.size() + 4;
  for (const auto& token : problem.source_tokens) bytes += token.size() + 4;
  return bytes;
}

}  // namespace

std::uint64_t estimated_json_bytes(const Problem& problem, const OutputPlan& plan) {
  const auto n = static_cast<std::uint64_t>(problem.n());
  const auto m = static_cast<std::uint64_t>(problem.m());
  const auto heads = static_cast<std::uint64_t>(plan.heads);
  const auto d_out = static_cast<std::uint64_t>(problem.wo ? problem.wo->cols : problem.num_heads * problem.d_v);
  const std::uint64_t numbers =
      heads * n * ((plan.matrices ? 2 * m : 0) + static_cast<std::uint64_t>(problem.d_v)) + n * d_out;
  return 1024 + tokens_text_bytes(problem) + numbers * kJsonBytesPerNumber + n * m * kJsonBytesPerMaskCell;
}

std::uint64_t npy_bytes(const Problem& problem, const OutputPlan& plan) {
  const auto d_out = static_cast<std::uint64_t>(problem.wo ? problem.wo->cols : problem.num_heads * problem.d_v);
  return exporting::result_arrays_bytes(static_cast<std::uint64_t>(plan.heads), static_cast<std::uint64_t>(problem.n()),
                                        static_cast<std::uint64_t>(problem.m()),
                                        static_cast<std::uint64_t>(problem.d_v), d_out, tokens_text_bytes(problem),
                                        plan.matrices);
}

std::optional<std::uint64_t> parse_max_output(const std::string& text) {
  if (text == "none") return std::nullopt;
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  const std::string unit(stop, end);
  double scale = 0.0;
  if (unit.empty() || unit == "B")
    scale = 1.0;
  else if (unit == "K" || unit == "KiB")
    scale = 1024.0;
  else if (unit == "M" || unit == "MiB")
    scale = 1024.0 * 1024.0;
  else if (unit == "G" || unit == "GiB")
    scale = 1024.0 * 1024.0 * 1024.0;
  else if (unit == "T" || unit == "TiB")
    scale = 1024.0 * 1024.0 * 1024.0 * 1024.0;
  if (text.empty() || error != std::errc() || scale == 0.0 || !(value > 0.0) || !std::isfinite(value * scale) ||
      value * scale >= 1.8e19) {
    throw InputError(
        "<command line>", "--max-output",
        "\"" + text + "\" is not a size: use a number of bytes with K, M, G or T (powers of 1024), e.g. 4G, or none");
  }
  return static_cast<std::uint64_t>(value * scale);
}

std::string size_text(std::uint64_t bytes) {
  const char* units[] = {"bytes", "KB", "MB", "GB", "TB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1000.0 && unit < 4) {
    value /= 1000.0;
    ++unit;
  }
  char text[32];
  if (unit == 0)
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  else
    std::snprintf(text, sizeof text, value < 10.0 ? "%.1f %s" : "%.0f %s", value, units[unit]);
  return text;
}

}  // namespace attnviz::cli
