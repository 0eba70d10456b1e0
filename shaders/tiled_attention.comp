#version 450
// Tiled attention in FlashAttention-2 order (Dao 2023, algorithm 1), the same algorithm as
// core/tiled on the CPU: one workgroup per (block of Br query rows, query head). It walks the
// blocks of Bc keys left to right; for each it stages the tile of K and V in shared memory
// (on GPUs, the block's Br rows of Q too, once; lavapipe reads them all from the texel buffers:
// STAGE_IN_SHARED), then every query
// row of the block updates its running maximum m, running sum l and
// unnormalised output O (online softmax), rescaling l and O by exp(m_old − m_new) when m
// grows. At the end O / l is the context (0 for a row that sees no key). The N × M scores
// and weights never exist: only a Br × Bc tile of them, in shared memory.
//
// One subgroup per query row at a time (subgroups deal the block's rows out among them): its
// lanes stride along the tile's keys for the scores, reduce the row's max and sum with
// subgroup operations, then stride along d_v for O += P·V. Tiles the mask hides entirely are
// skipped (mask_block_visible: the exact test the CPU skips by); inside a partly hidden tile
// each score is masked. The host checks that the tile fits SHARED_FLOATS.
// Positions: Q and K arrive already turned by RoPE (the host's projections); ALiBi's bias
// −slope_h·|i − j| is added to each scaled score (slopes[h] = 0 without ALiBi). Dropout
// (common/dropout.glsl) scales or zeroes each P after l has summed it, before O += P·V, so
// O / l is the context of the dropped-out weights, as on the materialised path.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const int SHARED_FLOATS = 4096;
// GPUs stage Q's rows and the K and V tiles in shared memory; lavapipe reads them from the texel buffers
// (its texel fetches are vector gathers, its shared-memory loads scalar loops: core/gpu/README.md).
layout(constant_id = 2) const bool STAGE_IN_SHARED = true;

#define MASK_GLOBALS_BINDING 3
#include "common/dropout.glsl"
#include "common/mask.glsl"

layout(binding = 0) uniform samplerBuffer q_floats;  // N × (H·d_k): X · W_Q
layout(binding = 1) uniform samplerBuffer k_floats;  // M × (G·d_k): Xs · W_K
layout(binding = 2) uniform samplerBuffer v_floats;  // M × (G·d_v): Xs · W_V
// Context (H, N, d_v), then m (H, N), then l (H, N). Between the dispatches of one run the
// context slot holds the unnormalised O.
layout(binding = 4, r32f) uniform coherent imageBuffer out_floats;
layout(binding = 5) uniform samplerBuffer slopes;  // H floats: ALiBi's slope per query head, or 0

// Mirrors attnviz::gpu::TiledPush (core/gpu/tiled_kernel.h). N and M are mask.rows and mask.cols.
layout(push_constant) uniform TiledPush {
  int block_q;  // Br
  int block_k;  // Bc
  int d_k;
  int d_v;
  int q_pitch;  // floats from one row of Q to the next: H·d_k
  int k_pitch;  // G·d_k
  int v_pitch;  // G·d_v
  int group;    // query heads per key/value head
  float scale;
  int kb_begin;  // this dispatch walks key blocks [kb_begin, kb_end) (see main)
  int kb_end;
  uint drop_threshold;  // dropout (common/dropout.glsl): 0 keeps every weight
  uint seed_low;
  uint seed_high;
  float keep_scale;     // 1 / (1 − p), 1 without dropout
  MaskParams mask;
} pc;

const float kMinusInfinity = -1.0 / 0.0;

// Shared memory, in floats: the K tile (Bc rows of d_k, each padded by one float: lanes reading
// key j's column c would otherwise all hit one bank when d_k is a multiple of the bank count),
// the V tile (Bc × d_v), the block's scores and then weights P (Br × Bc), its O (Br × d_v), m
// and l (Br each), and when staging, its rows of Q (Br × d_k: every lane of a subgroup reads the
// same element, so they need no padding). Mirrored by gpu::tiled_shared_floats.
shared float tile[SHARED_FLOATS];

struct Layout {
  int k, v, p, o, m, l, q;
};

int k_stride() { return pc.d_k + 1; }

