#version 450
// Masked, numerically stable row softmax: W[i, j] = exp(s'[i, j] − max) / sum over the
// visible entries of row i, s' = scale·S[i, j] − slope_h·|i − j| (ALiBi's bias, Press et al.
// 2022: slopes[h] is 0 for any other positional kind, so the bias is −0 and s' = scale·S); masked entries exactly 0; a row with nothing visible all 0.
// One subgroup per row: its invocations stride along the row and reduce the max and the sum
// with subgroup operations, so no barrier or shared memory is needed. A workgroup owns
// ROWS_PER_WORKGROUP rows; the host sizes it for one row per subgroup from the device's
// reported subgroup size, but drivers may compile with another (Intel: 8, 16 or 32; AMD:
// 32 or 64), so the subgroups deal the rows out among however many of them there are. Only
// the visible span of the row and the chunks holding global columns are read; the rest of
// the row is written as zeros.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const int ROWS_PER_WORKGROUP = 8;

#define MASK_GLOBALS_BINDING 1
#include "common/dispatch.glsl"
#include "common/mask.glsl"
#include "common/uniform_if.glsl"

layout(binding = 0) uniform samplerBuffer s_texels;
layout(binding = 2, rgba32f) uniform writeonly imageBuffer w_texels;
layout(binding = 3) uniform samplerBuffer slopes;  // H floats: ALiBi's slope per query head, or 0

// Mirrors attnviz::gpu::SoftmaxPush (core/gpu/kernels.h). N and M are mask.rows and mask.cols.
layout(push_constant) uniform SoftmaxPush {
  Operand s, w;  // texels
  float scale;
  Chunk chunk;   // heads and rows (one column quad: a row is the unit)
  MaskParams mask;
} pc;

const float kMinusInfinity = -1.0 / 0.0;

// Which columns of chunk `quad` of the visible span [span.x, span.y) a row sees: all of them
// that lie inside the span (the span is exactly the band, cut at the diagonal when causal).
bvec4 span_visibility(int quad, ivec2 span) {
  const ivec4 col = ivec4(4 * quad) + ivec4(0, 1, 2, 3);
  return bvec4(col.x >= span.x && col.x < span.y, col.y >= span.x && col.y < span.y,
               col.z >= span.x && col.z < span.y, col.w >= span.x && col.w < span.y);
}

// The full predicate for a chunk holding a global column (such chunks are few).
bvec4 chunk_visibility(MaskParams mask, int row, int quad) {
  const int col = 4 * quad;
  return bvec4(mask_fields_visible(mask, row, col), mask_fields_visible(mask, row, col + 1),
               mask_fields_visible(mask, row, col + 2), mask_fields_visible(mask, row, col + 3));
}

// Visible global columns outside the span (the span loops counted the others).
bvec4 outside_span_visibility(MaskParams mask, int row, int quad, ivec2 span) {
  const bvec4 all = chunk_visibility(mask, row, quad);
  const bvec4 inside = span_visibility(quad, span);
  return bvec4(all.x && !inside.x, all.y && !inside.y, all.z && !inside.z, all.w && !inside.w);
}

// The row being worked on and its head's slope (set by softmax_row and softmax_row_runs).
int g_row = 0;
float g_slope = 0.0;

// scale · scores + the bias −slope·|row − col| of the quad's four columns (core/scenario/positions.h: scaled_score).
vec4 biased(vec4 scores, int quad) {
  const ivec4 col = ivec4(4 * quad) + ivec4(0, 1, 2, 3);
  return pc.scale * scores + (-g_slope) * vec4(abs(ivec4(g_row) - col));
}

vec4 masked_scaled(vec4 scores, int quad, bvec4 visible) {
  const vec4 v = biased(scores, quad);
  return vec4(visible.x ? v.x : kMinusInfinity, visible.y ? v.y : kMinusInfinity, visible.z ? v.z : kMinusInfinity,
              visible.w ? v.w : kMinusInfinity);
}

