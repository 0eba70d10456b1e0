#version 450
// Context C_h = A_h · V_g (g = h / group), written straight into the concatenated output at
// columns h·d_v .. (h+1)·d_v − 1. Each invocation owns TILE_R rows × TILE_C4 quads of d_v
// columns; a workgroup walks only the key chunks its rows can see (the band of the mask,
// cut at the diagonal, plus chunks holding global columns): the weights elsewhere are 0.
// With STAGE_IN_SHARED (GPUs) the band's chunks are first copied into shared memory, SHARED_K4
// key quads of the workgroup's weight rows and 4·SHARED_K4 rows of V at a time (each value
// fetched once per workgroup); lavapipe and the global chunks read the texel buffers.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z = 1) in;
layout(constant_id = 2) const int STAGE_IN_SHARED = 0;
layout(constant_id = 3) const int SHARED_K4 = 4;

#define MASK_GLOBALS_BINDING 2
#include "common/dispatch.glsl"
#include "common/gemm.glsl"
#include "common/mask.glsl"
#include "common/uniform_if.glsl"

layout(binding = 0) uniform samplerBuffer w_texels;
layout(binding = 1) uniform samplerBuffer v_texels;
layout(binding = 3, r32f) uniform writeonly imageBuffer out_floats;

// Mirrors attnviz::gpu::ContextPush (core/gpu/kernels.h). w and v count texels, concat counts
// floats (d_v need not be a multiple of 4; its stride is d_v, from one head's columns to the
// next). N and M are mask.rows and mask.cols.
layout(push_constant) uniform ContextPush {
  int dv;
  Operand w, v, concat;
  int group;    // query heads per key/value head
  Chunk chunk;  // heads, query rows, d_v quads
  MaskParams mask;
} pc;

// With an expression: the key quads some row of the workgroup's tile sees, one bit each
// (keys up to 32 · 4 · kContextQuadWords; the token limit is 4096).
#define kContextQuadWords 64
shared uint key_quads[kContextQuadWords];
const uint kTileRows = gl_WorkGroupSize.y * TILE_R;
const uint kTileQuads = gl_WorkGroupSize.x * TILE_C4;
shared vec4 w_block[STAGE_IN_SHARED != 0 ? kTileRows * SHARED_K4 : 1];
shared vec4 v_block[STAGE_IN_SHARED != 0 ? 4 * SHARED_K4 * kTileQuads : 1];

int a_row[TILE_R];
int v_col[TILE_C4];
vec4 acc[TILE_R][TILE_C4];

void accumulate_chunk(int k4) {
  vec4 a[TILE_R];
  [[unroll]] for (int r = 0; r < TILE_R; ++r) a[r] = texelFetch(w_texels, a_row[r] + k4);
  const int last_key = pc.mask.cols - 1;
  const int key = 4 * k4;
  [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
    // Keys past the last one have weight 0; their (clamped) values are finite.
    const vec4 b0 = texelFetch(v_texels, v_col[c] + key * pc.v.pitch);
    const vec4 b1 = texelFetch(v_texels, v_col[c] + min(key + 1, last_key) * pc.v.pitch);
    const vec4 b2 = texelFetch(v_texels, v_col[c] + min(key + 2, last_key) * pc.v.pitch);
    const vec4 b3 = texelFetch(v_texels, v_col[c] + min(key + 3, last_key) * pc.v.pitch);
    [[unroll]] for (int r = 0; r < TILE_R; ++r) acc[r][c] = gemm_step(acc[r][c], a[r], b0, b1, b2, b3);
  }
}

// The walk over the key chunks (uniform across the workgroup): named fields, the band's
// chunks [walk_lo, walk_hi) then the chunks holding global columns outside it; with an
// expression, the bits of key_quads.
bool walk_runs;
int walk_lo, walk_hi, walk_next, walk_k, walk_word, walk_words;
uint walk_bits;

