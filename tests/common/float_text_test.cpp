#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/common/float_text.h"
#include "tests/attention/random_problem.h"

namespace attnviz {
namespace {

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(FloatText, ShortestTextForHumanTypedValues) {
  EXPECT_EQ(format_float(0.3374f), "0.3374");
  EXPECT_EQ(format_float(-1.1925f), "-1.1925");
  EXPECT_EQ(format_float(1.0f), "1");
  EXPECT_EQ(format_float(1e-7f), "1e-07");
}

TEST(FloatText, JsonNumberConvertsBackToTheSameFloat) {
  const float awkward[] = {0.1f,
                           -0.0f,
                           0.0f,
                           1e-45f,
                           std::numeric_limits<float>::min(),
                           3.4028235e38f,
                           16777217.0f,
                           0.33739998936653137f,
                           1.0f / 3.0f};
  for (float f : awkward) EXPECT_TRUE(same_bits(static_cast<float>(json_number(f)), f)) << f;
  testing::TestRandom random(42);
  for (int i = 0; i < 200000; ++i) {
    std::uint32_t bits = random.next() ^ (random.next() << 16);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    if (!std::isfinite(f)) continue;
    ASSERT_TRUE(same_bits(static_cast<float>(json_number(f)), f)) << bits;
  }
}

TEST(FloatText, ThousandsAreGroupedWithAsciiCommas) {
  EXPECT_EQ(group_thousands(0), "0");
  EXPECT_EQ(group_thousands(999), "999");
  EXPECT_EQ(group_thousands(1000), "1,000");
  EXPECT_EQ(group_thousands(10512), "10,512");
  EXPECT_EQ(group_thousands(-1234567), "-1,234,567");
  EXPECT_EQ(group_thousands(std::numeric_limits<long long>::min()), "-9,223,372,036,854,775,808");
  EXPECT_EQ(group_thousands(std::numeric_limits<long long>::max()), "9,223,372,036,854,775,807");
}

}  // namespace
}  // namespace attnviz
