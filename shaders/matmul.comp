#version 450
// C[b] = A[b] · B[b] for a batch of row-major matrices: the Q, K, V projections (one batch
// per head, writing each head's block of columns) and the output projection concat · W_O.
//   A: rows × inner, B: inner × (4·quads), C: rows × (4·quads); all as RGBA32F texels.
// Workgroup: WG_X × WG_Y invocations, each owning TILE_R rows × TILE_C4 column quads.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z = 1) in;

#include "common/gemm.glsl"
#include "common/uniform_if.glsl"

layout(binding = 0) uniform samplerBuffer a_texels;
layout(binding = 1) uniform samplerBuffer b_texels;
layout(binding = 2, rgba32f) uniform writeonly imageBuffer c_texels;

// Mirrors attnviz::vk::MatmulPush (core/vk/kernels.h). Offsets and pitches count texels of
// the bound views; *_batch is the offset from one batch to the next. rows and quads end this
// dispatch's chunk: rows and columns past them are clamped into it and never stored.
layout(push_constant) uniform MatmulPush {
  int rows, quads, inner;
  int a_base, a_pitch, a_batch;
  int b_base, b_pitch, b_batch;
  int c_base, c_pitch, c_batch;
  int row_base, quad_base, batch_base;
} pc;

void main() {
  const int wg_x = int(gl_WorkGroupSize.x);
  const int wg_y = int(gl_WorkGroupSize.y);
  const int batch = pc.batch_base + int(gl_WorkGroupID.z);
  const int row0 = pc.row_base + int(gl_WorkGroupID.y) * wg_y * TILE_R + int(gl_LocalInvocationID.y);
  const int quad0 = pc.quad_base + int(gl_WorkGroupID.x) * wg_x * TILE_C4 + int(gl_LocalInvocationID.x);

  int a_row[TILE_R];
  [[unroll]] for (int r = 0; r < TILE_R; ++r) {
    a_row[r] = pc.a_base + batch * pc.a_batch + min(row0 + wg_y * r, pc.rows - 1) * pc.a_pitch;
  }
  int b_col[TILE_C4];
  [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
    b_col[c] = pc.b_base + batch * pc.b_batch + min(quad0 + wg_x * c, pc.quads - 1);
  }

  vec4 acc[TILE_R][TILE_C4];
  [[unroll]] for (int r = 0; r < TILE_R; ++r) {
    [[unroll]] for (int c = 0; c < TILE_C4; ++c) acc[r][c] = vec4(0.0);
  }

  const int full_steps = pc.inner / 4;
  for (int k4 = 0; k4 < full_steps; ++k4) {
    vec4 a[TILE_R];
    [[unroll]] for (int r = 0; r < TILE_R; ++r) a[r] = texelFetch(a_texels, a_row[r] + k4);
    const int b_row = 4 * k4 * pc.b_pitch;
    [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
      const vec4 b0 = texelFetch(b_texels, b_col[c] + b_row);
      const vec4 b1 = texelFetch(b_texels, b_col[c] + b_row + pc.b_pitch);
      const vec4 b2 = texelFetch(b_texels, b_col[c] + b_row + 2 * pc.b_pitch);
      const vec4 b3 = texelFetch(b_texels, b_col[c] + b_row + 3 * pc.b_pitch);
      [[unroll]] for (int r = 0; r < TILE_R; ++r) acc[r][c] = gemm_step(acc[r][c], a[r], b0, b1, b2, b3);
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
      const vec4 b0 = texelFetch(b_texels, b_col[c] + 4 * full_steps * pc.b_pitch);
      const vec4 b1 = texelFetch(b_texels, b_col[c] + min(4 * full_steps + 1, last) * pc.b_pitch);
      const vec4 b2 = texelFetch(b_texels, b_col[c] + min(4 * full_steps + 2, last) * pc.b_pitch);
      [[unroll]] for (int r = 0; r < TILE_R; ++r) {
        acc[r][c] = gemm_step(acc[r][c], a[r], b0, tail > 1 ? b1 : vec4(0.0), tail > 2 ? b2 : vec4(0.0), vec4(0.0));
      }
    }
  }

  [[unroll]] for (int r = 0; r < TILE_R; ++r) {
    const int row = row0 + wg_y * r;
    [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
      const int quad = quad0 + wg_x * c;
      if (row < pc.rows && quad < pc.quads) {
        imageStore(c_texels, pc.c_base + batch * pc.c_batch + row * pc.c_pitch + quad, acc[r][c]);
      }
    }
  }
}
