// The visibility predicate of docs/design.md, the same as attnviz::Mask (core/attention/mask.h).
// Two kinds, as there:
// - the named fields (runs_offset == 0), arithmetic:
//   visible(i, j) = (no window, or |i−j| ≤ r, or i is global, or j is global)
//                   and (not causal, or j ≤ i)
// - with an expression (runs_offset > 0): each row's sorted runs of visible keys, from the
//   table (Mask::write_table), a list of uint32 four to a texel: entry s·N + i is the first run
//   of row i of set s (s = head when head_stride is N, else 0), run r is the entry
//   runs_offset + r, begin | (end - 1) << 16 (never empty: 16 bits hold keys up to 65,536).
//   visible(h, i, j) is a binary search in row i's runs.
// For cross-attention a global index g marks query row g (g < rows) and key column g
// (g < cols). Global tokens come from a small texel buffer, never an N×M mask
// (Mask::write_globals_table):
//   texel t (0 ≤ t ≤ max(rows, cols)) = (t is a global row, t is a global column,
//                                         global rows < t, global columns < t)
//   texel list_offset + k = (k-th column chunk (4 columns) holding a global column, 0, 0, 0)
//
// Every shader that evaluates a mask has a member `MaskParams mask` in its push-constant block,
// filled from Mask::params(). Define MASK_GLOBALS_BINDING before including this file to get
// the predicate and the global-token table at that binding; without it only struct MaskParams
// is declared (for a stage that shares the push constants but never evaluates the mask).
#ifndef ATTNVIZ_MASK_GLSL
#define ATTNVIZ_MASK_GLSL

// Mirrors attnviz::MaskParams (core/attention/mask.h), whose static_asserts check its layout.
struct MaskParams {
  int rows;         // N
  int cols;         // M
  int causal;       // 0 or 1
  int window;       // radius r, or -1 without a window
  int has_globals;  // 0 or 1
  int list_offset;  // first texel of the global column chunk list
  int list_count;   // number of column chunks holding a global column
  int runs_offset;  // with an expression: the table's uint index of run 0; 0 without
  int head_stride;  // with an expression: rows per head in the run index (N, or 0)
  int head;         // the head a heatmap shows (kernels pass their own head)
};

#ifdef MASK_GLOBALS_BINDING
layout(binding = MASK_GLOBALS_BINDING) uniform usamplerBuffer mask_globals;

bool mask_is_global_row(MaskParams m, int i) { return m.has_globals != 0 && texelFetch(mask_globals, i).x != 0u; }
bool mask_is_global_col(MaskParams m, int j) { return m.has_globals != 0 && texelFetch(mask_globals, j).y != 0u; }

// Any global row in [i0, i1) / global column in [j0, j1)?
bool mask_global_rows_in(MaskParams m, int i0, int i1) {
  if (m.has_globals == 0 || i1 <= i0) return false;
  return texelFetch(mask_globals, min(i1, m.rows)).z > texelFetch(mask_globals, max(i0, 0)).z;
}
bool mask_global_cols_in(MaskParams m, int j0, int j1) {
  if (m.has_globals == 0 || j1 <= j0) return false;
  return texelFetch(mask_globals, min(j1, m.cols)).w > texelFetch(mask_globals, max(j0, 0)).w;
}

// --- with an expression: runs ---

uint mask_entry(int u) { return texelFetch(mask_globals, u >> 2)[u & 3]; }

// Row i's runs: indices [x, y) of the run list (none for a row outside the mask).
ivec2 mask_row_runs(MaskParams m, int head, int i) {
  if (i < 0 || i >= m.rows) return ivec2(0);
  const int u = head * m.head_stride + i;
  return ivec2(int(mask_entry(u)), int(mask_entry(u + 1)));
}

// Run r: keys [x, y).
ivec2 mask_run(MaskParams m, int r) {
  const uint packed = mask_entry(m.runs_offset + r);
  return ivec2(int(packed & 0xFFFFu), int(packed >> 16) + 1);
}

