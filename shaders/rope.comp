#version 450
// RoPE (Su et al. 2021) in place on Q or K, right after the projection: the pairs (i, i + d_k/2)
// of row r of each head turn by the angles of row r of the table, which the host computed in
// float64 (core/scenario/positions.h: rope_table, rope_rotate, Hugging Face's rotate-half):
//   x_i' = x_i·cos − x_{i+h}·sin,   x_{i+h}' = x_{i+h}·cos + x_i·sin.
// One invocation per (head, row, pair): it reads and writes only its pair's two floats.
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

#include "common/dispatch.glsl"

layout(binding = 0) uniform samplerBuffer table;             // rows × d_k: cos of the pairs, then sin
layout(binding = 1, r32f) uniform coherent imageBuffer rows;  // Q (H × N × d_k4) or K (G × M × d_k4)

// Mirrors attnviz::gpu::RopePush (core/gpu/kernels.h).
layout(push_constant) uniform RopePush {
  Operand x;      // floats
  Operand table;  // floats: row r of the table belongs to row r of every head
  Chunk chunk;    // heads, rows, pairs (the "quad" range counts pairs here)
  int half_dk;    // pairs per row: d_k / 2
} pc;

void main() {
  const int head = pc.chunk.head_base + int(gl_WorkGroupID.z);
  const int row = pc.chunk.row_base + int(gl_GlobalInvocationID.y);
  const int pair = pc.chunk.quad_base + int(gl_GlobalInvocationID.x);
  if (row >= pc.chunk.row_end || pair >= pc.chunk.quad_end) return;
  const int t = pc.table.base + row * pc.table.pitch + pair;
  const float c = texelFetch(table, t).r;
  const float s = texelFetch(table, t + pc.half_dk).r;
  const int first = pc.x.base + head * pc.x.stride + row * pc.x.pitch + pair;
  const float a = imageLoad(rows, first).r;
  const float b = imageLoad(rows, first + pc.half_dk).r;
  imageStore(rows, first, vec4(a * c - b * s));
  imageStore(rows, first + pc.half_dk, vec4(b * c + a * s));
}
