#pragma once
// Sizes for the fp16 cooperative-matrix variant of the tiled kernel
// (shaders/tiled_attention_fp16.comp): its tiles are made of 16 × 16 matrices, so Br, Bc and
// the head widths it is built for are multiples of 16 (widths padded with zeros), and its
// shared memory holds Q, K, V and P in fp16 and S, O, m and l in fp32, each row padded by 16
// bytes.

#include <cstdint>

#include "core/vk/context.h"

namespace attnviz::gpu {

inline constexpr int kMatrixTile = 16;

// n rounded up to a multiple of 16 (the shader's D_K and D_V).
int padded_to_matrix_tile(int n);

// Bytes of shared memory the fp16 shader declares for these blocks and (true) head widths.
std::int64_t tiled_fp16_shared_bytes(int block_q, int block_k, int d_k, int d_v);

// The largest Br = Bc of 64, 32 and 16 whose tile fits the device's shared memory, or 0.
int default_tiled_fp16_block(const vk::Context& context, int d_k, int d_v);

// Subgroups per workgroup: two per 16 query rows (Br = 32: four), at most eight, within the
// device's workgroup limits; at least one.
std::uint32_t tiled_fp16_invocations(const vk::Context& context, int block_q);

}  // namespace attnviz::gpu
