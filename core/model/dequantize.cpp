#include "core/model/dequantize.h"

#include <cstring>
#include <stdexcept>

namespace attnviz::model {
namespace {

std::uint16_t read_u16(const std::byte* p) {
  std::uint16_t value = 0;
  std::memcpy(&value, p, 2);  // the files are little-endian, as is every machine attnviz builds for
  return value;
}

const std::uint8_t* as_u8(const std::byte* p) { return reinterpret_cast<const std::uint8_t*>(p); }

// 32 values: scale · int8.
void q8_0_block(const std::byte* block, float* y) {
  const float d = half_to_float(read_u16(block));
  const auto* q = reinterpret_cast<const std::int8_t*>(block + 2);
  for (int j = 0; j < 32; ++j) y[j] = d * static_cast<float>(q[j]);
}

// 32 values: element j in the low nibble of byte j, element j + 16 in its high nibble, both
// offset by 8.
void q4_0_block(const std::byte* block, float* y) {
  const float d = half_to_float(read_u16(block));
  const std::uint8_t* q = as_u8(block + 2);
  for (int j = 0; j < 16; ++j) {
    y[j] = d * static_cast<float>((q[j] & 0x0F) - 8);
    y[j + 16] = d * static_cast<float>((q[j] >> 4) - 8);
  }
}

// Q4_K's eight 6-bit scales and mins packed into 12 bytes.
void q4_k_scale_min(int j, const std::uint8_t* s, int& scale, int& min) {
  if (j < 4) {
    scale = s[j] & 63;
    min = s[j + 4] & 63;
  } else {
    scale = (s[j + 4] & 0x0F) | ((s[j - 4] >> 6) << 4);
    min = (s[j + 4] >> 4) | ((s[j] >> 6) << 4);
  }
}

// 256 values in 8 groups of 32, each d·scale·q − dmin·min; groups 2i and 2i + 1 share 32
// bytes of nibbles (low nibbles for the first, high for the second).
void q4_k_block(const std::byte* block, float* y) {
  const float d = half_to_float(read_u16(block));
  const float dmin = half_to_float(read_u16(block + 2));
  const std::uint8_t* scales = as_u8(block + 4);
  const std::uint8_t* q = as_u8(block + 16);
  for (int group = 0; group < 8; group += 2) {
    int scale = 0;
    int min = 0;
    q4_k_scale_min(group, scales, scale, min);
    const float d1 = d * static_cast<float>(scale);
    const float m1 = dmin * static_cast<float>(min);
    q4_k_scale_min(group + 1, scales, scale, min);
    const float d2 = d * static_cast<float>(scale);
    const float m2 = dmin * static_cast<float>(min);
    for (int l = 0; l < 32; ++l) *y++ = d1 * static_cast<float>(q[l] & 0x0F) - m1;
    for (int l = 0; l < 32; ++l) *y++ = d2 * static_cast<float>(q[l] >> 4) - m2;
    q += 32;
  }
}

// 256 values, 6 bits each (4 low bits in ql, 2 high bits in qh) offset by 32, with one int8
// scale per 16 values and the block's d.
void q6_k_block(const std::byte* block, float* y) {
  const std::uint8_t* ql = as_u8(block);
  const std::uint8_t* qh = as_u8(block + 128);
  const auto* sc = reinterpret_cast<const std::int8_t*>(block + 192);
  const float d = half_to_float(read_u16(block + 208));
  for (int half = 0; half < 2; ++half) {
    for (int l = 0; l < 32; ++l) {
      const int is = l / 16;
      const int q1 = ((ql[l] & 0x0F) | (((qh[l] >> 0) & 3) << 4)) - 32;
      const int q2 = ((ql[l + 32] & 0x0F) | (((qh[l] >> 2) & 3) << 4)) - 32;
      const int q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
      const int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
      y[l] = d * static_cast<float>(sc[is]) * static_cast<float>(q1);
      y[l + 32] = d * static_cast<float>(sc[is + 2]) * static_cast<float>(q2);
      y[l + 64] = d * static_cast<float>(sc[is + 4]) * static_cast<float>(q3);
      y[l + 96] = d * static_cast<float>(sc[is + 6]) * static_cast<float>(q4);
    }
    y += 128;
    ql += 64;
    qh += 32;
    sc += 8;
  }
}

template <typename Block>
void each_block(std::span<const std::byte> data, std::uint64_t count, BlockLayout layout, float* out, Block block) {
  const auto blocks = static_cast<std::int64_t>(count / layout.elements);
  auto one = [&](std::int64_t b) {
    const auto index = static_cast<std::uint64_t>(b);
    block(data.data() + index * layout.bytes, out + index * layout.elements);
  };
  // A row of a matrix (the usual call, thousands per product) stays on this thread without
  // entering OpenMP at all: even a parallel region that `if` keeps serial costs about a
  // microsecond, which was most of a row's dequantisation.
  if (blocks <= 4096) {
    for (std::int64_t b = 0; b < blocks; ++b) one(b);
    return;
  }
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < blocks; ++b) one(b);
}

}  // namespace

float half_to_float(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1Fu;
  std::uint32_t mantissa = bits & 0x3FFu;
  std::uint32_t result = 0;
  if (exponent == 0x1F) {
    result = sign | 0x7F800000u | (mantissa << 13);  // infinity or NaN
  } else if (exponent != 0) {
    result = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa != 0) {
    // A subnormal half is a normal float: shift the mantissa up until its leading 1 is implicit.
    std::uint32_t e = 113;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --e;
    }
    result = sign | (e << 23) | ((mantissa & 0x3FFu) << 13);
  } else {
    result = sign;
  }
  float f = 0.0f;
  std::memcpy(&f, &result, 4);
  return f;
}

float bfloat16_to_float(std::uint16_t bits) {
  const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
  float f = 0.0f;
  std::memcpy(&f, &wide, 4);
  return f;
}

void dequantize(TensorType type, std::span<const std::byte> data, std::uint64_t count, float* out) {
  if (count == 0) return;  // an empty tensor's buffers may be null, which memcpy must never see
  const BlockLayout layout = block_layout(type);
  switch (type) {
    case TensorType::F32: std::memcpy(out, data.data(), count * 4); return;
    case TensorType::F16:
      each_block(data, count, layout, out, [](const std::byte* p, float* y) { *y = half_to_float(read_u16(p)); });
      return;
    case TensorType::BF16:
      each_block(data, count, layout, out, [](const std::byte* p, float* y) { *y = bfloat16_to_float(read_u16(p)); });
      return;
    case TensorType::Q8_0: each_block(data, count, layout, out, q8_0_block); return;
    case TensorType::Q4_0: each_block(data, count, layout, out, q4_0_block); return;
    case TensorType::Q4_K: each_block(data, count, layout, out, q4_k_block); return;
    case TensorType::Q6_K: each_block(data, count, layout, out, q6_k_block); return;
    case TensorType::Other: break;
  }
  throw std::logic_error("dequantize: a tensor type attnviz does not read");
}

}  // namespace attnviz::model
