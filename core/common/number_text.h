#pragma once
// Numbers as the window and its lesson pages write them: fixed decimals so columns line up on a
// projector, negatives with the minus sign U+2212 ("−0.250", as the figures print them), "−∞"
// for masked scores, no "−0.000", thousands grouped. For the screen only: files and messages
// keep ASCII numbers.

#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

// `decimals` digits after the point; −∞ / +∞ / NaN as "−∞", "∞", "NaN".
std::string format_number(double value, int decimals = 3);

// `digits` significant digits without trailing zeros ("0.05", "20", "2.83"): for settings
// such as a temperature, where fixed decimals would print "20.000" or "0.050".
std::string format_significant(double value, int digits = 3);

// "12,345,678": every digit, grouped by thousands ("−1,234" below zero).
std::string format_grouped(long long value);

// `text` with every whole number of four digits or more grouped ("makes 180001 tokens; at most
// 4096" → "makes 180,001 tokens; at most 4,096"): a message written for the command line, shown
// on the screen. Decimals ("4800.5", "1e-05") and numbers inside words or paths stay as they are.
std::string group_whole_numbers(std::string_view text);

// "(0.360, 0.250, 0.230)"
std::string format_vector(const std::vector<double>& values, int decimals = 3);
std::string format_vector(const std::vector<float>& values, int decimals = 3);

// The same with a line break after every `per_line` numbers (0: one line), for a table cell
// that must not be wider than a projector's column: "(0.1, 0.2,\n 0.3, 0.4)".
std::string format_vector_lines(const std::vector<double>& values, int decimals, int per_line);

}  // namespace attnviz
