#include "core/gpu/tiled_fp16.h"

#include <algorithm>

namespace attnviz::gpu {

int padded_to_matrix_tile(int n) { return (n + kMatrixTile - 1) / kMatrixTile * kMatrixTile; }

std::int64_t tiled_fp16_shared_bytes(int block_q, int block_k, int d_k, int d_v) {
  const std::int64_t br = block_q;
  const std::int64_t bc = block_k;
  const std::int64_t dk = padded_to_matrix_tile(d_k);
  const std::int64_t dv = padded_to_matrix_tile(d_v);
  constexpr std::int64_t half_pad = 8;   // 16 bytes of fp16 per row
  constexpr std::int64_t float_pad = 4;  // 16 bytes of fp32 per row
  // Q, K, V and P in fp16; S, O, m and l in fp32.
  const std::int64_t halves = br * (dk + half_pad) + bc * (dk + half_pad) + bc * (dv + half_pad) + br * (bc + half_pad);
  const std::int64_t floats = br * (bc + float_pad) + br * (dv + float_pad) + 2 * br;
  return 2 * halves + 4 * floats;
}

int default_tiled_fp16_block(const vk::Context& context, int d_k, int d_v) {
  for (const int block : {64, 32, 16}) {
    if (tiled_fp16_shared_bytes(block, block, d_k, d_v) <= context.limits().max_shared_memory) return block;
  }
  return 0;
}

std::uint32_t tiled_fp16_invocations(const vk::Context& context, int block_q) {
  const vk::DeviceLimits& limits = context.limits();
  std::uint32_t subgroups = std::clamp<std::uint32_t>(static_cast<std::uint32_t>(2 * block_q / kMatrixTile), 1, 8);
  while (subgroups > 1 && (subgroups * limits.subgroup_size > limits.max_workgroup_invocations ||
                           subgroups * limits.subgroup_size > limits.max_workgroup_size[0])) {
    subgroups /= 2;
  }
  return subgroups * limits.subgroup_size;
}

}  // namespace attnviz::gpu
