#version 450
// Pass 1 of the overview (docs/design.md "Overview"): each query row's maximum m of the scaled
// visible scores and l = Σ exp(s − m), by the online softmax of FlashAttention-2 (Dao 2023),
// the same recurrence as core/tiled/online_softmax.h: keys arrive eight at a time, the row's m
// moves up to their largest and l is rescaled by exp(m_old − m_new) before their terms are
// added. Tiles the mask hides from all the workgroup's rows are skipped (mask_block_visible,
// the CPU's exact test); inside a partly hidden tile each score is masked. The host splits
// the keys over dispatches (llvmpipe ends any shader loop after 65,535 iterations), the rows'
// m and l going through row_state between them.
#include "common/overview.glsl"

// m (rows), then l (rows).
layout(binding = 3, r32f) uniform coherent imageBuffer row_state;

const int kChunk = 8;

void main() {
  const int r = local_row();
  const int i = pc.row_begin + r;
  const bool live = r < pc.rows;
  load_q(r);
  const bool first = pc.key_begin == 0;
  float m = first || !live ? kMinusInfinity : imageLoad(row_state, r).r;
  float l = first || !live ? 0.0 : imageLoad(row_state, pc.rows + r).r;
  const int i0 = group_first_row();
  const int i1 = group_end_row();

  for (int j0 = pc.key_begin; j0 < pc.key_end; j0 += TILE_KEYS) {
    const int count = min(TILE_KEYS, pc.key_end - j0);
    if (!mask_block_visible(pc.mask, pc.mask.head, i0, i1, j0, j0 + count)) continue;  // uniform: the whole workgroup skips
    stage_keys(j0, count);
    const bool full = tile_fully_visible(i0, i1, j0, j0 + count);
    for (int c0 = 0; c0 < count; c0 += kChunk) {
      float s[kChunk];
      float chunk_max = kMinusInfinity;
      [[unroll]] for (int u = 0; u < kChunk; ++u) {
        const int jj = min(c0 + u, count - 1);
        float v = scaled_score(i, j0, jj);
        if (c0 + u >= count || (!full && !mask_visible(pc.mask, pc.mask.head, i, j0 + jj))) v = kMinusInfinity;
        s[u] = v;
        chunk_max = max(chunk_max, v);
      }
      if (chunk_max != kMinusInfinity) {
        const float m_new = max(m, chunk_max);
        float sum = 0.0;
        [[unroll]] for (int u = 0; u < kChunk; ++u) sum += exp(s[u] - m_new);  // exp(−∞) = 0
        l = l * exp(m - m_new) + sum;  // exp(m_old − m_new): 0 while m_old = −∞ (and l = 0)
        m = m_new;
      }
    }
  }
  if (live) {
    imageStore(row_state, r, vec4(m));
    imageStore(row_state, pc.rows + r, vec4(l));
  }
}