// exp(x − row_max) for visible entries, exactly 0 for masked ones (min(·, 0) keeps the
// argument finite and never positive, as on the CPU path).
vec4 masked_exp(vec4 scores, int quad, bvec4 visible, float row_max) {
  const vec4 e = exp(min(biased(scores, quad) - row_max, vec4(0.0)));
  return vec4(visible.x ? e.x : 0.0, visible.y ? e.y : 0.0, visible.z ? e.z : 0.0, visible.w ? e.w : 0.0);
}

// With an expression: the row's runs, each walked by the subgroup's lanes. A quad holds
// columns of at most two runs (a hidden column lies between any two), so a quad at a run's
// end is written once, with the visibility of both.
void softmax_row_runs(int row, int head, int lane, int stride) {
  const MaskParams mask = pc.mask;
  const int quads = (mask.cols + 3) / 4;
  const int s_row = pc.s.base + head * pc.s.stride + row * pc.s.pitch;
  const int w_row = pc.w.base + head * pc.w.stride + row * pc.w.pitch;
  const ivec2 runs = mask_row_runs(mask, head, row);
  g_row = row;
  g_slope = texelFetch(slopes, head).r;

  float row_max = kMinusInfinity;
  for (int r = runs.x; r < runs.y; ++r) {
    const ivec2 run = mask_run(mask, r);
    for (int quad = run.x / 4 + lane; quad < (run.y + 3) / 4; quad += stride) {
      const vec4 v = masked_scaled(texelFetch(s_texels, s_row + quad), quad, span_visibility(quad, run));
      row_max = max(row_max, max(max(v.x, v.y), max(v.z, v.w)));
    }
  }
  row_max = subgroupMax(row_max);

  float sum = 0.0;
  if (row_max != kMinusInfinity) {
    for (int r = runs.x; r < runs.y; ++r) {
      const ivec2 run = mask_run(mask, r);
      for (int quad = run.x / 4 + lane; quad < (run.y + 3) / 4; quad += stride) {
        const vec4 e = masked_exp(texelFetch(s_texels, s_row + quad), quad, span_visibility(quad, run), row_max);
        sum += (e.x + e.y) + (e.z + e.w);
      }
    }
  }
  sum = subgroupAdd(sum);
  const float inverse_sum = row_max != kMinusInfinity ? 1.0 / sum : 0.0;

  int written = 0;  // quads [0, written) are done
  for (int r = runs.x; r < runs.y; ++r) {
    const ivec2 run = mask_run(mask, r);
    const ivec2 next = r + 1 < runs.y ? mask_run(mask, r + 1) : ivec2(0);
    const int first = run.x / 4;
    const int end = (run.y + 3) / 4;
    for (int quad = written + lane; quad < first; quad += stride) imageStore(w_texels, w_row + quad, vec4(0.0));
    for (int quad = max(first, written) + lane; quad < end; quad += stride) {
      const bvec4 here = span_visibility(quad, run);
      const bvec4 there = span_visibility(quad, next);
      const bvec4 seen = bvec4(here.x || there.x, here.y || there.y, here.z || there.z, here.w || there.w);
      imageStore(w_texels, w_row + quad, masked_exp(texelFetch(s_texels, s_row + quad), quad, seen, row_max) * inverse_sum);
    }
    written = max(written, end);
  }
  for (int quad = written + lane; quad < quads; quad += stride) imageStore(w_texels, w_row + quad, vec4(0.0));
}

