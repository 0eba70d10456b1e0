// ForwardPass::rerun_rows_from: a patch at some rows of a causal model reruns those rows only.
// Row i of a layer's output depends on the rows ≤ i of its input alone, so the rows before the
// first patched one are the clean run's in every layer, and their keys and values (kept by the
// run) are all the patched rows need of them. Shapes (R = end_row − first_row rows):
//   x, out: (R, d)   q: (R, H·dk)   k, v: (R, G·dk), written into the kept (N, G·dk)   contexts: (R, H·dk)

#include <stdexcept>
#include <string>
#include <utility>

#include "core/model/cancelled.h"
#include "core/model/forward.h"
#include "core/model/layer_block.h"
#include "core/model/layer_ops.h"

namespace attnviz::model {

const Matrix& ForwardPass::rerun_rows_from(int first_layer, int first_row, int end_row, const ForwardOptions& options) {
  const ModelConfig& c = model_.config();
  if (!has_run_ || keys_.size() != static_cast<std::size_t>(c.num_layers))
    throw std::logic_error("ForwardPass::rerun_rows_from needs a run that kept the keys and values");
  if (!c.causal()) throw std::logic_error("ForwardPass::rerun_rows_from: an encoder's rows all see each other");
  const int n = inputs_.front().rows;
  if (first_layer < 0 || first_layer >= c.num_layers || first_row < 0 || first_row >= end_row || end_row > n) {
    throw std::out_of_range("ForwardPass::rerun_rows_from: layer " + std::to_string(first_layer) + ", rows [" +
                            std::to_string(first_row) + ", " + std::to_string(end_row) + ") of " + std::to_string(n));
  }
  check_edits(c, options.edits);
  const int rows = end_row - first_row;
  Matrix x = rows_of(inputs_[static_cast<std::size_t>(first_layer)], first_row, rows);
  Matrix q, k, v, contexts, out, cos, sin;
  if (c.architecture == Architecture::Llama) {
    cos = rows_of(rope_cos_, first_row, rows);
    sin = rows_of(rope_sin_, first_row, rows);
  }
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
      put_rows(k, keys_[at], first_row);
      put_rows(v, values_[at], first_row);
      attend_over_cache(c, q, first_row, keys_[at], values_[at], 0, contexts);
      require_finite(contexts, "the attention's contexts (softmax(QKᵀ)·V)");
      scale_heads(options.edits, l, c.head_dim, contexts);
      patch_heads(options.patched_heads, l, c.head_dim, contexts, first_row, n);
      finish_layer(c, w, x, contexts, out, block);
    } catch (NonFiniteActivation& e) {
      e.row += first_row;  // the row among the rerun ones: the token's position
      throw non_finite_error(model_, l, e, encoding_.tokens);
    }
    put_rows(out, inputs_[at + 1], first_row);
    std::swap(x, out);
  }
  return inputs_.back();
}

}  // namespace attnviz::model
