#pragma once
// Numbers as the lesson pages write them: fixed decimals so columns line up on a projector,
// "−∞" for masked scores, no "-0.000".

#include <string>
#include <vector>

namespace attnviz::lesson {

// `decimals` digits after the point; −∞ / +∞ / NaN as "−∞", "∞", "NaN".
std::string format_number(double value, int decimals = 3);

// "(0.360, 0.250, 0.230)"
std::string format_vector(const std::vector<double>& values, int decimals = 3);
std::string format_vector(const std::vector<float>& values, int decimals = 3);

}  // namespace attnviz::lesson
