#version 450
// Pass 2 of the overview (docs/design.md "Overview"): the window's scores again, each reduced
// into its pixel block. A row's values of one pixel column (block_cols keys) gather in the
// invocation's own accumulator; at the column's last key the workgroup folds them over its rows
// of each pixel row (subgroup operations, then shared memory across subgroups) and writes one
// partial value per (workgroup, pixel row it touches, pixel column) into `partials`; the host
// folds the few partials of each pixel (core/overview/overview_vulkan.cpp). What is reduced
// (core/overview/pooling.h): weights, max: t = s − (m + ln l), the image is exp(t);
// weights, mean: Σ exp(t); scores: the score itself (max, or Σ over visible cells).
// A pixel column cut by the end of a dispatch leaves each row's accumulator in `carry`.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "common/overview.glsl"

// m (rows), l (rows) from pass 1 (weights), then each row's carried accumulator (rows).
layout(binding = 3, r32f) uniform coherent imageBuffer row_state;
// Partial values: slot × pixel_cols, slot = workgroup + its first pixel row + k (see main).
layout(binding = 4, r32f) uniform writeonly imageBuffer partials;

shared float folded[64];  // one value per subgroup (at most 64 subgroups in a workgroup)

float identity() { return pc.reduce_max != 0 ? kMinusInfinity : 0.0; }
float combine(float a, float b) { return pc.reduce_max != 0 ? max(a, b) : a + b; }

// Folds `acc` over the workgroup's rows of each pixel row it touches and writes the partials
// of pixel column `column`. Uniform control flow (barriers inside).
void flush(int column, float acc, bool live, int pixel_row, int first_pixel_row, int pixel_rows, int slot0) {
  if (pc.block_rows == 1) {  // one row per pixel row: nothing to fold
    if (live) imageStore(partials, (slot0 + pixel_row - first_pixel_row) * pc.pixel_cols + column, vec4(acc));
    return;
  }
  for (int k = 0; k < pixel_rows; ++k) {
    float v = live && pixel_row == first_pixel_row + k ? acc : identity();
    v = pc.reduce_max != 0 ? subgroupMax(v) : subgroupAdd(v);
    if (subgroupElect()) folded[gl_SubgroupID] = v;
    barrier();
    if (gl_LocalInvocationIndex == 0) {
      float total = folded[0];
      for (int s = 1; s < int(gl_NumSubgroups); ++s) total = combine(total, folded[s]);
      imageStore(partials, (slot0 + k) * pc.pixel_cols + column, vec4(total));
    }
    barrier();
  }
}

// Where the column after the one ending at `end` ends; past col_end once the last has ended.
int next_column_end(int end) { return end >= pc.col_end ? pc.col_end + 1 : min(end + pc.block_cols, pc.col_end); }

void main() {
  const int r = local_row();
  const int i = pc.row_begin + r;
  const bool live = r < pc.rows;
  load_q(r);
  const int i0 = group_first_row();
  const int i1 = group_end_row();
  // The pixel rows this workgroup touches, and its first partial slot.
  const int first_pixel_row = (i0 - pc.row_begin) / pc.block_rows;
  const int pixel_rows = (i1 - 1 - pc.row_begin) / pc.block_rows - first_pixel_row + 1;
  const int slot0 = int(gl_WorkGroupID.x) + first_pixel_row;
  const int pixel_row = (min(i, pc.row_begin + pc.rows - 1) - pc.row_begin) / pc.block_rows;

  float offset = 0.0;
  if (pc.weights != 0 && live) {
    const float l = imageLoad(row_state, pc.rows + r).r;
    offset = l > 0.0 ? imageLoad(row_state, r).r + log(l) : kInfinity;  // a row that sees nothing: every weight 0
  }
  const float hidden = pc.weights == 0 && pc.reduce_max == 0 ? 0.0 : kMinusInfinity;

  int column = (pc.key_begin - pc.col_begin) / pc.block_cols;
  const int column_start = pc.col_begin + column * pc.block_cols;
  int column_end = min(column_start + pc.block_cols, pc.col_end);  // the first key after this column
  float acc = identity();
  if (pc.key_begin != column_start && live) acc = imageLoad(row_state, 2 * pc.rows + r).r;

  for (int j0 = pc.key_begin; j0 < pc.key_end; j0 += TILE_KEYS) {
    const int count = min(TILE_KEYS, pc.key_end - j0);
    const bool visible = mask_block_visible(pc.mask, pc.mask.head, i0, i1, j0, j0 + count);
    if (!visible) {
      // Nothing to compute; the pixel columns that end here are still written.
      while (column_end <= j0 + count) {
        flush(column, acc, live, pixel_row, first_pixel_row, pixel_rows, slot0);
        acc = identity();
        ++column;
        column_end = next_column_end(column_end);
      }
      continue;
    }
    stage_keys(j0, count);
    const bool full = tile_fully_visible(i0, i1, j0, j0 + count);
    for (int jj = 0; jj < count; ++jj) {
      const int j = j0 + jj;
      float v = scaled_score(i, j0, jj);
      if (pc.weights != 0) v -= offset;
      if (!full && !mask_visible(pc.mask, pc.mask.head, i, j)) v = hidden;
      if (pc.weights != 0 && pc.reduce_max == 0) v = exp(v);
      acc = combine(acc, v);
      if (j + 1 == column_end) {
        flush(column, acc, live, pixel_row, first_pixel_row, pixel_rows, slot0);
        acc = identity();
        ++column;
        column_end = next_column_end(column_end);
      }
    }
  }
  if (live && column_end <= pc.col_end && pc.key_end < column_end) imageStore(row_state, 2 * pc.rows + r, vec4(acc));
}
