#version 450
// Dropout on the weights, after the softmax (docs/design.md "Dropout"): each weight the
// softmax wrote (`before`) is kept and scaled by 1/(1 − p), or dropped (0), by the hash of
// common/dropout.glsl; `kept` records which (1.0 or 0.0, one float per weight, in the weights'
// layout). One invocation per quad of a row's weights.
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

#include "common/dispatch.glsl"
#include "common/dropout.glsl"

layout(binding = 0) uniform samplerBuffer before;
layout(binding = 1, rgba32f) uniform writeonly imageBuffer after;
layout(binding = 2, rgba32f) uniform writeonly imageBuffer kept;

// Mirrors attnviz::gpu::DropoutPush (core/gpu/kernels.h). All three operands count texels.
layout(push_constant) uniform DropoutPush {
  Operand before, after, kept;
  Chunk chunk;  // heads, rows, column quads
  int cols;     // M: columns past it are padding
  uint threshold;
  uint seed_low;
  uint seed_high;
  float keep_scale;
} pc;

void main() {
  const int head = pc.chunk.head_base + int(gl_WorkGroupID.z);
  const int row = pc.chunk.row_base + int(gl_GlobalInvocationID.y);
  const int quad = pc.chunk.quad_base + int(gl_GlobalInvocationID.x);
  if (row >= pc.chunk.row_end || quad >= pc.chunk.quad_end) return;
  const vec4 w = texelFetch(before, pc.before.base + head * pc.before.stride + row * pc.before.pitch + quad);
  vec4 out_w = vec4(0.0);
  vec4 out_k = vec4(0.0);
  for (int c = 0; c < 4; ++c) {
    const int col = 4 * quad + c;
    if (col >= pc.cols) break;
    const bool keep = dropout_keeps(pc.threshold, pc.seed_low, pc.seed_high, head, row, col);
    out_w[c] = keep ? w[c] * pc.keep_scale : 0.0;
    out_k[c] = keep ? 1.0 : 0.0;
  }
  imageStore(after, pc.after.base + head * pc.after.stride + row * pc.after.pitch + quad, out_w);
  imageStore(kept, pc.kept.base + head * pc.kept.stride + row * pc.kept.pitch + quad, out_k);
}
