// The fp16 tiled attention kernel without its two matrix products: the declarations, the
// tile loads, the online-softmax step, the state between dispatches and the walk. Included by
// tiled_attention_fp16.comp (the products on fp16 cooperative matrices) and
// tiled_attention_fp16_emulated.comp (the same products in scalar code, with the same fp16
// inputs and fp32 sums, so that every other line runs on lavapipe in the tests); the
// algorithm is described in tiled_attention_fp16.comp. The includer enables
// GL_KHR_shader_subgroup_basic, _arithmetic and GL_EXT_shader_explicit_arithmetic_types_float16.
#ifndef ATTNVIZ_TILED_FP16_GLSL
#define ATTNVIZ_TILED_FP16_GLSL

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
// Br and Bc (multiples of 16), d_k and d_v rounded up to multiples of 16.
layout(constant_id = 1) const int BLOCK_Q = 32;
layout(constant_id = 2) const int BLOCK_K = 32;
layout(constant_id = 3) const int D_K = 64;
layout(constant_id = 4) const int D_V = 64;

#define MASK_GLOBALS_BINDING 3
#include "common/dropout.glsl"
#include "common/mask.glsl"

layout(binding = 0) uniform samplerBuffer q_floats;  // N × (H·d_k): X · W_Q
layout(binding = 1) uniform samplerBuffer k_floats;  // M × (G·d_k): Xs · W_K
layout(binding = 2) uniform samplerBuffer v_floats;  // M × (G·d_v): Xs · W_V
// Context (H, N, d_v), then m (H, N), then l (H, N), as tiled_attention.comp writes them.
layout(binding = 4, r32f) uniform imageBuffer out_floats;
layout(binding = 5) uniform samplerBuffer slopes;  // H floats: ALiBi's slope per query head, or 0

// The push constants of tiled_attention.comp (attnviz::gpu::TiledPush): d_k and d_v there are
// the true widths, D_K and D_V above the padded ones.
layout(push_constant) uniform TiledPush {
  int block_q;
  int block_k;
  int d_k;
  int d_v;
  int q_pitch;
  int k_pitch;
  int v_pitch;
  int group;
  float scale;
  int kb_begin;
  int kb_end;
  uint drop_threshold;
  uint seed_low;
  uint seed_high;
  float keep_scale;
  MaskParams mask;
} pc;

const float kMinusInfinity = -1.0 / 0.0;
const int kTile = 16;  // the cooperative matrices' M = N = K
const int kHalfPad = 8;   // 16 bytes of fp16
const int kFloatPad = 4;  // 16 bytes of fp32

// Row strides, in elements.
const int Q_STRIDE = D_K + kHalfPad;
const int K_STRIDE = D_K + kHalfPad;
const int V_STRIDE = D_V + kHalfPad;
const int P_STRIDE = BLOCK_K + kHalfPad;
const int S_STRIDE = BLOCK_K + kFloatPad;
const int O_STRIDE = D_V + kFloatPad;

shared float16_t q_tile[BLOCK_Q * Q_STRIDE];
shared float16_t k_tile[BLOCK_K * K_STRIDE];
shared float16_t v_tile[BLOCK_K * V_STRIDE];
shared float16_t p_tile[BLOCK_Q * P_STRIDE];
shared float s_tile[BLOCK_Q * S_STRIDE];
shared float o_tile[BLOCK_Q * O_STRIDE];
shared float m_rows[BLOCK_Q];
shared float l_rows[BLOCK_Q];

float16_t q_value(int head, int i, int c, int n) {
  if (i >= n || c >= pc.d_k) return float16_t(0.0);
  return float16_t(texelFetch(q_floats, i * pc.q_pitch + head * pc.d_k + c).r);
}

// Q of the block's rows, once for all its key blocks; P zeroed, so rows past the block's end
// stay 0 in step 3.
void load_queries(int head, int r0, int n, int invocation, int invocations) {
  for (int t = invocation; t < BLOCK_Q * D_K; t += invocations) {
    const int r = t / D_K;
    const int c = t - r * D_K;
    q_tile[r * Q_STRIDE + c] = q_value(head, r0 + r, c, n);
  }
  for (int t = invocation; t < BLOCK_Q * BLOCK_K; t += invocations) {
    const int r = t / BLOCK_K;
    p_tile[r * P_STRIDE + (t - r * BLOCK_K)] = float16_t(0.0);
  }
}

void load_keys_values(int kv_head, int c0, int cols, int invocation, int invocations) {
  for (int t = invocation; t < BLOCK_K * D_K; t += invocations) {
    const int j = t / D_K;
    const int c = t - j * D_K;
    const bool inside = j < cols && c < pc.d_k;
    k_tile[j * K_STRIDE + c] =
        inside ? float16_t(texelFetch(k_floats, (c0 + j) * pc.k_pitch + kv_head * pc.d_k + c).r) : float16_t(0.0);
  }
  for (int t = invocation; t < BLOCK_K * D_V; t += invocations) {
    const int j = t / D_V;
    const int c = t - j * D_V;
    const bool inside = j < cols && c < pc.d_v;
    v_tile[j * V_STRIDE + c] =
        inside ? float16_t(texelFetch(v_floats, (c0 + j) * pc.v_pitch + kv_head * pc.d_v + c).r) : float16_t(0.0);
  }
}