// The first run of `runs` that ends after key j (runs.y when none does).
int mask_run_after(MaskParams m, ivec2 runs, int j) {
  int lo = runs.x;
  int hi = runs.y;
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (mask_run(m, mid).y > j) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

bool mask_runs_visible(MaskParams m, int head, int i, int j) {
  const ivec2 runs = mask_row_runs(m, head, i);
  const int r = mask_run_after(m, runs, j);
  return r < runs.y && mask_run(m, r).x <= j;
}

// Which of columns col .. col + 3 the runs show, walking forward from run `cursor` (runs
// before it end at or before col; the caller keeps it for the next quad to the right).
bvec4 mask_runs_quad(MaskParams m, ivec2 runs, inout int cursor, int col) {
  while (cursor < runs.y && mask_run(m, cursor).y <= col) ++cursor;
  bvec4 seen = bvec4(false);
  for (int r = cursor; r < runs.y; ++r) {
    const ivec2 run = mask_run(m, r);
    if (run.x >= col + 4) break;
    const ivec4 c = ivec4(col) + ivec4(0, 1, 2, 3);
    seen = bvec4(seen.x || (c.x >= run.x && c.x < run.y), seen.y || (c.y >= run.x && c.y < run.y),
                 seen.z || (c.z >= run.x && c.z < run.y), seen.w || (c.w >= run.x && c.w < run.y));
  }
  return seen;
}

// Some key of [j0, j1) visible from a row of [i0, i1)? Exact, as Mask::block_visible.
bool mask_runs_block_visible(MaskParams m, int head, int i0, int i1, int j0, int j1) {
  for (int i = max(i0, 0); i < min(i1, m.rows); ++i) {
    const ivec2 runs = mask_row_runs(m, head, i);
    const int r = mask_run_after(m, runs, j0);
    if (r < runs.y && mask_run(m, r).x < j1) return true;
  }
  return false;
}

// --- both kinds ---

// The named fields' predicate alone (no loop: kernels inline it many times over).
bool mask_fields_visible(MaskParams m, int i, int j) {
  if (i < 0 || j < 0 || i >= m.rows || j >= m.cols) return false;
  if (m.causal != 0 && j > i) return false;
  if (m.window < 0) return true;
  return abs(i - j) <= m.window || mask_is_global_row(m, i) || mask_is_global_col(m, j);
}

bool mask_visible(MaskParams m, int head, int i, int j) {
  if (m.runs_offset != 0) return i >= 0 && j >= 0 && i < m.rows && j < m.cols && mask_runs_visible(m, head, i, j);
  return mask_fields_visible(m, i, j);
}

// Named fields only. The columns [x, y) that rows [i0, i1) may see, apart from global columns outside it
// (the band of the window, everything for a global row, cut at the diagonal when causal).
ivec2 mask_block_span(MaskParams m, int i0, int i1) {
  i1 = min(i1, m.rows);
  ivec2 span = ivec2(0, m.cols);
  if (m.window >= 0 && !mask_global_rows_in(m, i0, i1)) {
    span = ivec2(max(0, i0 - m.window), min(m.cols, i1 - 1 + m.window + 1));
  }
  if (m.causal != 0) span.y = min(span.y, i1);
  return span;
}

// Named fields only. The columns [x, y) row i sees when there are no global tokens (arithmetic only).
ivec2 mask_band_span(MaskParams m, int i) {
  ivec2 span = m.window >= 0 ? ivec2(max(0, i - m.window), min(m.cols, i + m.window + 1)) : ivec2(0, m.cols);
  if (m.causal != 0) span.y = min(span.y, i + 1);
  return span;
}

// Is any entry of rows [i0, i1) × columns [j0, j1) visible? Exact, and the same test as
// Mask::block_visible (core/attention/mask.h), so the CPU and every kernel skip the same
// blocks. Named fields: the rows' spans overlap from one row to the next, so every column of
// their union (mask_block_span) is seen by some row; a global column is seen by every row at
// or below it. With an expression: some row has a run inside the columns.
bool mask_block_visible(MaskParams m, int head, int i0, int i1, int j0, int j1) {
  i1 = min(i1, m.rows);
  j1 = min(j1, m.cols);
  if (i1 <= i0 || j1 <= j0) return false;
  if (m.runs_offset != 0) return mask_runs_block_visible(m, head, i0, i1, j0, j1);
  if (m.causal != 0 && j0 > i1 - 1) return false;
  const ivec2 span = mask_block_span(m, i0, i1);
  if (j0 < span.y && j1 > span.x) return true;
  return mask_global_cols_in(m, j0, m.causal != 0 ? min(j1, i1) : j1);
}

// The k-th column chunk that holds a global column (chunk c covers columns 4c .. 4c+3).
int mask_global_chunk(MaskParams m, int k) { return int(texelFetch(mask_globals, m.list_offset + k).x); }
#endif  // MASK_GLOBALS_BINDING

#endif  // ATTNVIZ_MASK_GLSL
