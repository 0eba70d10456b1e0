// ForwardPass::rerun_rows: patches at some rows of a causal model rerun those rows only. Row i
// of a layer's output depends on the rows ≤ i of its input alone, so the rows before the first
// patched one are the run's own in every layer, and their keys and values (kept by the run) are
// all the patched rows need of them. Shapes (V variants of R = end_row − first_row rows each,
// stacked: variant v's rows at [v·R, (v + 1)·R)):
//   x, out: (V·R, d)   q: (V·R, H·dk)   k, v: (V·R, G·dk)   contexts: (V·R, H·dk)
//   seen_keys, seen_values: (end_row, G·dk), the run's rows before first_row and one variant's own

#include <stdexcept>
#include <string>
#include <utility>

#include "core/model/cancelled.h"
#include "core/model/forward.h"
#include "core/model/layer_block.h"
#include "core/model/layer_ops.h"

namespace attnviz::model {
namespace {

// `rows` written `times` times, one after the other.
Matrix stacked(const Matrix& rows, int times) {
  Matrix out(rows.rows * times, rows.cols);
  for (int t = 0; t < times; ++t) put_rows(rows, out, t * rows.rows);
  return out;
}

}  // namespace

Matrix ForwardPass::rerun_rows(int first_layer, int first_row, int end_row,
                               const std::vector<std::vector<HeadPatch>>& variants,
                               const ForwardOptions& options) const {
  const ModelConfig& c = model_.config();
  if (!has_run_ || keys_.size() != static_cast<std::size_t>(c.num_layers))
    throw std::logic_error("ForwardPass::rerun_rows needs a run that kept the keys and values");
  if (!c.causal()) throw std::logic_error("ForwardPass::rerun_rows: an encoder's rows all see each other");
  const int n = inputs_.front().rows;
  if (first_layer < 0 || first_layer >= c.num_layers || first_row < 0 || first_row >= end_row || end_row > n) {
    throw std::out_of_range("ForwardPass::rerun_rows: layer " + std::to_string(first_layer) + ", rows [" +
                            std::to_string(first_row) + ", " + std::to_string(end_row) + ") of " + std::to_string(n));
  }
  check_edits(c, options.edits);
  const int rows = end_row - first_row;
  const int count = static_cast<int>(variants.size());
  if (count == 0) return {};
  Matrix x = stacked(rows_of(inputs_[static_cast<std::size_t>(first_layer)], first_row, rows), count);
  Matrix cos, sin;
  if (c.architecture == Architecture::Llama) {
    cos = stacked(rows_of(rope_cos_, first_row, rows), count);
    sin = stacked(rows_of(rope_sin_, first_row, rows), count);
  }
  Matrix q, k, v, contexts, out, seen_keys, seen_values, variant_context;
  BlockScratch block;
  for (int l = first_layer; l < c.num_layers; ++l) {
    if (options.stop.stop_requested()) throw Cancelled();
    const auto at = static_cast<std::size_t>(l);
    const LayerWeights& w = model_.weights().layers[at];
    try {
      const bool pre_norm = norm_before_attention(c, w, x, block.normed);
      project_qkv(model_, l, pre_norm ? block.normed : x, options.edits, q, k, v);
      if (c.architecture == Architecture::Llama) {
        apply_rope(q, c.num_heads, c.head_dim, cos, sin);
        apply_rope(k, c.num_kv_heads, c.head_dim, cos, sin);
      }
      seen_keys = rows_of(keys_[at], 0, end_row);  // the rows from first_row on are each variant's
      seen_values = rows_of(values_[at], 0, end_row);
      contexts.reshape(count * rows, c.num_heads * c.head_dim);
      for (int variant = 0; variant < count; ++variant) {
        put_rows(rows_of(k, variant * rows, rows), seen_keys, first_row);
        put_rows(rows_of(v, variant * rows, rows), seen_values, first_row);
        attend_over_cache(c, rows_of(q, variant * rows, rows), first_row, seen_keys, seen_values, 0, variant_context);
        require_finite(variant_context, "the attention's contexts (softmax(QKᵀ)·V)");
        scale_heads(options.edits, l, c.head_dim, variant_context);
        patch_heads(variants[static_cast<std::size_t>(variant)], l, c.head_dim, variant_context, first_row, n);
        put_rows(variant_context, contexts, variant * rows);
      }
      finish_layer(c, w, x, contexts, out, block);
    } catch (NonFiniteActivation& e) {
      e.row = first_row + e.row % rows;  // the row among the rerun ones: the token's position
      throw non_finite_error(model_, l, e, encoding_.tokens);
    }
    std::swap(x, out);
  }
  return x;
}

}  // namespace attnviz::model