int next_key_chunk() {
  if (walk_runs) {
    while (walk_bits == 0u) {
      if (++walk_word >= walk_words) return -1;
      walk_bits = key_quads[walk_word];
    }
    const int bit = findLSB(walk_bits);
    walk_bits &= walk_bits - 1u;
    return 32 * walk_word + bit;
  }
  if (walk_next < walk_hi) return walk_next++;
  while (walk_k < pc.mask.list_count) {
    const int k4 = mask_global_chunk(pc.mask, walk_k++);
    if (k4 < walk_lo || k4 >= walk_hi) return k4;
  }
  return -1;
}

// Key chunks [lo, hi) through shared memory (uniform control flow: barriers inside).
void accumulate_staged(int lo, int hi, int tile_row, int tile_quad, int head, int kv_head) {
  const int wg_x = int(gl_WorkGroupSize.x);
  const int wg_y = int(gl_WorkGroupSize.y);
  const int invocations = wg_x * wg_y;
  const int local = int(gl_LocalInvocationIndex);
  const int w_head = pc.w.base + head * pc.w.stride;
  const int v_head = pc.v.base + kv_head * pc.v.stride;
  const int last_key = pc.mask.cols - 1;
  for (int k0 = lo; k0 < hi; k0 += SHARED_K4) {
    const int steps = min(SHARED_K4, hi - k0);
    for (int e = local; e < int(kTileRows) * SHARED_K4; e += invocations) {
      const int r = e / SHARED_K4;
      const int k = e - r * SHARED_K4;
      const int row = min(tile_row + r, pc.chunk.row_end - 1);
      w_block[e] = k < steps ? texelFetch(w_texels, w_head + row * pc.w.pitch + k0 + k) : vec4(0.0);
    }
    for (int e = local; e < 4 * SHARED_K4 * int(kTileQuads); e += invocations) {
      const int kk = e / int(kTileQuads);
      const int q = e - kk * int(kTileQuads);
      const int quad = min(tile_quad + q, pc.chunk.quad_end - 1);
      // Keys past the last one have weight 0; their (clamped) values are finite.
      const int key = min(4 * k0 + kk, last_key);
      v_block[e] = kk < 4 * steps ? texelFetch(v_texels, v_head + quad + key * pc.v.pitch) : vec4(0.0);
    }
    barrier();
    for (int k = 0; k < steps; ++k) {
      vec4 a[TILE_R];
      [[unroll]] for (int r = 0; r < TILE_R; ++r) a[r] = w_block[(int(gl_LocalInvocationID.y) + wg_y * r) * SHARED_K4 + k];
      [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
        const int column = int(gl_LocalInvocationID.x) + wg_x * c;
        const int stride = int(kTileQuads);
        const vec4 b0 = v_block[(4 * k) * stride + column];
        const vec4 b1 = v_block[(4 * k + 1) * stride + column];
        const vec4 b2 = v_block[(4 * k + 2) * stride + column];
        const vec4 b3 = v_block[(4 * k + 3) * stride + column];
        [[unroll]] for (int r = 0; r < TILE_R; ++r) acc[r][c] = gemm_step(acc[r][c], a[r], b0, b1, b2, b3);
      }
    }
    barrier();
  }
}

