#pragma once
// GPT-2 as core/model runs it (pre-LN blocks, learned positions, a GELU-tanh MLP of 4·C, a final
// LayerNorm, the unembedding tied to the token embedding), trained in float32 on the CPU: the
// forward pass keeps one batch's activations, the backward pass fills the gradient of the mean
// cross-entropy over the batch. Everything (weights, gradients, activations and their gradients)
// is allocated by the constructor; forward() and backward() allocate nothing.

#include <cstdint>
#include <span>
#include <vector>

#include "core/train/parameters.h"

namespace attnviz::train {

// One batch's activations (or their gradients), per layer stacked: ln1 holds L·B·T·C floats.
struct Activations {
  std::vector<float> encoded, ln1, ln1_mean, ln1_rstd, qkv, att, atty, attproj, residual2, ln2, ln2_mean, ln2_rstd, fch,
      fch_gelu, fcproj, residual3, lnf, lnf_mean, lnf_rstd, logits, probs, losses;
  Activations(const ModelShape& shape, int batch, int context);
  [[nodiscard]] std::size_t floats() const;
  // floats() of Activations(shape, batch, context), without making them (a memory check).
  [[nodiscard]] static std::size_t floats_for(const ModelShape& shape, int batch, int context);
};

class Gpt2 {
 public:
  // batch × context tokens per forward pass; context ≤ shape.positions.
  Gpt2(const ModelShape& shape, int batch, int context);
  Gpt2(const Gpt2&) = delete;  // weights_ and grads_ point into its own buffers
  Gpt2& operator=(const Gpt2&) = delete;

  // GPT-2's initialisation: matrices N(0, 0.02²), the residual output projections (attn.c_proj,
  // mlp.c_proj) N(0, (0.02/√(2L))²), biases 0, LayerNorm weights 1; from `seed`, deterministic.
  void initialise(std::uint64_t seed);

  // inputs and targets: batch × context ids. Returns the mean cross-entropy over the B·T predictions.
  float forward(std::span<const std::int32_t> inputs, std::span<const std::int32_t> targets);
  // The gradient of the last forward()'s loss, added to gradients() (zero it first: zero_gradients()).
  void backward();
  void zero_gradients();

  [[nodiscard]] const ModelShape& shape() const { return shape_; }
  [[nodiscard]] int batch() const { return batch_; }
  [[nodiscard]] int context() const { return context_; }
  [[nodiscard]] std::span<float> parameters() { return parameters_; }
  [[nodiscard]] std::span<const float> parameters() const { return parameters_; }
  [[nodiscard]] std::span<float> gradients() { return gradients_; }
  [[nodiscard]] std::span<const float> gradients() const { return gradients_; }
  [[nodiscard]] const std::vector<TensorSpec>& layout() const { return layout_; }
  // The last forward()'s per-prediction losses (B·T) and logits (B·T·V).
  [[nodiscard]] std::span<const float> losses() const { return acts_.losses; }
  [[nodiscard]] std::span<const float> logits() const { return acts_.logits; }
  // The last forward()'s attention weights: L·B·H·T·T, [layer][sequence][head][query][key].
  [[nodiscard]] std::span<const float> attention() const { return acts_.att; }
  // Bytes of the activations and of their gradients.
  [[nodiscard]] std::size_t activation_bytes() const { return 2 * acts_.floats() * sizeof(float); }

 private:
  ModelShape shape_;
  int batch_;
  int context_;
  std::vector<TensorSpec> layout_;
  std::vector<float> parameters_;
  std::vector<float> gradients_;
  ModelTensors weights_;
  ModelTensors grads_;
  Activations acts_;
  Activations dacts_;
  std::vector<std::int32_t> inputs_;
  std::vector<std::int32_t> targets_;
};

}  // namespace attnviz::train