// `lane` counts the subgroup's active invocations (0 .. stride − 1).
void softmax_row(int row, int head, int lane, int stride) {
  const MaskParams mask = pc.mask;
  const int quads = (mask.cols + 3) / 4;
  const int s_row = pc.s.base + head * pc.s.stride + row * pc.s.pitch;
  const int w_row = pc.w.base + head * pc.w.stride + row * pc.w.pitch;
  g_row = row;
  g_slope = texelFetch(slopes, head).r;

  const ivec2 span = mask_block_span(mask, row, row + 1);
  const int lo = span.y > span.x ? span.x / 4 : 0;
  const int hi = span.y > span.x ? (span.y + 3) / 4 : 0;

  float row_max = kMinusInfinity;
  for (int quad = lo + lane; quad < hi; quad += stride) {
    const vec4 v = masked_scaled(texelFetch(s_texels, s_row + quad), quad, span_visibility(quad, span));
    row_max = max(row_max, max(max(v.x, v.y), max(v.z, v.w)));
  }
  for (int k = lane; k < mask.list_count; k += stride) {
    const int quad = mask_global_chunk(mask, k);
    const vec4 v = masked_scaled(texelFetch(s_texels, s_row + quad), quad, outside_span_visibility(mask, row, quad, span));
    row_max = max(row_max, max(max(v.x, v.y), max(v.z, v.w)));
  }
  row_max = subgroupMax(row_max);

  float sum = 0.0;
  if (row_max != kMinusInfinity) {
    for (int quad = lo + lane; quad < hi; quad += stride) {
      const vec4 e = masked_exp(texelFetch(s_texels, s_row + quad), quad, span_visibility(quad, span), row_max);
      sum += (e.x + e.y) + (e.z + e.w);
    }
    for (int k = lane; k < mask.list_count; k += stride) {
      const int quad = mask_global_chunk(mask, k);
      const vec4 e = masked_exp(texelFetch(s_texels, s_row + quad), quad, outside_span_visibility(mask, row, quad, span), row_max);
      sum += (e.x + e.y) + (e.z + e.w);
    }
  }
  sum = subgroupAdd(sum);
  // The largest visible entry contributes exp(0) = 1, so sum ≥ 1 whenever anything is visible.
  const float inverse_sum = row_max != kMinusInfinity ? 1.0 / sum : 0.0;

  for (int quad = lane; quad < lo; quad += stride) imageStore(w_texels, w_row + quad, vec4(0.0));
  for (int quad = lo + lane; quad < hi; quad += stride) {
    const vec4 e = masked_exp(texelFetch(s_texels, s_row + quad), quad, span_visibility(quad, span), row_max);
    imageStore(w_texels, w_row + quad, e * inverse_sum);
  }
  for (int quad = hi + lane; quad < quads; quad += stride) imageStore(w_texels, w_row + quad, vec4(0.0));

  // Chunks holding a global column are rewritten with the full predicate: outside the span
  // they replace zeros, at its edges they add the global columns next to the band.
  subgroupMemoryBarrierImage();
  subgroupBarrier();
  for (int k = lane; k < mask.list_count; k += stride) {
    const int quad = mask_global_chunk(mask, k);
    const vec4 e = masked_exp(texelFetch(s_texels, s_row + quad), quad, chunk_visibility(mask, row, quad), row_max);
    imageStore(w_texels, w_row + quad, e * inverse_sum);
  }
}

void main() {
  const int first_row = pc.chunk.row_base + int(gl_WorkGroupID.x) * ROWS_PER_WORKGROUP;
  const int head = pc.chunk.head_base + int(gl_WorkGroupID.y);
  // A subgroup that the workgroup's size leaves partly empty strides by its active lanes.
  const int lane = int(subgroupExclusiveAdd(1u));
  const int stride = int(subgroupAdd(1u));
  // Uniform across each subgroup: a subgroup's lanes always work on the same row.
  for (int slot = int(gl_SubgroupID); slot < ROWS_PER_WORKGROUP; slot += int(gl_NumSubgroups)) {
    const int row = first_row + slot;
    if (row >= pc.chunk.row_end) break;
    UNIFORM_IF(pc.mask.runs_offset == 0) softmax_row(row, head, lane, stride);
    UNIFORM_IF(pc.mask.runs_offset != 0) softmax_row_runs(row, head, lane, stride);
  }
}
