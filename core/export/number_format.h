#pragma once
// Numbers as a reader sees them on a heatmap: colorbar ticks at round values, cell values with
// a fixed number of decimals.

#include <string>
#include <vector>

namespace attnviz::exporting {

// Round tick values (1, 2 or 5 × 10^k apart) inside [low, high], about `target` of them.
std::vector<double> nice_ticks(double low, double high, int target = 5);

// Decimals that tell the given ticks apart (0 for 0, 5, 10; 2 for 0.05, 0.1, ...).
int tick_decimals(const std::vector<double>& ticks);

// Fixed-point text, locale-independent; "-0.00" reads "0.00".
std::string fixed_text(double value, int decimals);

// Decimals for values in cells whose largest magnitude is max_abs: 2 below 10, 1 below 100, else 0.
int cell_decimals(double max_abs);

}  // namespace attnviz::exporting
