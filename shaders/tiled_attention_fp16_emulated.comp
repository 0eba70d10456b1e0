#version 450
// The fp16 tiled attention kernel (tiled_attention_fp16.comp) with its two matrix products in
// scalar code instead of on cooperative matrices: the same fp16 tiles in shared memory, each
// product summed in fp32 in order of the inner index, each subgroup the same share of the
// 16 × 16 tiles. It needs only shaderFloat16, so lavapipe runs it in the tests: every line of
// common/tiled_fp16.glsl (loads, padding, masking, the online softmax, dropout, the state
// between dispatches) is checked against the Eigen path without a GPU. Not for use: the
// host builds it only when a test asks (VulkanTiledOptions::emulate_matrix_cores).
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require

#include "common/tiled_fp16.glsl"

// S (Br × Bc) = Q · Kᵀ, a 16 × 16 tile per subgroup at a time, its lanes striding over the
// tile's 256 cells.
void multiply_scores() {
  const int tiles_across = BLOCK_K / kTile;
  for (int t = int(gl_SubgroupID); t < (BLOCK_Q / kTile) * tiles_across; t += int(gl_NumSubgroups)) {
    const int tr = t / tiles_across;
    const int tc = t - tr * tiles_across;
    for (int e = int(gl_SubgroupInvocationID); e < kTile * kTile; e += int(gl_SubgroupSize)) {
      const int r = tr * kTile + e / kTile;
      const int j = tc * kTile + e % kTile;
      float sum = 0.0;
      for (int c = 0; c < D_K; ++c) sum += float(q_tile[r * Q_STRIDE + c]) * float(k_tile[j * K_STRIDE + c]);
      s_tile[r * S_STRIDE + j] = sum;
    }
  }
}

// O (Br × d_v) += P · V, likewise.
void accumulate_context() {
  const int tiles_across = D_V / kTile;
  for (int t = int(gl_SubgroupID); t < (BLOCK_Q / kTile) * tiles_across; t += int(gl_NumSubgroups)) {
    const int tr = t / tiles_across;
    const int tc = t - tr * tiles_across;
    for (int e = int(gl_SubgroupInvocationID); e < kTile * kTile; e += int(gl_SubgroupSize)) {
      const int r = tr * kTile + e / kTile;
      const int c = tc * kTile + e % kTile;
      float sum = o_tile[r * O_STRIDE + c];
      for (int j = 0; j < BLOCK_K; ++j) sum += float(p_tile[r * P_STRIDE + j]) * float(v_tile[j * V_STRIDE + c]);
      o_tile[r * O_STRIDE + c] = sum;
    }
  }
}