void main() {
  const MaskParams mask = pc.mask;
  const int wg_x = int(gl_WorkGroupSize.x);
  const int wg_y = int(gl_WorkGroupSize.y);
  const int head = pc.chunk.head_base + int(gl_WorkGroupID.z);
  const int kv_head = head / pc.group;
  const int tile_row = pc.chunk.row_base + int(gl_WorkGroupID.y) * wg_y * TILE_R;
  const int row0 = tile_row + int(gl_LocalInvocationID.y);
  const int quad0 = pc.chunk.quad_base + int(gl_WorkGroupID.x) * wg_x * TILE_C4 + int(gl_LocalInvocationID.x);

  // Rows and columns past the chunk are clamped into it (finite values, never stored).
  [[unroll]] for (int r = 0; r < TILE_R; ++r) {
    a_row[r] = pc.w.base + head * pc.w.stride + min(row0 + wg_y * r, pc.chunk.row_end - 1) * pc.w.pitch;
  }
  [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
    v_col[c] = pc.v.base + kv_head * pc.v.stride + min(quad0 + wg_x * c, pc.chunk.quad_end - 1);
  }
  [[unroll]] for (int r = 0; r < TILE_R; ++r) {
    [[unroll]] for (int c = 0; c < TILE_C4; ++c) acc[r][c] = vec4(0.0);
  }

  // The key chunks some row of the tile sees, walked one at a time (next_key_chunk): a single
  // call site of the large accumulate_chunk keeps the pipeline quick to compile.
  walk_runs = mask.runs_offset != 0;
  walk_k = 0;
  walk_word = -1;
  walk_bits = 0u;
  walk_words = 0;
  if (walk_runs) {
    // With an expression: the tile's rows mark the quads their runs touch first.
    walk_words = min((mask.cols + 127) / 128, kContextQuadWords);
    const int invocation = int(gl_LocalInvocationIndex);
    const int invocations = wg_x * wg_y;
    for (int w = invocation; w < walk_words; w += invocations) key_quads[w] = 0u;
    barrier();
    const int last_row = min(min(tile_row + wg_y * TILE_R, pc.chunk.row_end), mask.rows);
    for (int row = tile_row + invocation; row < last_row; row += invocations) {
      const ivec2 runs = mask_row_runs(mask, head, row);
      for (int r = runs.x; r < runs.y; ++r) {
        const ivec2 run = mask_run(mask, r);
        const int end = (run.y + 3) / 4;
        for (int quad = run.x / 4; quad < end;) {
          const int bit = quad & 31;
          const int count = min(32 - bit, end - quad);
          atomicOr(key_quads[quad >> 5], (count == 32 ? 0xFFFFFFFFu : ((1u << count) - 1u)) << bit);
          quad += count;
        }
      }
    }
    barrier();
  } else {
    const ivec2 span = mask_block_span(mask, tile_row, tile_row + wg_y * TILE_R);
    walk_lo = span.y > span.x ? span.x / 4 : 0;
    walk_hi = span.y > span.x ? (span.y + 3) / 4 : 0;
    walk_next = walk_lo;
    // GPUs: the band's chunks through shared memory; the walk then goes on with the global
    // chunks outside it.
    UNIFORM_IF(STAGE_IN_SHARED != 0) {
      accumulate_staged(walk_lo, walk_hi, tile_row, quad0 - int(gl_LocalInvocationID.x), head, kv_head);
      walk_next = walk_hi;
    }
  }
  for (int k4 = next_key_chunk(); k4 >= 0; k4 = next_key_chunk()) accumulate_chunk(k4);

  [[unroll]] for (int r = 0; r < TILE_R; ++r) {
    const int row = row0 + wg_y * r;
    const int out_row = pc.concat.base + head * pc.concat.stride + row * pc.concat.pitch;
    [[unroll]] for (int c = 0; c < TILE_C4; ++c) {
      const int quad = quad0 + wg_x * c;
      const int col = 4 * quad;
      const vec4 value = acc[r][c];
      const bool mine = row < pc.chunk.row_end && quad < pc.chunk.quad_end;
      if (mine && col < pc.dv) imageStore(out_floats, out_row + col, vec4(value.x));
      if (mine && col + 1 < pc.dv) imageStore(out_floats, out_row + col + 1, vec4(value.y));
      if (mine && col + 2 < pc.dv) imageStore(out_floats, out_row + col + 2, vec4(value.z));
      if (mine && col + 3 < pc.dv) imageStore(out_floats, out_row + col + 3, vec4(value.w));
    }
  }
}
