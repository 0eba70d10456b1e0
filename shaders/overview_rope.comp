#version 450
// RoPE for the overview (Su et al. 2021, rotate-half; docs/design.md "Positions"), in place on
// one head's projected rows right after shaders/overview_project.comp: row r is the token at
// table row first + r, and its pairs (i, i + d_k/2) turn by that row's angles, which the host
// computed in float64 (core/scenario/positions.h: rope_table, rope_rotate):
//   x_i' = x_i·cos − x_{i+h}·sin,   x_{i+h}' = x_{i+h}·cos + x_i·sin.
// The rows are read as floats here (pitch 4·DK4: the texels' zero padding is never touched).
// One invocation per (row, pair): it reads and writes only its pair's two floats.
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

layout(binding = 0) uniform samplerBuffer table;             // positions × d_k: cos of the pairs, then sin
layout(binding = 1, r32f) uniform coherent imageBuffer rows;  // Q or K: rows × pitch floats

// Mirrors attnviz::overview::OverviewRopePush (core/overview/overview_vulkan.h).
layout(push_constant) uniform OverviewRopePush {
  int rows;     // rows to turn
  int first;    // the table row of row 0
  int pitch;    // floats per row of `rows`
  int half_dk;  // pairs per row: d_k / 2
} pc;

void main() {
  // Items row by row over the dispatch's rows of workgroups (core/overview/overview_vulkan.cpp).
  const int t = int(gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x + gl_GlobalInvocationID.x);
  if (t >= pc.rows * pc.half_dk) return;
  const int r = t / pc.half_dk;
  const int pair = t - r * pc.half_dk;
  const int angle = (pc.first + r) * 2 * pc.half_dk + pair;
  const float c = texelFetch(table, angle).r;
  const float s = texelFetch(table, angle + pc.half_dk).r;
  const int at = r * pc.pitch + pair;
  const float a = imageLoad(rows, at).r;
  const float b = imageLoad(rows, at + pc.half_dk).r;
  imageStore(rows, at, vec4(a * c - b * s));
  imageStore(rows, at + pc.half_dk, vec4(b * c + a * s));
}
