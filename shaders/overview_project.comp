#version 450
// One head's projection for the overview: out[r] = A[first + r] · W[:, col0 .. col0 + d_k),
// written as DK4 texels of 4 floats per row, zero beyond d_k (the score passes' dot products
// run over whole texels). One invocation per output texel; the loop over d_model reads A's row
// and four columns of W.
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

layout(binding = 0) uniform samplerBuffer a_floats;  // N × d_model (X, or Xs for the keys)
layout(binding = 1) uniform samplerBuffer w_floats;  // d_model × w_pitch (W_Q or W_K)
layout(binding = 2, rgba32f) uniform writeonly imageBuffer out_texels;

// Mirrors attnviz::overview::ProjectPush (core/overview/overview_vulkan.h).
layout(push_constant) uniform ProjectPush {
  int rows;     // rows of out
  int first;    // A's row for out's row 0
  int d_model;
  int w_pitch;  // floats per row of W
  int col0;     // the head's first column in W
  int d_k;
  int dk4;      // texels per row of out
} pc;

void main() {
  // Items row by row over the dispatch's rows of workgroups (core/overview/overview_vulkan.cpp).
  const int t = int(gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x + gl_GlobalInvocationID.x);
  if (t >= pc.rows * pc.dk4) return;
  const int r = t / pc.dk4;
  const int c = 4 * (t - r * pc.dk4);
  const int a_row = (pc.first + r) * pc.d_model;
  vec4 acc = vec4(0.0);
  for (int k = 0; k < pc.d_model; ++k) {
    const float a = texelFetch(a_floats, a_row + k).r;
    const int w_row = k * pc.w_pitch + pc.col0;
    const vec4 w = vec4(c < pc.d_k ? texelFetch(w_floats, w_row + c).r : 0.0,
                        c + 1 < pc.d_k ? texelFetch(w_floats, w_row + c + 1).r : 0.0,
                        c + 2 < pc.d_k ? texelFetch(w_floats, w_row + c + 2).r : 0.0,
                        c + 3 < pc.d_k ? texelFetch(w_floats, w_row + c + 3).r : 0.0);
    acc = fma(vec4(a), w, acc);
  }
  imageStore(out_texels, t, acc);
}