Layout shared_layout() {
  Layout s;
  s.k = 0;
  s.v = s.k + pc.block_k * k_stride();
  s.p = s.v + pc.block_k * pc.d_v;
  s.o = s.p + pc.block_q * pc.block_k;
  s.m = s.o + pc.block_q * pc.d_v;
  s.l = s.m + pc.block_q;
  s.q = s.l + pc.block_q;
  return s;
}

// Element c of block row r's query, whose row starts at q_row in the texel buffer.
float q_at(Layout s, int r, int q_row, int c) {
  if (STAGE_IN_SHARED) return tile[s.q + r * pc.d_k + c];
  return texelFetch(q_floats, q_row + c).r;
}

// The block's rows of Q, read once for all its key blocks (GPUs only).
void load_queries(Layout s, int head, int r0, int rows, int invocation, int invocations) {
  for (int t = invocation; t < rows * pc.d_k; t += invocations) {
    const int r = t / pc.d_k;
    tile[s.q + t] = texelFetch(q_floats, (r0 + r) * pc.q_pitch + head * pc.d_k + (t - r * pc.d_k)).r;
  }
}

float k_at(Layout s, int kv_head, int c0, int j, int c) {
  if (STAGE_IN_SHARED) return tile[s.k + j * k_stride() + c];
  return texelFetch(k_floats, (c0 + j) * pc.k_pitch + kv_head * pc.d_k + c).r;
}

float v_at(Layout s, int kv_head, int c0, int j, int c) {
  if (STAGE_IN_SHARED) return tile[s.v + j * pc.d_v + c];
  return texelFetch(v_floats, (c0 + j) * pc.v_pitch + kv_head * pc.d_v + c).r;
}

void load_tile(Layout s, int kv_head, int c0, int cols, int invocation, int invocations) {
  for (int t = invocation; t < cols * pc.d_k; t += invocations) {
    const int j = t / pc.d_k;
    const int c = t - j * pc.d_k;
    tile[s.k + j * k_stride() + c] = texelFetch(k_floats, (c0 + j) * pc.k_pitch + kv_head * pc.d_k + c).r;
  }
  for (int t = invocation; t < cols * pc.d_v; t += invocations) {
    const int j = t / pc.d_v;
    tile[s.v + t] = texelFetch(v_floats, (c0 + j) * pc.v_pitch + kv_head * pc.d_v + (t - j * pc.d_v)).r;
  }
}

// The online-softmax step of block row r (query i) for keys [c0, c0 + cols), by one subgroup.
void update_row(Layout s, int head, int kv_head, int r, int i, int c0, int cols) {
  // A subgroup that the workgroup's size leaves partly empty strides by its active lanes.
  const int lane = int(subgroupExclusiveAdd(1u));
  const int lanes = int(subgroupAdd(1u));
  const int q_row = i * pc.q_pitch + head * pc.d_k;
  const int p_row = s.p + r * pc.block_k;
  const float slope = texelFetch(slopes, head).r;
  float local_max = kMinusInfinity;
  for (int j = lane; j < cols; j += lanes) {
    float score = kMinusInfinity;
    if (mask_visible(pc.mask, head, i, c0 + j)) {
      float dot = 0.0;
      for (int c = 0; c < pc.d_k; ++c) dot += q_at(s, r, q_row, c) * k_at(s, kv_head, c0, j, c);
      score = pc.scale * dot + (-slope) * float(abs(i - (c0 + j)));
    }
    tile[p_row + j] = score;
    local_max = max(local_max, score);
  }
  const float m_old = tile[s.m + r];
  const float m_new = max(m_old, subgroupMax(local_max));
  // exp(m_old − m_new): 1 while the row has seen nothing (both −∞), 0 at its first visible key.
  const float alpha = m_new == kMinusInfinity ? 1.0 : (m_old == kMinusInfinity ? 0.0 : exp(m_old - m_new));
  float local_sum = 0.0;
  for (int j = lane; j < cols; j += lanes) {
    const float score = tile[p_row + j];
    const float p = score == kMinusInfinity ? 0.0 : exp(score - m_new);
    const bool keep = dropout_keeps(pc.drop_threshold, pc.seed_low, pc.seed_high, head, i, c0 + j);
    tile[p_row + j] = keep ? p * pc.keep_scale : 0.0;
    local_sum += p;
  }
  const float l_new = alpha * tile[s.l + r] + subgroupAdd(local_sum);
  // Every lane reads the whole row of P that the subgroup's lanes wrote.
  subgroupMemoryBarrierShared();
  subgroupBarrier();
  for (int c = lane; c < pc.d_v; c += lanes) {
    float acc = 0.0;
    for (int j = 0; j < cols; ++j) acc += tile[p_row + j] * v_at(s, kv_head, c0, j, c);
    tile[s.o + r * pc.d_v + c] = alpha * tile[s.o + r * pc.d_v + c] + acc;
  }
  subgroupBarrier();
  if (subgroupElect()) {
    tile[s.m + r] = m_new;
    tile[s.l + r] = l_new;
  }
}

