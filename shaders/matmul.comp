#version 450
// C[b] = A[b] · B[b] for a batch of row-major matrices: the Q, K, V projections (one batch
// per head, writing each head's block of columns) and the output projection concat · W_O.
//   A: rows × inner, B: inner × (4·quads), C: rows × (4·quads); all as RGBA32F texels.
// Workgroup: WG_X × WG_Y invocations, each owning TILE_R rows × TILE_C4 column quads.
// With STAGE_IN_SHARED (GPUs), the workgroup first copies blocks of SHARED_K4 inner quads of
// its A rows and B columns into shared memory and multiplies from there; on lavapipe, where
// shared-memory loads are per-lane scalar loops, the texel fetches are used directly.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z = 1) in;
layout(constant_id = 2) const int STAGE_IN_SHARED = 0;
layout(constant_id = 3) const int SHARED_K4 = 4;

#include "common/dispatch.glsl"
#include "common/gemm.glsl"
#include "common/uniform_if.glsl"

layout(binding = 0) uniform samplerBuffer a_texels;
layout(binding = 1) uniform samplerBuffer b_texels;
layout(binding = 2, rgba32f) uniform writeonly imageBuffer c_texels;

// Mirrors attnviz::gpu::MatmulPush (core/gpu/kernels.h). The operands count texels of the bound
// views (stride: from one batch to the next); the chunk's head_base is the first batch.
layout(push_constant) uniform MatmulPush {
  int inner;  // the shared dimension (floats)
  Operand a, b, c;
  Chunk chunk;
} pc;

// A block: tile rows × SHARED_K4 texels; B block: 4·SHARED_K4 rows × tile quads.
const uint kTileRows = gl_WorkGroupSize.y * TILE_R;
const uint kTileQuads = gl_WorkGroupSize.x * TILE_C4;
shared vec4 a_block[STAGE_IN_SHARED != 0 ? kTileRows * SHARED_K4 : 1];
shared vec4 b_block[STAGE_IN_SHARED != 0 ? 4 * SHARED_K4 * kTileQuads : 1];