// Step 2 for block row r (query i), by one subgroup: as update_row in tiled_attention.comp,
// reading the dot products from S and writing P in fp16.
void softmax_row(int head, int r, int i, int c0, int cols) {
  const int lane = int(subgroupExclusiveAdd(1u));
  const int lanes = int(subgroupAdd(1u));
  const float slope = texelFetch(slopes, head).r;
  float local_max = kMinusInfinity;
  for (int j = lane; j < cols; j += lanes) {
    const bool seen = mask_visible(pc.mask, head, i, c0 + j);
    const float score = seen ? pc.scale * s_tile[r * S_STRIDE + j] + (-slope) * float(abs(i - (c0 + j))) : kMinusInfinity;
    s_tile[r * S_STRIDE + j] = score;
    local_max = max(local_max, score);
  }
  const float m_old = m_rows[r];
  const float m_new = max(m_old, subgroupMax(local_max));
  const float alpha = m_new == kMinusInfinity ? 1.0 : (m_old == kMinusInfinity ? 0.0 : exp(m_old - m_new));
  float local_sum = 0.0;
  for (int j = lane; j < BLOCK_K; j += lanes) {
    const float score = j < cols ? s_tile[r * S_STRIDE + j] : kMinusInfinity;
    const float p = score == kMinusInfinity ? 0.0 : exp(score - m_new);
    const bool keep = j < cols && dropout_keeps(pc.drop_threshold, pc.seed_low, pc.seed_high, head, i, c0 + j);
    p_tile[r * P_STRIDE + j] = float16_t(keep ? p * pc.keep_scale : 0.0);
    local_sum += p;
  }
  const float l_new = alpha * l_rows[r] + subgroupAdd(local_sum);
  for (int c = lane; c < D_V; c += lanes) o_tile[r * O_STRIDE + c] *= alpha;
  subgroupBarrier();
  if (subgroupElect()) {
    m_rows[r] = m_new;
    l_rows[r] = l_new;
  }
}

// The running state of the block's rows: fresh before the first key block, else what the
// previous dispatch left in the output buffer.
void load_state(int head, int n, int r0, int rows, int invocation, int invocations) {
  const int heads = int(gl_NumWorkGroups.y);
  for (int t = invocation; t < BLOCK_Q * D_V; t += invocations) {
    const int r = t / D_V;
    const int c = t - r * D_V;
    const bool stored = pc.kb_begin > 0 && r < rows && c < pc.d_v;
    o_tile[r * O_STRIDE + c] = stored ? imageLoad(out_floats, (head * n + r0 + r) * pc.d_v + c).r : 0.0;
  }
  for (int r = invocation; r < BLOCK_Q; r += invocations) {
    const bool stored = pc.kb_begin > 0 && r < rows;
    m_rows[r] = stored ? imageLoad(out_floats, heads * n * pc.d_v + head * n + r0 + r).r : kMinusInfinity;
    l_rows[r] = stored ? imageLoad(out_floats, heads * n * (pc.d_v + 1) + head * n + r0 + r).r : 0.0;
  }
}

// m and l, and O / l after the last key block (0 for a row that saw nothing), else O itself.
void store_state(int head, int n, int r0, int rows, bool last, int invocation, int invocations) {
  const int heads = int(gl_NumWorkGroups.y);
  for (int t = invocation; t < rows * pc.d_v; t += invocations) {
    const int r = t / pc.d_v;
    const int c = t - r * pc.d_v;
    const float l = l_rows[r];
    const float o = o_tile[r * O_STRIDE + c];
    imageStore(out_floats, (head * n + r0) * pc.d_v + t, vec4(!last ? o : (l > 0.0 ? o / l : 0.0)));
  }
  for (int r = invocation; r < rows; r += invocations) {
    imageStore(out_floats, heads * n * pc.d_v + head * n + r0 + r, vec4(m_rows[r]));
    imageStore(out_floats, heads * n * (pc.d_v + 1) + head * n + r0 + r, vec4(l_rows[r]));
  }
}

// The two matrix products, defined by the including shader (on cooperative matrices, or
// emulated in scalar code).
void multiply_scores();
void accumulate_context();

void main() {
  const int n = pc.mask.rows;
  const int m = pc.mask.cols;
  const int head = int(gl_WorkGroupID.y);
  const int kv_head = head / pc.group;
  const int r0 = int(gl_WorkGroupID.x) * BLOCK_Q;
  const int rows = min(n, r0 + BLOCK_Q) - r0;
  const int invocation = int(gl_LocalInvocationIndex);
  const int invocations = int(gl_WorkGroupSize.x);

  load_queries(head, r0, n, invocation, invocations);
  load_state(head, n, r0, rows, invocation, invocations);
  barrier();
  for (int kb = pc.kb_begin; kb < pc.kb_end; ++kb) {
    const int c0 = kb * BLOCK_K;
    const int cols = min(m, c0 + BLOCK_K) - c0;
    // Uniform across the workgroup: a hidden tile is skipped by all of it, barriers included.
    if (!mask_block_visible(pc.mask, head, r0, r0 + rows, c0, c0 + cols)) continue;
    load_keys_values(kv_head, c0, cols, invocation, invocations);
    barrier();
    multiply_scores();
    barrier();
    for (int r = int(gl_SubgroupID); r < rows; r += int(gl_NumSubgroups)) softmax_row(head, r, r0 + r, c0, cols);
    barrier();
    accumulate_context();
    barrier();  // the next tile overwrites K, V, S and P
  }
  store_state(head, n, r0, rows, pc.kb_end * BLOCK_K >= m, invocation, invocations);
}

#endif  // ATTNVIZ_TILED_FP16_GLSL
