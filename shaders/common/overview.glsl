// What the overview's two score passes share (shaders/overview_stats.comp,
// shaders/overview_pool.comp; core/overview/overview_vulkan.cpp records them). One invocation
// per query row: its row of Q stays in registers and every invocation of the workgroup walks
// the same keys in step, reading each key's row of K once per workgroup (from shared memory on
// GPUs, where the tile is staged; straight from the texel buffer on lavapipe). A score is then
// a d_k-long dot product per invocation with no exchange between invocations, and a row's
// maximum and sum are the invocation's own.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const int DK4 = 16;         // texels (4 floats) per row of Q and K
layout(constant_id = 2) const int TILE_KEYS = 64;   // keys staged at a time
layout(constant_id = 3) const bool STAGE_IN_SHARED = true;

#define MASK_GLOBALS_BINDING 2
#include "common/mask.glsl"

layout(binding = 0) uniform samplerBuffer q_texels;  // window rows × DK4, zero beyond d_k
layout(binding = 1) uniform samplerBuffer k_texels;  // keys × DK4 (row 0 is key k_first)

// Mirrors attnviz::overview::OverviewPush (core/overview/overview_vulkan.h).
layout(push_constant) uniform OverviewPush {
  int rows;         // query rows of this pass (the window's)
  int row_begin;    // their first row in the matrix
  int key_begin;    // this dispatch walks keys [key_begin, key_end)
  int key_end;
  int k_first;      // the key in row 0 of K
  float scale;      // on the scores (1 for raw scores)
  int weights;      // pass 2: 1 weights, 0 scores
  int reduce_max;   // pass 2: 1 max, 0 sum
  int block_rows;   // pass 2: cells per pixel block, down and across
  int block_cols;
  int col_begin;    // pass 2: the window's columns
  int col_end;
  int pixel_cols;   // pass 2: pixels across
  float slope;      // ALiBi's: −slope·|i − j| on the scaled scores (0: none; raw scores: 0)
  MaskParams mask;
} pc;

const float kMinusInfinity = -1.0 / 0.0;
const float kInfinity = 1.0 / 0.0;

shared vec4 k_tile[STAGE_IN_SHARED ? TILE_KEYS * DK4 : 1];
vec4 q_row[DK4];

// This invocation's row (index into the window's rows) and whether it exists.
int local_row() { return int(gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x); }
// The workgroup's rows of the matrix: [first, end).
int group_first_row() { return pc.row_begin + int(gl_WorkGroupID.x * gl_WorkGroupSize.x); }
int group_end_row() { return min(pc.row_begin + pc.rows, group_first_row() + int(gl_WorkGroupSize.x)); }

void load_q(int r) {
  const int row = min(r, pc.rows - 1);  // rows past the end compute with the last (never used)
  [[unroll]] for (int c = 0; c < DK4; ++c) q_row[c] = texelFetch(q_texels, row * DK4 + c);
}

// Keys [j0, j0 + count) into shared memory (all invocations take part; uniform control flow).
void stage_keys(int j0, int count) {
  if (!STAGE_IN_SHARED) return;
  barrier();  // the previous tile is no longer read
  const int invocations = int(gl_WorkGroupSize.x);
  for (int t = int(gl_LocalInvocationIndex); t < count * DK4; t += invocations) {
    k_tile[t] = texelFetch(k_texels, (j0 - pc.k_first) * DK4 + t);
  }
  barrier();
}

// The raw score of this row with key j0 + jj (jj: its place in the staged tile).
float raw_score(int j0, int jj) {
  vec4 acc = vec4(0.0);
  if (STAGE_IN_SHARED) {
    [[unroll]] for (int c = 0; c < DK4; ++c) acc = fma(q_row[c], k_tile[jj * DK4 + c], acc);
  } else {
    const int base = (j0 + jj - pc.k_first) * DK4;
    [[unroll]] for (int c = 0; c < DK4; ++c) acc = fma(q_row[c], texelFetch(k_texels, base + c), acc);
  }
  return (acc.x + acc.y) + (acc.z + acc.w);
}

// What the softmax sees of row i and key j0 + jj: scale · raw score + ALiBi's bias
// (core/scenario/positions.h: scaled_score).
float scaled_score(int i, int j0, int jj) {
  return pc.scale * raw_score(j0, jj) - pc.slope * float(abs(i - (j0 + jj)));
}

// True only when the mask shows every cell of rows [i0, i1) × keys [j0, j1): then no cell of
// the tile is tested. Conservative: from the causal cut and the window's band alone (global
// tokens only add visible cells). A new kind of mask that hides cells must return false here
// for the tiles it touches.
bool tile_fully_visible(int i0, int i1, int j0, int j1) {
  if (pc.mask.runs_offset != 0) return false;  // an expression: each cell is looked up in its row's runs
  if (pc.mask.causal != 0 && j1 - 1 > i0) return false;
  if (pc.mask.window >= 0 && (i1 - 1 - j0 > pc.mask.window || j1 - 1 - i0 > pc.mask.window)) return false;
  return true;
}
