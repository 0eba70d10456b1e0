#version 450
// Raw scores S_h = Q_h · K_gᵀ for a range of heads (g = h / group), tiled: every invocation
// owns TILE_R query rows × TILE_C4 quads of 4 keys. In the fast mode (zero_masked = 1) tiles
// the mask hides entirely are not computed, and masked entries are written as 0.
// With STAGE_IN_SHARED (GPUs) the workgroup first copies blocks of SHARED_K4 texels of its Q
// rows and K rows into shared memory and multiplies from there (each value fetched once per
// workgroup instead of once per invocation that uses it); lavapipe reads the texel buffers.
//   Q: per head rows × depth texels (d_k rounded up to 4, over 4), K: per kv head cols ×
//   depth texels, S: per head rows × ceil(cols/4) texels.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z = 1) in;
layout(constant_id = 2) const int STAGE_IN_SHARED = 0;
layout(constant_id = 3) const int SHARED_K4 = 4;

#define MASK_GLOBALS_BINDING 2
#define TILE_C4 4  // kScoresQuadsPerInvocation in core/gpu/kernels.h
#include "common/dispatch.glsl"
#include "common/gemm.glsl"
#include "common/mask.glsl"
#include "common/uniform_if.glsl"

layout(binding = 0) uniform samplerBuffer q_texels;
layout(binding = 1) uniform samplerBuffer k_texels;
layout(binding = 3, rgba32f) uniform writeonly imageBuffer s_texels;

// With an expression: whether some row of the workgroup's tile sees one of its keys.
shared uint tile_seen;

// Mirrors attnviz::gpu::ScoresPush (core/gpu/kernels.h). N and M are mask.rows and mask.cols.
layout(push_constant) uniform ScoresPush {
  int depth;  // texels per head row (d_k rounded up to 4, over 4)
  Operand q, k, s;  // texels; k's heads are the key/value heads
  int group;        // query heads per key/value head
  Chunk chunk;      // heads, query rows, key quads
  int zero_masked;
  MaskParams mask;
} pc;

// The workgroup's Q rows and K rows (4 keys per quad), SHARED_K4 texels of each at a time.
const uint kTileRows = gl_WorkGroupSize.y * TILE_R;
const uint kTileKeys = gl_WorkGroupSize.x * TILE_C4 * 4;
shared vec4 q_block[STAGE_IN_SHARED != 0 ? kTileRows * SHARED_K4 : 1];
shared vec4 k_block[STAGE_IN_SHARED != 0 ? kTileKeys * SHARED_K4 : 1];

