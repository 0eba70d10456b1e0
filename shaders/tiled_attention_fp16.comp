#version 450
#pragma use_vulkan_memory_model
// Tiled attention with fp16 cooperative matrices (tensor cores): the FlashAttention-2 walk of
// tiled_attention.comp, the same grid, the same online softmax and the same mask, ALiBi and
// dropout, with its two matrix products done by subgroups on 16 × 16 × 16 fp16 cooperative
// matrices (GL_NV_cooperative_matrix; bookworm's glslc does not know the KHR extension):
//   1. S (Br × Bc) = Q (Br × d_k) · Kᵀ (d_k × Bc), fp16 inputs, fp32 sums
//   2. each row's online-softmax step in fp32, one subgroup per row, as in tiled_attention.comp:
//      m, l, α = exp(m_old − m_new), P = exp(S − m_new) (dropped out after l has summed it),
//      and O's row scaled by α
//   3. O (Br × d_v) += P (Br × Bc) · V (Bc × d_v), P and V in fp16, O in fp32
// Q, the K and V tiles and P live in shared memory as fp16, S and O as fp32. Head widths are
// padded with zeros to multiples of 16, a block's missing rows and keys too (their scores are
// masked in step 2). Every shared row is padded by 16 bytes, so each 16 × 16 load starts on a
// 16-byte boundary, and rows do not all fall in one bank.
// The state between dispatches (O, m, l) goes through the output buffer as in
// tiled_attention.comp; on a GPU the host walks every key block in one dispatch.
// Everything but the two products is in common/tiled_fp16.glsl, shared with
// tiled_attention_fp16_emulated.comp, which lavapipe runs in the tests.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require

#include "common/tiled_fp16.glsl"

// Step 1: S = Q · Kᵀ, each subgroup a share of the 16 × 16 tiles of S. Kᵀ's tile is K's read
// column-major: element (c, j) of Kᵀ is k_tile[j · K_STRIDE + c].
void multiply_scores() {
  const int tiles_across = BLOCK_K / kTile;
  for (int t = int(gl_SubgroupID); t < (BLOCK_Q / kTile) * tiles_across; t += int(gl_NumSubgroups)) {
    const int tr = t / tiles_across;
    const int tc = t - tr * tiles_across;
    fcoopmatNV<32, gl_ScopeSubgroup, kTile, kTile> s = fcoopmatNV<32, gl_ScopeSubgroup, kTile, kTile>(0.0);
    for (int kk = 0; kk < D_K; kk += kTile) {
      fcoopmatNV<16, gl_ScopeSubgroup, kTile, kTile> q;
      fcoopmatNV<16, gl_ScopeSubgroup, kTile, kTile> k;
      coopMatLoadNV(q, q_tile, uint(tr * kTile * Q_STRIDE + kk), uint(Q_STRIDE), false);
      coopMatLoadNV(k, k_tile, uint(tc * kTile * K_STRIDE + kk), uint(K_STRIDE), true);
      s = coopMatMulAddNV(q, k, s);
    }
    coopMatStoreNV(s, s_tile, uint(tr * kTile * S_STRIDE + tc * kTile), uint(S_STRIDE), false);
  }
}

// Step 3: O += P · V, each subgroup a share of O's 16 × 16 tiles.
void accumulate_context() {
  const int tiles_across = D_V / kTile;
  for (int t = int(gl_SubgroupID); t < (BLOCK_Q / kTile) * tiles_across; t += int(gl_NumSubgroups)) {
    const int tr = t / tiles_across;
    const int tc = t - tr * tiles_across;
    fcoopmatNV<32, gl_ScopeSubgroup, kTile, kTile> o;
    coopMatLoadNV(o, o_tile, uint(tr * kTile * O_STRIDE + tc * kTile), uint(O_STRIDE), false);
    for (int kk = 0; kk < BLOCK_K; kk += kTile) {
      fcoopmatNV<16, gl_ScopeSubgroup, kTile, kTile> p;
      fcoopmatNV<16, gl_ScopeSubgroup, kTile, kTile> v;
      coopMatLoadNV(p, p_tile, uint(tr * kTile * P_STRIDE + kk), uint(P_STRIDE), false);
      coopMatLoadNV(v, v_tile, uint(kk * V_STRIDE + tc * kTile), uint(V_STRIDE), false);
      o = coopMatMulAddNV(p, v, o);
    }
    coopMatStoreNV(o, o_tile, uint(tr * kTile * O_STRIDE + tc * kTile), uint(O_STRIDE), false);
  }
}
