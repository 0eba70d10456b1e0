// Element types from their definitions, with values worked out by hand.

#include "core/model/dequantize.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace attnviz::model {
namespace {

std::span<const std::byte> bytes_of(const std::vector<std::uint8_t>& bytes) { return std::as_bytes(std::span(bytes)); }

TEST(Dequantize, HalfPrecisionIncludingSubnormalsInfinitiesAndNaN) {
  EXPECT_EQ(half_to_float(0x3C00), 1.0f);
  EXPECT_EQ(half_to_float(0xC000), -2.0f);
  EXPECT_EQ(half_to_float(0x7BFF), 65504.0f);
  EXPECT_EQ(half_to_float(0x0001), std::ldexp(1.0f, -24));  // the smallest subnormal
  EXPECT_EQ(half_to_float(0x03FF), std::ldexp(1023.0f, -24));
  EXPECT_EQ(half_to_float(0x7C00), std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(half_to_float(0x7E00)));
  EXPECT_TRUE(std::signbit(half_to_float(0x8000)));
}

TEST(Dequantize, Bfloat16IsTheTopHalfOfAFloat) {
  EXPECT_EQ(bfloat16_to_float(0x3F80), 1.0f);
  EXPECT_EQ(bfloat16_to_float(0xC0A0), -5.0f);
}

TEST(Dequantize, Q8_0IsScaleTimesInt8) {
  std::vector<std::uint8_t> block = {0x00, 0x38};  // d = 0.5
  for (int j = 0; j < 32; ++j) block.push_back(static_cast<std::uint8_t>(static_cast<std::int8_t>(j - 16)));
  float out[32];
  dequantize(TensorType::Q8_0, bytes_of(block), 32, out);
  for (int j = 0; j < 32; ++j) EXPECT_EQ(out[j], 0.5f * static_cast<float>(j - 16));
}

TEST(Dequantize, Q4_0HasTheFirstHalfInLowNibbles) {
  std::vector<std::uint8_t> block = {0x00, 0x40};  // d = 2
  for (int j = 0; j < 16; ++j) block.push_back(static_cast<std::uint8_t>(j | ((15 - j) << 4)));
  float out[32];
  dequantize(TensorType::Q4_0, bytes_of(block), 32, out);
  EXPECT_EQ(out[0], 2.0f * (0 - 8));
  EXPECT_EQ(out[15], 2.0f * (15 - 8));
  EXPECT_EQ(out[16], 2.0f * (15 - 8));
  EXPECT_EQ(out[31], 2.0f * (0 - 8));
}

TEST(Dequantize, Q4_KScalesAndMinsOfTheUpperGroupsSpanTwoBytes) {
  std::vector<std::uint8_t> block(144, 0);
  block[1] = 0x3C;  // d = 1
  block[3] = 0x3C;  // dmin = 1
  // Group 4: scale = (scales[8] & 15) | (scales[0] >> 6) << 4, min = (scales[8] >> 4) | (scales[4] >> 6) << 4.
  block[4 + 0] = 0xC0;    // scale of group 0 = 0, two high bits 3 for group 4's scale
  block[4 + 4] = 0x40;    // min of group 0 = 0, high bits 1 for group 4's min
  block[4 + 8] = 0x25;    // low bits: scale 5, min 2
  block[16 + 64] = 0x07;  // group 4 is the low nibbles of bytes 64..95: value 7 at element 128
  std::vector<float> out(256);
  dequantize(TensorType::Q4_K, bytes_of(block), 256, out.data());
  const float scale = 5 + (3 << 4);
  const float min = 2 + (1 << 4);
  EXPECT_EQ(out[128], scale * 7 - min);
  EXPECT_EQ(out[129], -min);
  EXPECT_EQ(out[0], 0.0f);
}

TEST(Dequantize, Q6_KCombinesFourLowAndTwoHighBits) {
  std::vector<std::uint8_t> block(210, 0);
  block[0] = 0x21;          // element 0: low 1; element 64: low 2
  block[128] = 0b00110010;  // element 0: high 2; element 32: high 0; element 64: high 3
  for (int i = 0; i < 16; ++i)
    block[192 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i + 1);  // scales 1..16
  block[209] = 0x3C;                                                              // d = 1
  std::vector<float> out(256);
  dequantize(TensorType::Q6_K, bytes_of(block), 256, out.data());
  EXPECT_EQ(out[0], 1.0f * ((1 | (2 << 4)) - 32));
  EXPECT_EQ(out[64], 5.0f * ((2 | (3 << 4)) - 32));  // scale index 0 + 4
  EXPECT_EQ(out[32], 3.0f * (0 - 32));               // scale index 0 + 2
}

}  // namespace
}  // namespace attnviz::model