void main() {
  const int wg_x = int(gl_WorkGroupSize.x);
  const int wg_y = int(gl_WorkGroupSize.y);
  const int batch = pc.chunk.head_base + int(gl_WorkGroupID.z);
  const int row0 = pc.chunk.row_base + int(gl_WorkGroupID.y) * wg_y * TILE_R + int(gl_LocalInvocationID.y);
  const int quad0 = pc.chunk.quad_base + int(gl_WorkGroupID.x) * wg_x * TILE_C4 + int(gl_LocalInvocationID.x);

  int a_row[TILE_R];
  [[unroll]] for (int r = 0; r < TILE_R; ++r) {
    a_row[r] = pc.a.base + batch * pc.a.stride + min(row0 + wg_y * r, pc.chunk.row_end - 1) * pc.a.pitch;
  }
  int b_col[TILE_C4];
  [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
    b_col[c] = pc.b.base + batch * pc.b.stride + min(quad0 + wg_x * c, pc.chunk.quad_end - 1);
  }

  vec4 acc[TILE_R][TILE_C4];
  [[unroll]] for (int r = 0; r < TILE_R; ++r) {
    [[unroll]] for (int c = 0; c < TILE_C4; ++c) acc[r][c] = vec4(0.0);
  }

  const int full_steps = pc.inner / 4;
  UNIFORM_IF(STAGE_IN_SHARED == 0) {
    for (int k4 = 0; k4 < full_steps; ++k4) {
      vec4 a[TILE_R];
      [[unroll]] for (int r = 0; r < TILE_R; ++r) a[r] = texelFetch(a_texels, a_row[r] + k4);
      const int b_row = 4 * k4 * pc.b.pitch;
      [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
        const vec4 b0 = texelFetch(b_texels, b_col[c] + b_row);
        const vec4 b1 = texelFetch(b_texels, b_col[c] + b_row + pc.b.pitch);
        const vec4 b2 = texelFetch(b_texels, b_col[c] + b_row + 2 * pc.b.pitch);
        const vec4 b3 = texelFetch(b_texels, b_col[c] + b_row + 3 * pc.b.pitch);
        [[unroll]] for (int r = 0; r < TILE_R; ++r) acc[r][c] = gemm_step(acc[r][c], a[r], b0, b1, b2, b3);
      }
    }
  }
  UNIFORM_IF(STAGE_IN_SHARED != 0) {
    const int invocations = wg_x * wg_y;
    const int local = int(gl_LocalInvocationIndex);
    const int tile_row = row0 - int(gl_LocalInvocationID.y);
    const int tile_quad = quad0 - int(gl_LocalInvocationID.x);
    const int a_batch = pc.a.base + batch * pc.a.stride;
    const int b_batch = pc.b.base + batch * pc.b.stride;
    for (int k0 = 0; k0 < full_steps; k0 += SHARED_K4) {
      const int steps = min(SHARED_K4, full_steps - k0);
      // Neighbouring invocations copy neighbouring texels (coalesced reads).
      for (int e = local; e < int(kTileRows) * SHARED_K4; e += invocations) {
        const int r = e / SHARED_K4;
        const int k = e - r * SHARED_K4;
        const int row = min(tile_row + r, pc.chunk.row_end - 1);
        a_block[e] = k < steps ? texelFetch(a_texels, a_batch + row * pc.a.pitch + k0 + k) : vec4(0.0);
      }
      for (int e = local; e < 4 * SHARED_K4 * int(kTileQuads); e += invocations) {
        const int kk = e / int(kTileQuads);
        const int q = e - kk * int(kTileQuads);
        const int quad = min(tile_quad + q, pc.chunk.quad_end - 1);
        b_block[e] = kk < 4 * steps ? texelFetch(b_texels, b_batch + (4 * k0 + kk) * pc.b.pitch + quad) : vec4(0.0);
      }
      barrier();
      for (int k = 0; k < steps; ++k) {
        vec4 a[TILE_R];
        [[unroll]] for (int r = 0; r < TILE_R; ++r) {
          a[r] = a_block[(int(gl_LocalInvocationID.y) + wg_y * r) * SHARED_K4 + k];
        }
        [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
          const int column = int(gl_LocalInvocationID.x) + wg_x * c;
          const int stride = int(kTileQuads);
          const vec4 b0 = b_block[(4 * k) * stride + column];
          const vec4 b1 = b_block[(4 * k + 1) * stride + column];
          const vec4 b2 = b_block[(4 * k + 2) * stride + column];
          const vec4 b3 = b_block[(4 * k + 3) * stride + column];
          [[unroll]] for (int r = 0; r < TILE_R; ++r) acc[r][c] = gemm_step(acc[r][c], a[r], b0, b1, b2, b3);
        }
      }
      barrier();
    }
  }

  // The last 1..3 values of the inner dimension: padding beyond `inner` may hold anything.
  const int tail = pc.inner - 4 * full_steps;
  UNIFORM_IF(tail > 0) {
    vec4 a[TILE_R];
    [[unroll]] for (int r = 0; r < TILE_R; ++r) a[r] = keep_first(texelFetch(a_texels, a_row[r] + full_steps), tail);
    // Rows of B past `inner` are never fetched (clamped, then replaced by zero).
    const int last = pc.inner - 1;
    [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
      const vec4 b0 = texelFetch(b_texels, b_col[c] + 4 * full_steps * pc.b.pitch);
      const vec4 b1 = texelFetch(b_texels, b_col[c] + min(4 * full_steps + 1, last) * pc.b.pitch);
      const vec4 b2 = texelFetch(b_texels, b_col[c] + min(4 * full_steps + 2, last) * pc.b.pitch);
      [[unroll]] for (int r = 0; r < TILE_R; ++r) {
        acc[r][c] = gemm_step(acc[r][c], a[r], b0, tail > 1 ? b1 : vec4(0.0), tail > 2 ? b2 : vec4(0.0), vec4(0.0));
      }
    }
  }

  [[unroll]] for (int r = 0; r < TILE_R; ++r) {
    const int row = row0 + wg_y * r;
    [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
      const int quad = quad0 + wg_x * c;
      if (row < pc.chunk.row_end && quad < pc.chunk.quad_end) {
        imageStore(c_texels, pc.c.base + batch * pc.c.stride + row * pc.c.pitch + quad, acc[r][c]);
      }
    }
  }
}
