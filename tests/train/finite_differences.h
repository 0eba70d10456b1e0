#pragma once
// Gradients checked against central finite differences, in float32 with a generous step: the
// check catches a wrong formula (errors of order 1), not rounding.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace attnviz::train::testing {

inline std::vector<float> random_values(std::size_t n, std::mt19937& rng, float scale = 1.0f) {
  std::normal_distribution<float> normal(0.0f, scale);
  std::vector<float> v(n);
  for (float& x : v) x = normal(rng);
  return v;
}

// Σ out·weights in double: a scalar loss whose gradient with respect to out is `weights`.
inline double dot(const std::vector<float>& out, const std::vector<float>& weights) {
  double sum = 0.0;
  for (std::size_t i = 0; i < out.size(); ++i) sum += static_cast<double>(out[i]) * weights[i];
  return sum;
}

// Up to `samples` entries of `value` (spread over it): d loss / d value[i] by central differences
// against analytic[i].
inline void expect_finite_differences(std::vector<float>& value, const std::vector<float>& analytic,
                                      const std::function<double()>& loss, const std::string& what, int samples = 24) {
  ASSERT_EQ(value.size(), analytic.size()) << what;
  const float eps = 1e-2f;
  const std::size_t stride = std::max<std::size_t>(1, value.size() / static_cast<std::size_t>(samples));
  for (std::size_t i = 0; i < value.size(); i += stride) {
    const float kept = value[i];
    value[i] = kept + eps;
    const double up = loss();
    value[i] = kept - eps;
    const double down = loss();
    value[i] = kept;
    const double numeric = (up - down) / (2.0 * eps);
    EXPECT_NEAR(analytic[i], numeric, 3e-3 + 2e-2 * std::abs(numeric)) << what << "[" << i << "]";
  }
}

}  // namespace attnviz::train::testing
