#include "core/heads/unembedding.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/common/error.h"
#include "core/model/layer_block.h"

namespace attnviz::heads {

using model::Architecture;

void require_unembedding(const model::Model& model, const std::string& what) {
  if (model.config().has_lm_head) return;
  throw InputError(model.path(), "--model",
                   what + " is unavailable: the model (" + model.config().architecture_name +
                       ") has no LM head, so there is no unembedding to read the residual stream through "
                       "(a BERT model needs its masked-LM head, as in BertForMaskedLM)");
}

void require_additive_stream(const model::Model& model, const std::string& what) {
  require_unembedding(model, what);
  if (model.config().architecture != Architecture::Bert) return;
  throw InputError(model.path(), "--model",
                   what +
                       " is unavailable for BERT: it normalises after each block (post-norm), so its final residual "
                       "is not a sum of the blocks' outputs to attribute");
}

void check_target(const model::Model& model, int target, const std::string& option) {
  const int vocab = model.config().vocab_size;
  if (target >= 0 && target < vocab) return;
  throw InputError(
      "<command line>", option,
      std::to_string(target) + " is not a token of the model: its vocabulary has ids 0.." + std::to_string(vocab - 1));
}

void check_position(int position, int tokens, const std::string& option) {
  if (position >= 0 && position < tokens) return;
  throw InputError(
      "<command line>", option,
      "position " + std::to_string(position) + " is beyond the text: it has tokens 0.." + std::to_string(tokens - 1));
}

std::vector<double> unembedding_column(const model::Model& model, int target) {
  const model::Linear& head = model.weights().lm_head;
  std::vector<float> column(static_cast<std::size_t>(head.in));
  head.output_weights(target, column.data());
  return {column.begin(), column.end()};
}

double target_logit(const model::Model& model, const float* residual, int target) {
  const model::ModelConfig& c = model.config();
  const model::Linear& head = model.weights().lm_head;
  if (c.architecture == Architecture::Bert) {
    Matrix row(1, c.d_model), logits;
    std::memcpy(row.row(0), residual, sizeof(float) * static_cast<std::size_t>(c.d_model));
    model::logits_of_rows(model, row, logits);
    return logits.at(0, target);
  }
  const model::Norm& norm = model.weights().final_norm;
  const int d = c.d_model;
  const bool layer_norm = c.architecture == Architecture::Gpt2;  // else RMSNorm
  double mean = 0.0;
  if (layer_norm) {
    for (int j = 0; j < d; ++j) mean += residual[j];
    mean /= d;
  }
  double spread = 0.0;
  for (int j = 0; j < d; ++j) spread += (residual[j] - mean) * (residual[j] - mean);
  const double scale = std::sqrt(spread / d + c.norm_eps);
  const std::vector<double> column = unembedding_column(model, target);
  double logit = head.bias ? head.bias[target] : 0.0;
  for (int j = 0; j < d; ++j) {
    const double normed = (residual[j] - mean) / scale * norm.weight[j] + (norm.bias ? norm.bias[j] : 0.0f);
    logit += normed * column[static_cast<std::size_t>(j)];
  }
  return logit;
}

int likeliest_token(const model::Model& model, const float* residual) {
  Matrix row(1, model.config().d_model), logits;
  std::memcpy(row.row(0), residual, sizeof(float) * static_cast<std::size_t>(row.cols));
  model::logits_of_rows(model, row, logits);
  const float* values = logits.row(0);
  return static_cast<int>(std::max_element(values, values + logits.cols) - values);
}

}  // namespace attnviz::heads
