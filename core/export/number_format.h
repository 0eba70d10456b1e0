#pragma once
// Numbers as a reader sees them on a heatmap: colorbar ticks at round values, cell values with
// a fixed number of decimals.

#include <string>
#include <vector>

#include "core/common/float_text.h"

namespace attnviz::exporting {

// Round tick values (1, 2 or 5 × 10^k apart) inside [low, high], about `target` of them.
std::vector<double> nice_ticks(double low, double high, int target = 5);

// Ticks of a log scale inside [low, high] (0 < low < high): powers of ten (every k-th decade
// when there are more than `target`), or 1, 2, 5 × 10^k when the range spans under two decades.
std::vector<double> log_ticks(double low, double high, int target = 5);

// Decimals that tell the given ticks apart (0 for 0, 5, 10; 2 for 0.05, 0.1, ...).
int tick_decimals(const std::vector<double>& ticks);

// A number as printed on a figure: `base` at the normal size, then `exponent` (when not empty)
// raised and smaller: {"10", "-8"} reads 10⁻⁸, {"2×10", "-8"} reads 2×10⁻⁸. Drawn as separate
// pieces so that no superscript glyph is needed (NanumGothic has only some of them).
struct PowerText {
  std::string base;
  std::string exponent;  // e.g. "-8"; empty: `base` alone
};

// Texts for linear ticks. Ticks that fixed-point text would write with many zeros (largest
// magnitude below 0.001, or from 100000 on) are written as multiples of one power of ten,
// returned in `common_exponent` (e.g. -8: the ticks read "-6", "-4", ... under "×10⁻⁸");
// otherwise `common_exponent` is empty. The texts are always distinct for distinct ticks.
std::vector<std::string> linear_tick_texts(const std::vector<double>& ticks, std::string& common_exponent);

// Texts for log ticks: plain decimals from 0.0001 to 99999 ("0.001", "20"), else powers of ten.
std::vector<PowerText> log_tick_texts(const std::vector<double>& ticks);

// Figures write negatives with the minus sign U+2212: with_minus_signs (core/common/float_text.h).
// The number formats here stay ASCII for files and messages.

// Fixed-point text, locale-independent; "-0.00" reads "0.00".
std::string fixed_text(double value, int decimals);

// Decimals for values in cells whose largest magnitude is max_abs: 2 below 10, 1 below 100, else 0.
int cell_decimals(double max_abs);

// A cell value when the values are tiny (largest magnitude below 0.001, e.g. Vulkan − Eigen
// differences): two significant digits in scientific notation, "-5.9e-8"; 0 reads "0".
std::string scientific_text(double value);

}  // namespace attnviz::exporting
