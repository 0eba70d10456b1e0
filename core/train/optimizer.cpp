#include "core/train/optimizer.h"

#include <algorithm>
#include <cmath>

namespace attnviz::train {
namespace {

// Smaller loops run on one thread (a parallel region's barrier costs more: see layers.cpp).
constexpr std::size_t kParallelValues = std::size_t{1} << 16;

}  // namespace

float learning_rate_at(const OptimizerSettings& s, long step) {
  if (s.kind == OptimizerKind::Sgd || s.warmup_steps <= 0) return s.learning_rate;
  const double ramp = std::min(1.0, static_cast<double>(step + 1) / s.warmup_steps);
  return static_cast<float>(s.learning_rate * ramp);
}

double global_norm(std::span<const float> gradients) {
  double sum = 0.0;
#pragma omp parallel for reduction(+ : sum) schedule(static) if (gradients.size() >= kParallelValues)
  for (std::size_t i = 0; i < gradients.size(); ++i) sum += static_cast<double>(gradients[i]) * gradients[i];
  return std::sqrt(sum);
}

Optimizer::Optimizer(const OptimizerSettings& settings, const std::vector<TensorSpec>& layout)
    : settings_(settings), layout_(layout) {
  if (settings.kind == OptimizerKind::AdamW) {
    const std::size_t n = layout.empty() ? 0 : layout.back().offset + layout.back().size;
    m_.assign(n, 0.0f);
    v_.assign(n, 0.0f);
  }
}

double Optimizer::update(std::span<float> w, std::span<float> g, long step) {
  const double norm = global_norm(g);
  const float lr = learning_rate_at(settings_, step);
  if (settings_.kind == OptimizerKind::Sgd) {
#pragma omp parallel for schedule(static) if (w.size() >= kParallelValues)
    for (std::size_t i = 0; i < w.size(); ++i) w[i] -= lr * g[i];
    return norm;
  }
  const float clip = norm > settings_.clip_norm ? static_cast<float>(settings_.clip_norm / norm) : 1.0f;
  const float b1 = settings_.beta1, b2 = settings_.beta2;
  const float correction1 = 1.0f - static_cast<float>(std::pow(b1, step + 1));
  const float correction2 = 1.0f - static_cast<float>(std::pow(b2, step + 1));
  for (const TensorSpec& tensor : layout_) {
    const float decay = tensor.is_matrix() ? settings_.weight_decay : 0.0f;
    const std::size_t end = tensor.offset + tensor.size;
#pragma omp parallel for schedule(static) if (tensor.size >= kParallelValues)
    for (std::size_t i = tensor.offset; i < end; ++i) {
      const float grad = g[i] * clip;
      m_[i] = b1 * m_[i] + (1.0f - b1) * grad;
      v_[i] = b2 * v_[i] + (1.0f - b2) * grad * grad;
      const float m_hat = m_[i] / correction1;
      const float v_hat = v_[i] / correction2;
      w[i] -= lr * (m_hat / (std::sqrt(v_hat) + settings_.epsilon) + decay * w[i]);
    }
  }
  return norm;
}

}  // namespace attnviz::train