void main() {
  const MaskParams mask = pc.mask;
  const int wg_x = int(gl_WorkGroupSize.x);
  const int wg_y = int(gl_WorkGroupSize.y);
  const int head = pc.chunk.head_base + int(gl_WorkGroupID.z);
  const int kv_head = head / pc.group;
  const int tile_row = pc.chunk.row_base + int(gl_WorkGroupID.y) * wg_y * TILE_R;
  const int tile_quad = pc.chunk.quad_base + int(gl_WorkGroupID.x) * wg_x * TILE_C4;
  const int row0 = tile_row + int(gl_LocalInvocationID.y);
  const int quad0 = tile_quad + int(gl_LocalInvocationID.x);
  // Rows and keys past the chunk are clamped into it (finite values, never stored).
  const int last_key = min(4 * pc.chunk.quad_end, mask.cols) - 1;

  int q_row[TILE_R];
  [[unroll]] for (int r = 0; r < TILE_R; ++r) {
    q_row[r] = pc.q.base + head * pc.q.stride + min(row0 + wg_y * r, pc.chunk.row_end - 1) * pc.q.pitch;
  }
  int k_row[TILE_C4][4];
  [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
    [[unroll]] for (int q = 0; q < 4; ++q) {
      const int key = min(4 * (quad0 + wg_x * c) + q, last_key);
      k_row[c][q] = pc.k.base + kv_head * pc.k.stride + key * pc.k.pitch;
    }
  }

  // A hidden tile costs nothing in the fast mode: its depth loop runs zero times.
  int depth = pc.depth;
  const int key0 = 4 * tile_quad;
  const int key1 = 4 * (tile_quad + wg_x * TILE_C4);
  if (pc.zero_masked != 0 && mask.runs_offset == 0 &&
      !mask_block_visible(mask, head, tile_row, tile_row + wg_y * TILE_R, key0, key1)) {
    depth = 0;
  }
  // With an expression the same exact test, shared out: each invocation searches its rows'
  // runs (one binary search each instead of one per row of the tile), the workgroup combines.
  UNIFORM_IF(pc.zero_masked != 0 && mask.runs_offset != 0) {
    const int invocation = int(gl_LocalInvocationIndex);
    if (invocation == 0) tile_seen = 0u;
    barrier();
    bool seen = false;
    for (int r = invocation; r < wg_y * TILE_R; r += wg_x * wg_y) {
      seen = seen || mask_runs_block_visible(mask, head, tile_row + r, tile_row + r + 1, key0, min(key1, mask.cols));
    }
    if (seen) atomicOr(tile_seen, 1u);
    barrier();
    if (tile_seen == 0u) depth = 0;
  }

  vec4 acc[TILE_R][TILE_C4];
  [[unroll]] for (int r = 0; r < TILE_R; ++r) {
    [[unroll]] for (int c = 0; c < TILE_C4; ++c) acc[r][c] = vec4(0.0);
  }
  UNIFORM_IF(STAGE_IN_SHARED == 0) {
    for (int k4 = 0; k4 < depth; ++k4) {
      vec4 a[TILE_R];
      [[unroll]] for (int r = 0; r < TILE_R; ++r) a[r] = texelFetch(q_texels, q_row[r] + k4);
      [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
        const vec4 b0 = texelFetch(k_texels, k_row[c][0] + k4);
        const vec4 b1 = texelFetch(k_texels, k_row[c][1] + k4);
        const vec4 b2 = texelFetch(k_texels, k_row[c][2] + k4);
        const vec4 b3 = texelFetch(k_texels, k_row[c][3] + k4);
        [[unroll]] for (int r = 0; r < TILE_R; ++r) acc[r][c] = gemm_step_transposed(acc[r][c], a[r], b0, b1, b2, b3);
      }
    }
  }
  UNIFORM_IF(STAGE_IN_SHARED != 0) {
    const int invocations = wg_x * wg_y;
    const int local = int(gl_LocalInvocationIndex);
    const int q_head = pc.q.base + head * pc.q.stride;
    const int k_head = pc.k.base + kv_head * pc.k.stride;
    for (int k0 = 0; k0 < depth; k0 += SHARED_K4) {
      const int steps = min(SHARED_K4, depth - k0);
      // Neighbouring invocations copy neighbouring texels (coalesced reads).
      for (int e = local; e < int(kTileRows) * SHARED_K4; e += invocations) {
        const int r = e / SHARED_K4;
        const int k = e - r * SHARED_K4;
        const int row = min(tile_row + r, pc.chunk.row_end - 1);
        q_block[e] = k < steps ? texelFetch(q_texels, q_head + row * pc.q.pitch + k0 + k) : vec4(0.0);
      }
      for (int e = local; e < int(kTileKeys) * SHARED_K4; e += invocations) {
        const int j = e / SHARED_K4;
        const int k = e - j * SHARED_K4;
        const int key = min(4 * tile_quad + j, last_key);
        k_block[e] = k < steps ? texelFetch(k_texels, k_head + key * pc.k.pitch + k0 + k) : vec4(0.0);
      }
      barrier();
      for (int k = 0; k < steps; ++k) {
        vec4 a[TILE_R];
        [[unroll]] for (int r = 0; r < TILE_R; ++r) a[r] = q_block[(int(gl_LocalInvocationID.y) + wg_y * r) * SHARED_K4 + k];
        [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
          const int first = 4 * (int(gl_LocalInvocationID.x) + wg_x * c);
          const vec4 b0 = k_block[first * SHARED_K4 + k];
          const vec4 b1 = k_block[(first + 1) * SHARED_K4 + k];
          const vec4 b2 = k_block[(first + 2) * SHARED_K4 + k];
          const vec4 b3 = k_block[(first + 3) * SHARED_K4 + k];
          [[unroll]] for (int r = 0; r < TILE_R; ++r) acc[r][c] = gemm_step_transposed(acc[r][c], a[r], b0, b1, b2, b3);
        }
      }
      barrier();
    }
  }

  // Fast mode: masked entries read as 0. Without global tokens a row's visible columns are
  // one span (arithmetic); with them the full predicate decides; with an expression the
  // row's runs, walked left to right.
  UNIFORM_IF(pc.zero_masked != 0 && mask.runs_offset == 0 && mask.has_globals == 0) {
    [[unroll]] for (int r = 0; r < TILE_R; ++r) {
      const ivec2 span = mask_band_span(mask, row0 + wg_y * r);
      [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
        const ivec4 col = ivec4(4 * (quad0 + wg_x * c)) + ivec4(0, 1, 2, 3);
        const bvec4 inside = bvec4(col.x >= span.x && col.x < span.y, col.y >= span.x && col.y < span.y,
                                   col.z >= span.x && col.z < span.y, col.w >= span.x && col.w < span.y);
        acc[r][c] = vec4(inside.x ? acc[r][c].x : 0.0, inside.y ? acc[r][c].y : 0.0, inside.z ? acc[r][c].z : 0.0,
                         inside.w ? acc[r][c].w : 0.0);
      }
    }
  }
  UNIFORM_IF(pc.zero_masked != 0 && mask.runs_offset == 0 && mask.has_globals != 0) {
    [[unroll]] for (int r = 0; r < TILE_R; ++r) {
      const int row = row0 + wg_y * r;
      [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
        const int col = 4 * (quad0 + wg_x * c);
        acc[r][c] = vec4(mask_fields_visible(mask, row, col) ? acc[r][c].x : 0.0,
                         mask_fields_visible(mask, row, col + 1) ? acc[r][c].y : 0.0,
                         mask_fields_visible(mask, row, col + 2) ? acc[r][c].z : 0.0,
                         mask_fields_visible(mask, row, col + 3) ? acc[r][c].w : 0.0);
      }
    }
  }
  UNIFORM_IF(pc.zero_masked != 0 && mask.runs_offset != 0) {
    // The rows' visible columns as bits first, in loops left rolled (the run walks are loops
    // themselves: unrolled TILE_R × TILE_C4 times they make the pipeline slow to compile).
    uint seen[TILE_R];
    [[dont_unroll]] for (int r = 0; r < TILE_R; ++r) {
      const ivec2 runs = mask_row_runs(mask, head, row0 + wg_y * r);
      int cursor = mask_run_after(mask, runs, 4 * quad0);
      uint bits = 0u;
      [[dont_unroll]] for (int c = 0; c < TILE_C4; ++c) {
        const bvec4 quad = mask_runs_quad(mask, runs, cursor, 4 * (quad0 + wg_x * c));
        bits |= ((quad.x ? 1u : 0u) | (quad.y ? 2u : 0u) | (quad.z ? 4u : 0u) | (quad.w ? 8u : 0u)) << (4 * c);
      }
      seen[r] = bits;
    }
    [[unroll]] for (int r = 0; r < TILE_R; ++r) {
      [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
        const uint bits = seen[r] >> (4 * c);
        acc[r][c] = vec4((bits & 1u) != 0u ? acc[r][c].x : 0.0, (bits & 2u) != 0u ? acc[r][c].y : 0.0,
                         (bits & 4u) != 0u ? acc[r][c].z : 0.0, (bits & 8u) != 0u ? acc[r][c].w : 0.0);
      }
    }
  }

  [[unroll]] for (int r = 0; r < TILE_R; ++r) {
    const int row = row0 + wg_y * r;
    [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
      const int quad = quad0 + wg_x * c;
      if (row < pc.chunk.row_end && quad < pc.chunk.quad_end) {
        imageStore(s_texels, pc.s.base + head * pc.s.stride + row * pc.s.pitch + quad, acc[r][c]);
      }
    }
  }
}
