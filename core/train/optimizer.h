#pragma once
// The optimisers of `attnviz train` (docs/design.md, "Training"):
//   sgd:   W ← W − lr·∇W, nothing else (no momentum, no weight decay, no clipping, no warm-up);
//   adamw: the gradient clipped to a global norm of 1, the learning rate warmed up linearly over
//          the first warmup_steps, Adam's moments (β1 0.9, β2 0.95, ε 1e-8) and decoupled weight
//          decay on the matrices only (not biases, not LayerNorm weights), as GPT-2 is trained.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/train/parameters.h"

namespace attnviz::train {

enum class OptimizerKind { AdamW, Sgd };

struct OptimizerSettings {
  OptimizerKind kind = OptimizerKind::AdamW;
  float learning_rate = 1e-3f;
  float weight_decay = 0.0f;
  int warmup_steps = 0;
  float clip_norm = 1.0f;
  float beta1 = 0.9f;
  float beta2 = 0.95f;
  float epsilon = 1e-8f;
};

// The learning rate of step `step` (0-based): lr·min(1, (step + 1)/warmup) for AdamW, lr for SGD.
float learning_rate_at(const OptimizerSettings& settings, long step);

// √Σ g² over every gradient, in double.
double global_norm(std::span<const float> gradients);

class Optimizer {
 public:
  // Allocates the two moments (AdamW) once; layout says which tensors are matrices.
  Optimizer(const OptimizerSettings& settings, const std::vector<TensorSpec>& layout);

  // One update of `parameters` from `gradients` (clipped in place for AdamW) as step `step`
  // (0-based; Adam's bias correction uses step + 1). Returns the gradient's norm before clipping.
  double update(std::span<float> parameters, std::span<float> gradients, long step);

  [[nodiscard]] const OptimizerSettings& settings() const { return settings_; }
  // Adam's first and second moments (empty for SGD), for checkpoints.
  [[nodiscard]] std::span<float> first_moment() { return m_; }
  [[nodiscard]] std::span<float> second_moment() { return v_; }

 private:
  OptimizerSettings settings_;
  std::vector<TensorSpec> layout_;
  std::vector<float> m_;
  std::vector<float> v_;
};

}  // namespace attnviz::train
