// Numbers on figures: colorbar ticks that are distinct and true for any range (Vulkan − Eigen
// differences of 1e-8 included), log-scale ticks, cell values in scientific notation.

#include "core/export/number_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace attnviz::exporting {
namespace {

TEST(FigureTicks, TinyRangesAreMultiplesOfOnePowerOfTen) {
  // The auditor's case: a diff colorbar from -6e-8 to 6e-8 whose ticks all read "0".
  const std::vector<double> ticks = nice_ticks(-6.2e-8, 6.2e-8, 5);
  ASSERT_GE(ticks.size(), 3u);
  std::string exponent;
  const std::vector<std::string> texts = linear_tick_texts(ticks, exponent);
  EXPECT_EQ(exponent, "-8");
  EXPECT_EQ(std::set<std::string>(texts.begin(), texts.end()).size(), ticks.size()) << "ticks must read differently";
  // True: each text times 10^exponent is its tick.
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    EXPECT_NEAR(std::stod(texts[i]) * 1e-8, ticks[i], 1e-12 * 1e-8 + 1e-3 * std::abs(ticks[i])) << texts[i];
  }
  EXPECT_EQ(texts.front(), "-6");
  EXPECT_EQ(texts.back(), "6");
}

TEST(FigureTicks, OrdinaryRangesArePlainDecimals) {
  std::string exponent = "stale";
  EXPECT_EQ(linear_tick_texts(nice_ticks(0.0, 0.131, 5), exponent),
            (std::vector<std::string>{"0.00", "0.02", "0.04", "0.06", "0.08", "0.10", "0.12"}));
  EXPECT_EQ(exponent, "");
  EXPECT_EQ(linear_tick_texts({-10.0, 0.0, 10.0}, exponent), (std::vector<std::string>{"-10", "0", "10"}));
  EXPECT_EQ(linear_tick_texts({0.0, 2e5, 4e5}, exponent), (std::vector<std::string>{"0", "2", "4"}));
  EXPECT_EQ(exponent, "5");
  EXPECT_EQ(linear_tick_texts({0.0, 0.0002, 0.0004}, exponent), (std::vector<std::string>{"0", "2", "4"}));
  EXPECT_EQ(exponent, "-4");
}

TEST(FigureTicks, LogScaleTicksAreDecades) {
  EXPECT_EQ(log_ticks(1e-4, 1.0, 5).size(), 5u);
  const std::vector<double> ticks = log_ticks(1e-4, 1.0, 5);
  for (std::size_t i = 0; i < ticks.size(); ++i)
    EXPECT_NEAR(ticks[i], std::pow(10.0, static_cast<double>(i) - 4.0), 1e-15);
  const std::vector<PowerText> texts = log_tick_texts(ticks);
  std::vector<std::string> bases;
  for (const PowerText& text : texts) {
    bases.push_back(text.base);
    EXPECT_EQ(text.exponent, "");
  }
  EXPECT_EQ(bases, (std::vector<std::string>{"0.0001", "0.001", "0.01", "0.1", "1"}));
  // Twelve decades at most five ticks: every third decade, 1 (the top) always among them.
  const std::vector<double> wide = log_ticks(1e-12, 1.0, 5);
  EXPECT_LE(wide.size(), 5u);
  EXPECT_DOUBLE_EQ(wide.back(), 1.0);
  const std::vector<PowerText> wide_texts = log_tick_texts(wide);
  EXPECT_EQ(wide_texts.front().base, "10");
  EXPECT_EQ(wide_texts.front().exponent, "-12");
  // Under two decades: 1, 2, 5 steps.
  EXPECT_EQ(log_ticks(0.15, 0.9, 5), (std::vector<double>{0.2, 0.5}));
}

TEST(FigureTicks, DecimalsTellTicksApart) {
  EXPECT_EQ(tick_decimals({0.0, 5.0, 10.0}), 0);
  EXPECT_EQ(tick_decimals({0.05, 0.1}), 2);
}

TEST(FigureCellValues, TinyValuesAreScientific) {
  EXPECT_EQ(scientific_text(-5.93e-8), "-5.9e-8");
  EXPECT_EQ(scientific_text(1.2e-7), "1.2e-7");
  EXPECT_EQ(scientific_text(0.0), "0");
  EXPECT_EQ(fixed_text(-0.0001, 2), "0.00");
}

TEST(NumberFormat, FiguresWriteNegativeNumbersWithTheMinusSign) {
  EXPECT_EQ(with_minus_signs("-0.05"), "\u22120.05");
  EXPECT_EQ(with_minus_signs("-5.9e-8"), "\u22125.9e\u22128");
  EXPECT_EQ(with_minus_signs("0.25"), "0.25");
  EXPECT_EQ(with_minus_signs("--"), "\u2212\u2212");
}

}  // namespace
}  // namespace attnviz::exporting
