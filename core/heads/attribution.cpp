#include "core/heads/attribution.h"

#include <cmath>
#include <span>
#include <stdexcept>

#include "core/heads/unembedding.h"
#include "core/model/layer_ops.h"

namespace attnviz::heads {
namespace {

using model::Architecture;

// The final norm with its scale frozen: a part c's share of the logit is
// Σ_j norm_frozen(c)_j · W_U[j, target], norm_frozen linear in c.
class FrozenNorm {
 public:
  FrozenNorm(const model::Model& model, const float* final_residual, int target)
      : norm_(model.weights().final_norm),
        d_(model.config().d_model),
        centred_(model.config().architecture == Architecture::Gpt2),
        column_(unembedding_column(model, target)) {
    const double mean = centred_ ? mean_of(final_residual) : 0.0;
    double spread = 0.0;
    for (int j = 0; j < d_; ++j) spread += (final_residual[j] - mean) * (final_residual[j] - mean);
    sigma_ = std::sqrt(spread / d_ + model.config().norm_eps);
  }

  [[nodiscard]] double share(const float* part) const {
    const double mean = centred_ ? mean_of(part) : 0.0;
    double sum = 0.0;
    for (int j = 0; j < d_; ++j) sum += (part[j] - mean) * norm_.weight[j] * column_[static_cast<std::size_t>(j)];
    return sum / sigma_;
  }

  // The norm's bias through the unembedding (and the unembedding's own bias, where it has one).
  [[nodiscard]] double bias_share(const model::Linear& unembedding, int target) const {
    double sum = unembedding.bias ? unembedding.bias[target] : 0.0;
    if (norm_.bias) {
      for (int j = 0; j < d_; ++j) sum += static_cast<double>(norm_.bias[j]) * column_[static_cast<std::size_t>(j)];
    }
    return sum;
  }

 private:
  [[nodiscard]] double mean_of(const float* x) const {
    double sum = 0.0;
    for (int j = 0; j < d_; ++j) sum += x[j];
    return sum / d_;
  }

  const model::Norm& norm_;
  int d_;
  bool centred_;  // LayerNorm subtracts the mean; RMSNorm does not
  std::vector<double> column_;
  double sigma_ = 1.0;
};

// Each head's output at row `position` ((H, d): its context through its rows of W_O, no bias):
// a block-diagonal (H, H·dk) matrix of the contexts times W_O, whichever way W_O is stored.
Matrix head_outputs(const model::ModelConfig& c, const model::Linear& w_o, const Matrix& contexts, int position) {
  const int dk = c.head_dim;
  Matrix blocks(c.num_heads, c.num_heads * dk);
  for (int h = 0; h < c.num_heads; ++h) {
    const float* context = contexts.row(position) + static_cast<long>(h) * dk;
    std::copy(context, context + dk, blocks.row(h) + static_cast<long>(h) * dk);
  }
  model::Linear without_bias = w_o;
  without_bias.bias = nullptr;
  Matrix outputs;
  model::apply_linear(blocks, without_bias, outputs);
  return outputs;
}

}  // namespace

const char* part_kind_name(PartKind kind) {
  switch (kind) {
    case PartKind::Embedding: return "embedding";
    case PartKind::Head: return "head";
    case PartKind::AttentionBias: return "attention_bias";
    case PartKind::Mlp: return "mlp";
    case PartKind::FinalBias: return "final_bias";
  }
  return "";
}

Attribution attribute_logit(const model::Model& model, const model::ForwardResult& result,
                            const AttributionRequest& request) {
  require_additive_stream(model, "direct logit attribution");
  const model::ModelConfig& c = model.config();
  const model::ResidualStream& stream = result.stream;
  if (stream.residuals.size() != static_cast<std::size_t>(c.num_layers) + 1)
    throw std::invalid_argument("attribute_logit needs a pass run with keep_stream");
  const int n = static_cast<int>(result.ids.size());
  Attribution out;
  out.position = request.position.value_or(n - 1);
  check_position(out.position, n, "--position");
  const float* final_residual = stream.residuals.back().row(out.position);
  out.target = request.target.value_or(likeliest_token(model, final_residual));
  check_target(model, out.target, "--target-id");
  out.target_token = model.tokenizer().label_after(
      std::span(result.ids).first(static_cast<std::size_t>(out.position) + 1), out.target);
  out.logit = target_logit(model, final_residual, out.target);

  const FrozenNorm norm(model, final_residual, out.target);
  out.parts.push_back({PartKind::Embedding, -1, -1, norm.share(stream.residuals[0].row(out.position))});
  for (int l = 0; l < c.num_layers; ++l) {
    const model::LayerWeights& w = model.weights().layers[static_cast<std::size_t>(l)];
    const Matrix outputs = head_outputs(c, w.o, stream.contexts[static_cast<std::size_t>(l)], out.position);
    for (int h = 0; h < c.num_heads; ++h) out.parts.push_back({PartKind::Head, l, h, norm.share(outputs.row(h))});
    if (w.o.bias) out.parts.push_back({PartKind::AttentionBias, l, -1, norm.share(w.o.bias)});
    out.parts.push_back(
        {PartKind::Mlp, l, -1, norm.share(stream.mlp_outputs[static_cast<std::size_t>(l)].row(out.position))});
  }
  out.parts.push_back({PartKind::FinalBias, -1, -1, norm.bias_share(model.weights().lm_head, out.target)});
  return out;
}

}  // namespace attnviz::heads
