#include "core/gpu/attention_layout.h"

#include <algorithm>

#include "core/attention/mask.h"

namespace attnviz::gpu {

AttentionShape AttentionShape::of(const Problem& p, const Mask& mask) {
  AttentionShape s;
  s.mask_texels = Mask::globals_texel_count(p.n(), p.m());
  while (s.mask_texels < mask.table_texel_count()) s.mask_texels *= 2;
  s.n = p.n();
  s.m = p.m();
  s.d_model = p.d_model();
  s.heads = p.num_heads;
  s.kv_heads = p.num_kv_heads;
  s.d_k = p.d_k;
  s.d_v = p.d_v;
  s.has_wo = p.wo.has_value();
  s.d_out = p.output_cols();
  s.cross = p.cross_attention;
  s.rope = p.positional == PositionalKind::Rope;
  s.dropout = p.dropout.has_value();
  return s;
}

const char* slot_name(Slot slot) {
  static constexpr const char* names[] = {"x",
                                          "xs",
                                          "wq",
                                          "wk",
                                          "wv",
                                          "wo",
                                          "q",
                                          "k",
                                          "v",
                                          "scores",
                                          "weights",
                                          "concat",
                                          "output",
                                          "globals",
                                          "rope",
                                          "slopes",
                                          "weights before dropout",
                                          "kept"};
  return names[static_cast<int>(slot)];
}

namespace {

// One matrix of rows × cols (cols already padded), alone in its slot.
Placement single(Slot slot, int rows, int cols) { return {slot, cols, 0, cols, rows, 1}; }

// `batches` matrices of rows × cols stacked one after another.
Placement stacked(Slot slot, int batches, int rows, int cols) {
  return {slot, cols, static_cast<std::int64_t>(rows) * cols, cols, rows, batches};
}

}  // namespace

AttentionLayout make_layout(const AttentionShape& s) {
  AttentionLayout l;
  l.shape = s;
  l.d_model4 = round_up4(s.d_model);
  l.d_k4 = round_up4(s.d_k);
  l.d_v4 = round_up4(s.d_v);
  l.m4 = round_up4(s.m);
  l.concat4 = round_up4(s.heads * s.d_v);
  l.d_out4 = round_up4(s.d_out);

  l.x = single(Slot::X, s.n, l.d_model4);
  l.xs = s.cross ? single(Slot::Xs, s.m, l.d_model4) : l.x;
  l.wq = stacked(Slot::Wq, s.heads, s.d_model, l.d_k4);
  l.wk = stacked(Slot::Wk, s.kv_heads, s.d_model, l.d_k4);
  l.wv = stacked(Slot::Wv, s.kv_heads, s.d_model, l.d_v4);
  l.q = stacked(Slot::Q, s.heads, s.n, l.d_k4);
  l.k = stacked(Slot::K, s.kv_heads, s.m, l.d_k4);
  l.v = stacked(Slot::V, s.kv_heads, s.m, l.d_v4);
  l.scores = stacked(Slot::Scores, s.heads, s.n, l.m4);
  l.weights = stacked(Slot::Weights, s.heads, s.n, l.m4);
  l.concat = single(Slot::Concat, s.n, l.concat4);
  if (s.has_wo) {
    l.wo = single(Slot::Wo, s.heads * s.d_v, l.d_out4);
    l.output = single(Slot::Output, s.n, l.d_out4);
  }
  l.globals_entries = std::max(Mask::globals_texel_count(s.n, s.m), s.mask_texels);
  if (s.rope) l.rope = single(Slot::Rope, std::max(s.n, s.m), 2 * (s.d_k / 2));
  if (s.dropout) {
    l.weights_before = stacked(Slot::WeightsBefore, s.heads, s.n, l.m4);
    l.kept = stacked(Slot::Kept, s.heads, s.n, l.m4);
  }

  auto bytes = [&](const Placement& p) { return p.extent() * 4; };
  auto set = [&](Slot slot, std::int64_t value) { l.slot_bytes[static_cast<std::size_t>(slot)] = value; };
  set(Slot::X, bytes(l.x));
  if (s.cross) set(Slot::Xs, bytes(l.xs));
  set(Slot::Wq, bytes(l.wq));
  set(Slot::Wk, bytes(l.wk));
  set(Slot::Wv, bytes(l.wv));
  set(Slot::Q, bytes(l.q));
  set(Slot::K, bytes(l.k));
  set(Slot::V, bytes(l.v));
  set(Slot::Scores, bytes(l.scores));
  set(Slot::Weights, bytes(l.weights));
  set(Slot::Concat, bytes(l.concat));
  if (s.has_wo) {
    set(Slot::Wo, bytes(l.wo));
    set(Slot::Output, bytes(l.output));
  }
  set(Slot::Globals, static_cast<std::int64_t>(l.globals_entries) * 16);
  if (s.rope) set(Slot::Rope, bytes(l.rope));
  set(Slot::Slopes, round_up4(s.heads) * 4);
  if (s.dropout) {
    set(Slot::WeightsBefore, bytes(l.weights_before));
    set(Slot::Kept, bytes(l.kept));
  }
  return l;
}

}  // namespace attnviz::gpu
