// The register-tiled micro-kernel shared by the matrix products. Every invocation owns a
// tile of TILE_R rows × TILE_C4 column quads (4 adjacent columns each), so each operand value
// fetched is reused TILE_C4·4 or TILE_R times. Operands are read through texel buffers
// (RGBA32F, one texel = 4 consecutive floats of a row): on lavapipe these become vector
// gathers, where storage-buffer and shared-memory loads become per-lane scalar loops.

// A shader may widen the tile before including this file (scores.comp does: its rows are
// long, so wider tiles amortise the per-output cost of storing the scores).
#ifndef TILE_R
#define TILE_R 8
#endif
#ifndef TILE_C4
#define TILE_C4 2
#endif

// acc += a_row (4 consecutive k of one row) × b_rows (4 rows k..k+3 of one column quad).
vec4 gemm_step(vec4 acc, vec4 a, vec4 b0, vec4 b1, vec4 b2, vec4 b3) {
  acc = fma(vec4(a.x), b0, acc);
  acc = fma(vec4(a.y), b1, acc);
  acc = fma(vec4(a.z), b2, acc);
  acc = fma(vec4(a.w), b3, acc);
  return acc;
}

// acc_q += dot(a, b_q) for the four columns q of a quad whose rows are b0..b3 (Q·Kᵀ form).
vec4 gemm_step_transposed(vec4 acc, vec4 a, vec4 b0, vec4 b1, vec4 b2, vec4 b3) {
  acc.x = fma(a.x, b0.x, fma(a.y, b0.y, fma(a.z, b0.z, fma(a.w, b0.w, acc.x))));
  acc.y = fma(a.x, b1.x, fma(a.y, b1.y, fma(a.z, b1.z, fma(a.w, b1.w, acc.y))));
  acc.z = fma(a.x, b2.x, fma(a.y, b2.y, fma(a.z, b2.z, fma(a.w, b2.w, acc.z))));
  acc.w = fma(a.x, b3.x, fma(a.y, b3.y, fma(a.z, b3.z, fma(a.w, b3.w, acc.w))));
  return acc;
}

// Zeroes the components of a k-quad at or beyond `valid` (0..4) of them.
vec4 keep_first(vec4 v, int valid) {
  return vec4(valid > 0 ? v.x : 0.0, valid > 1 ? v.y : 0.0, valid > 2 ? v.z : 0.0, valid > 3 ? v.w : 0.0);
}