// The running state of the block's rows: fresh before the first key block, else what the
// previous dispatch left in the output buffer.
void load_state(Layout s, int head, int n, int r0, int rows, int invocation, int invocations) {
  const int heads = int(gl_NumWorkGroups.y);
  for (int t = invocation; t < rows * pc.d_v; t += invocations) {
    tile[s.o + t] = pc.kb_begin == 0 ? 0.0 : imageLoad(out_floats, (head * n + r0) * pc.d_v + t).r;
  }
  for (int r = invocation; r < rows; r += invocations) {
    tile[s.m + r] = pc.kb_begin == 0 ? kMinusInfinity : imageLoad(out_floats, heads * n * pc.d_v + head * n + r0 + r).r;
    tile[s.l + r] = pc.kb_begin == 0 ? 0.0 : imageLoad(out_floats, heads * n * (pc.d_v + 1) + head * n + r0 + r).r;
  }
}

// m and l, and O / l after the last key block (0 for a row that saw nothing), else O itself.
void store_state(Layout s, int head, int n, int r0, int rows, bool last, int invocation, int invocations) {
  const int heads = int(gl_NumWorkGroups.y);
  for (int t = invocation; t < rows * pc.d_v; t += invocations) {
    const float l = tile[s.l + t / pc.d_v];
    const float o = tile[s.o + t];
    imageStore(out_floats, (head * n + r0) * pc.d_v + t, vec4(!last ? o : (l > 0.0 ? o / l : 0.0)));
  }
  for (int r = invocation; r < rows; r += invocations) {
    imageStore(out_floats, heads * n * pc.d_v + head * n + r0 + r, vec4(tile[s.m + r]));
    imageStore(out_floats, heads * n * (pc.d_v + 1) + head * n + r0 + r, vec4(tile[s.l + r]));
  }
}

// The host splits the key blocks over several dispatches ([kb_begin, kb_end) each), the state
// going through the output buffer between them: llvmpipe stops any loop of a shader after
// 65535 iterations in all (its guard against endless loops), which one long walk would pass.
void main() {
  const int n = pc.mask.rows;
  const int m = pc.mask.cols;
  const int head = int(gl_WorkGroupID.y);
  const int kv_head = head / pc.group;
  const int r0 = int(gl_WorkGroupID.x) * pc.block_q;
  const int rows = min(n, r0 + pc.block_q) - r0;
  const int invocation = int(gl_LocalInvocationIndex);
  const int invocations = int(gl_WorkGroupSize.x);
  const Layout s = shared_layout();

  load_state(s, head, n, r0, rows, invocation, invocations);
  if (STAGE_IN_SHARED) load_queries(s, head, r0, rows, invocation, invocations);
  barrier();
  for (int kb = pc.kb_begin; kb < pc.kb_end; ++kb) {
    const int c0 = kb * pc.block_k;
    const int cols = min(m, c0 + pc.block_k) - c0;
    // Uniform across the workgroup: a hidden tile is skipped by all of it, barriers included.
    if (!mask_block_visible(pc.mask, head, r0, r0 + rows, c0, c0 + cols)) continue;
    if (STAGE_IN_SHARED) load_tile(s, kv_head, c0, cols, invocation, invocations);
    barrier();
    // One row per subgroup at a time.
    for (int r = int(gl_SubgroupID); r < rows; r += int(gl_NumSubgroups)) update_row(s, head, kv_head, r, r0 + r, c0, cols);
    barrier();  // the next tile overwrites K, V and P
  }
  store_state(s, head, n, r0, rows, pc.kb_end * pc.block_k >= m, invocation, invocations);
}
