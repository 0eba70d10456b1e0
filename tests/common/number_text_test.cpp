// Numbers as the window writes them (core/common/number_text.h): fixed decimals, the minus sign
// U+2212, no negative zero, thousands grouped.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/common/number_text.h"

namespace attnviz {
namespace {

TEST(NumberText, FixedDecimalsInfinityAndNoNegativeZero) {
  EXPECT_EQ(format_number(0.12345, 3), "0.123");
  EXPECT_EQ(format_number(-0.0001, 3), "0.000");
  EXPECT_EQ(format_number(-1.5, 1), "\u22121.5");
  EXPECT_EQ(format_number(-INFINITY), "\u2212\u221e");
  EXPECT_EQ(format_vector(std::vector<double>{1.0, 2.5}, 1), "(1.0, 2.5)");
  EXPECT_EQ(format_significant(0.05), "0.05");
  EXPECT_EQ(format_significant(20.0), "20");
  EXPECT_EQ(format_vector_lines({1.0, 2.0, 3.0}, 0, 2), "(1, 2,\n 3)");
  EXPECT_EQ(format_vector_lines({1.0, 2.0, 3.0}, 0, 0), "(1, 2, 3)");
}

TEST(NumberText, ThousandsAreGroupedByThree) {
  EXPECT_EQ(format_grouped(0), "0");
  EXPECT_EQ(format_grouped(999), "999");
  EXPECT_EQ(format_grouped(1000), "1,000");
  EXPECT_EQ(format_grouped(-1234), "\u22121,234");  // the minus sign the figures print
  // Numbers in a command-line message, grouped for the screen; decimals, names and grouped
  // numbers left as they are.
  EXPECT_EQ(group_whole_numbers("makes 180001 tokens; at most 4096 are computed"),
            "makes 180,001 tokens; at most 4,096 are computed");
  EXPECT_EQ(group_whole_numbers("takes 4800 MiB, 2048."), "takes 4,800 MiB, 2,048.");
  EXPECT_EQ(group_whole_numbers("4800.5 and 1e-05 and 12,345 and 999"), "4800.5 and 1e-05 and 12,345 and 999");
  EXPECT_EQ(group_whole_numbers("gpt2-1024/model_10000.bin <0xEC> v12345"), "gpt2-1024/model_10000.bin <0xEC> v12345");
  EXPECT_EQ(group_whole_numbers("token 12345 (id 50257)"), "token 12,345 (id 50,257)");
  EXPECT_EQ(format_grouped(65535), "65,535");
  EXPECT_EQ(format_grouped(-1234567), "\u22121,234,567");
}

}  // namespace
}  // namespace attnviz
