#pragma once
// Shortest decimal text for float32 values, so files stay readable ("0.3374", not
// "0.33739998936653137") and still read back to the identical float; negatives as figures
// print them.

#include <string>

namespace attnviz {

// The double whose shortest decimal form is the shortest text of f, and that converts back
// to exactly f. Hand it to nlohmann::json, which prints doubles in shortest form.
double json_number(float f);

std::string format_float(float f);  // shortest round-trip text, e.g. "0.3374", "-1e-07"

// "12,345,678", "-1,234": every digit, grouped by thousands with ASCII commas, so a message
// reads the same on the command line and (minus sign aside) on the screen.
std::string group_thousands(long long value);

// `text` with each ASCII hyphen-minus written as the minus sign U+2212, as figures and the
// lesson pages print negative numbers (matplotlib too): "−0.05", "10⁻⁸". For the screen and
// figures only: files and messages keep ASCII numbers.
std::string with_minus_signs(std::string text);

}  // namespace attnviz
