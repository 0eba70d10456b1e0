#include "core/model/layer_block.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "core/common/error.h"
#include "core/common/text_excerpt.h"

#include "core/model/layer_ops.h"

namespace attnviz::model {
namespace {

void copy_columns(const Matrix& from, Matrix& to, int first_column) {
  for (int r = 0; r < from.rows; ++r)
    std::memcpy(to.row(r) + first_column, from.row(r), sizeof(float) * static_cast<std::size_t>(from.cols));
}

void add_into(Matrix& out, const Matrix& add) {
  for (std::size_t i = 0; i < out.data.size(); ++i) out.data[i] += add.data[i];
}

}  // namespace

void require_finite(const Matrix& m, const char* stage) {
  const int row = first_non_finite_row(m);
  if (row < 0) return;
  float value = 0.0f;
  for (int j = 0; j < m.cols; ++j) {
    if (!std::isfinite(m.row(row)[j])) {
      value = m.row(row)[j];
      break;
    }
  }
  throw NonFiniteActivation{stage, row, value};
}

InputError non_finite_error(const Model& model, int layer, const NonFiniteActivation& e,
                            std::span<const std::string> tokens) {
  const int layers = model.config().num_layers;
  const std::string where = layer < 0         ? "embeddings"
                            : layer >= layers ? "prediction"
                                              : "layer " + std::to_string(layer);
  std::string token = "token " + std::to_string(e.row);
  const auto row = static_cast<std::size_t>(e.row);
  if (e.row >= 0 && row < tokens.size()) token += " " + quoted_excerpt(tokens[row], 30);
  const std::string value = std::isnan(e.value) ? "NaN" : e.value > 0 ? "+inf" : "-inf";
  return InputError(model.path(), where + ": " + e.stage,
                    "the forward pass made a value that is not a finite number (" + value + ") at " + token +
                        ": the model's weights or configuration (rope_theta, the norms' epsilon) give numbers beyond "
                        "float32's range; no result is shown");
}

void embedding_row(const Table& table, int r, float* out) {
  table.row(r, out);
  if (table.data || all_finite(out, static_cast<std::size_t>(table.cols))) return;
  const std::string file = table.stored.file ? *table.stored.file : "<model>";
  const std::string name = table.stored.name ? *table.stored.name : "embeddings";
  throw InputError(file, name,
                   "row " + std::to_string(r) + " holds a value that is not a finite number (the " +
                       type_name(table.stored.type) + " data is damaged)");
}

void check_edits(const ModelConfig& c, const ModelEdits& edits) {
  auto check_head = [&](int layer, int head, const std::string& what) {
    if (layer < 0 || layer >= c.num_layers || head < 0 || head >= c.num_heads) {
      throw InputError("<edit>", what,
                       "layer " + std::to_string(layer) + " head " + std::to_string(head) + " does not exist");
    }
  };
  for (const auto& [key, factor] : edits.head_factors) {
    check_head(key.first, key.second, "head switch");
    if (!std::isfinite(factor)) throw InputError("<edit>", "head switch", "the factor must be a finite number");
  }
  for (const auto& [key, weight] : edits.weights) {
    check_head(std::get<0>(key), std::get<1>(key), "weights");
    if (weight.rows != c.d_model || weight.cols != c.head_dim) {
      throw InputError("<edit>", "weights",
                       "a head's weight must be d_model × head_dim = " + std::to_string(c.d_model) + "×" +
                           std::to_string(c.head_dim));
    }
  }
}

bool norm_before_attention(const ModelConfig& c, const LayerWeights& w, const Matrix& x, Matrix& normed) {
  if (c.architecture == Architecture::Bert) return false;
  if (c.architecture == Architecture::Llama)
    rms_norm(x, w.attention_norm, c.norm_eps, normed);
  else
    layer_norm(x, w.attention_norm, c.norm_eps, normed);
  return true;
}

void project_qkv(const Model& model, int layer, const Matrix& normed, const ModelEdits& edits, Matrix& q, Matrix& k,
                 Matrix& v) {
  const ModelConfig& c = model.config();
  const LayerWeights& w = model.weights().layers[static_cast<std::size_t>(layer)];
  const int dk = c.head_dim;
  apply_linear(normed, w.q, q);
  apply_linear(normed, w.k, k);
  apply_linear(normed, w.v, v);
  require_finite(q, "the queries (x·W_Q)");
  require_finite(k, "the keys (x·W_K)");
  require_finite(v, "the values (x·W_V)");
  for (const auto& [key, weight] : edits.weights) {
    const auto [edit_layer, head, which] = key;
    if (edit_layer != layer) continue;
    const int group = which == Projection::Query ? head : head / (c.num_heads / c.num_kv_heads);
    const std::vector<float> bias = model.head_bias(layer, head, which);
    Linear slice;  // the edited d_model × head_dim weights, as x·W uses them
    slice.weight = weight.data.data();
    slice.in = c.d_model;
    slice.out = dk;
    slice.out_by_in = false;
    slice.stride = dk;
    slice.bias = bias.empty() ? nullptr : bias.data();
    Matrix projected;
    apply_linear(normed, slice, projected);
    copy_columns(projected, which == Projection::Query ? q : which == Projection::Key ? k : v, group * dk);
  }
}

void scale_heads(const ModelEdits& edits, int layer, int head_dim, Matrix& contexts) {
  for (const auto& [key, factor] : edits.head_factors) {
    if (key.first != layer) continue;
    for (int r = 0; r < contexts.rows; ++r) {
      float* row = contexts.row(r) + static_cast<long>(key.second) * head_dim;
      for (int j = 0; j < head_dim; ++j) row[j] *= factor;
    }
  }
}

void patch_heads(const std::vector<HeadPatch>& patches, int layer, int head_dim, Matrix& contexts, int first_row,
                 int tokens) {
  for (const HeadPatch& patch : patches) {
    if (patch.layer != layer) continue;
    if (patch.context.rows != tokens || patch.context.cols != head_dim || patch.head < 0 ||
        (patch.head + 1) * head_dim > contexts.cols) {
      throw InputError("<patch>", "layer " + std::to_string(layer) + " head " + std::to_string(patch.head),
                       "a patched context must be a head of the model, tokens × head_dim = " + std::to_string(tokens) +
                           "×" + std::to_string(head_dim));
    }
    for (int r = 0; r < contexts.rows; ++r) {
      std::memcpy(contexts.row(r) + static_cast<long>(patch.head) * head_dim, patch.context.row(first_row + r),
                  sizeof(float) * static_cast<std::size_t>(head_dim));
    }
  }
}

Matrix rows_of(const Matrix& m, int first, int count) {
  Matrix out(count, m.cols);
  std::copy_n(m.row(first), out.data.size(), out.data.begin());
  return out;
}

void put_rows(const Matrix& rows, Matrix& m, int first) { std::copy(rows.data.begin(), rows.data.end(), m.row(first)); }

void attend_over_cache(const ModelConfig& c, const Matrix& q, int first, const Matrix& keys, const Matrix& values,
                       int first_cached, Matrix& contexts, Matrix* last_scores, Matrix* last_weights) {
  using Vector = Eigen::Map<const Eigen::VectorXf>;
  const int dk = c.head_dim;
  const int group_size = c.num_heads / c.num_kv_heads;
  const float scale = 1.0f / std::sqrt(static_cast<float>(dk));
  contexts.reshape(q.rows, c.num_heads * dk);
  std::vector<float> scores;
  for (int i = 0; i < q.rows; ++i) {
    const int position = first + i;
    const int lowest = c.sliding_window ? std::max(first_cached, position - *c.sliding_window + 1) : first_cached;
    const int begin = lowest - first_cached;
    const int count = position - lowest + 1;
    const bool last = i + 1 == q.rows;
    Matrix* kept_scores = last ? last_scores : nullptr;
    Matrix* kept_weights = last ? last_weights : nullptr;
    if (kept_scores) kept_scores->reshape(c.num_heads, count);
    if (kept_weights) kept_weights->reshape(c.num_heads, count);
    for (int h = 0; h < c.num_heads; ++h) {
      const int g = h / group_size;
      const Vector query(q.row(i) + static_cast<long>(h) * dk, dk);
      scores.resize(static_cast<std::size_t>(count));
      float max = -std::numeric_limits<float>::infinity();
      for (int j = 0; j < count; ++j) {
        const float s = query.dot(Vector(keys.row(begin + j) + static_cast<long>(g) * dk, dk));
        if (kept_scores) kept_scores->at(h, j) = s;
        scores[static_cast<std::size_t>(j)] = s * scale;
        max = std::max(max, s * scale);
      }
      float sum = 0.0f;
      for (float& s : scores) sum += (s = std::exp(s - max));
      Eigen::Map<Eigen::VectorXf> context(contexts.row(i) + static_cast<long>(h) * dk, dk);
      context.setZero();
      for (int j = 0; j < count; ++j) {
        const float weight = scores[static_cast<std::size_t>(j)] / sum;
        if (kept_weights) kept_weights->at(h, j) = weight;
        context += weight * Vector(values.row(begin + j) + static_cast<long>(g) * dk, dk);
      }
    }
  }
}

void finish_layer(const ModelConfig& c, const LayerWeights& w, const Matrix& x, const Matrix& contexts, Matrix& out,
                  BlockScratch& s) {
  apply_linear(contexts, w.o, s.projected);
  out = x;
  add_into(out, s.projected);
  require_finite(out, "the attention's output (W_O) added to the residual");
  if (c.architecture == Architecture::Bert) {
    layer_norm(out, w.attention_norm, c.norm_eps, s.normed);
    out = s.normed;
  } else if (c.architecture == Architecture::Llama) {
    rms_norm(out, w.mlp_norm, c.norm_eps, s.normed);
  } else {
    layer_norm(out, w.mlp_norm, c.norm_eps, s.normed);
  }
  // The MLP on `normed` (BERT: on the block's output itself).
  apply_linear(s.normed, w.up, s.up);
  if (c.architecture == Architecture::Llama) {
    apply_linear(s.normed, w.gate, s.gate);
    silu_times(s.gate, s.up);
    require_finite(s.gate, "the MLP's hidden layer");
    apply_linear(s.gate, w.down, s.projected);
  } else {
    if (c.architecture == Architecture::Gpt2)
      gelu_tanh(s.up);
    else
      gelu_erf(s.up);
    require_finite(s.up, "the MLP's hidden layer");
    apply_linear(s.up, w.down, s.projected);
  }
  add_into(out, s.projected);
  if (c.architecture == Architecture::Bert) {
    layer_norm(out, w.mlp_norm, c.norm_eps, s.normed);
    out = s.normed;
  }
  require_finite(out, "the MLP's output added to the residual");
}

Matrix logits_at(const Model& model, const Matrix& hidden, int row) {
  const ModelConfig& c = model.config();
  Matrix x(1, c.d_model), logits;
  std::memcpy(x.row(0), hidden.row(row), sizeof(float) * static_cast<std::size_t>(c.d_model));
  logits_of_rows(model, x, logits);
  return logits;
}

void logits_of_rows(const Model& model, const Matrix& x, Matrix& logits) {
  const ModelConfig& c = model.config();
  const ModelWeights& w = model.weights();
  Matrix normed;
  if (c.architecture == Architecture::Llama) {
    rms_norm(x, w.final_norm, c.norm_eps, normed);
  } else if (c.architecture == Architecture::Gpt2) {
    layer_norm(x, w.final_norm, c.norm_eps, normed);
  } else {
    Matrix transformed;
    apply_linear(x, w.mlm_transform, transformed);
    gelu_erf(transformed);
    layer_norm(transformed, w.mlm_norm, c.norm_eps, normed);
  }
  apply_linear(normed, w.lm_head, logits);
  require_finite(logits, "the logits");
}

RowProbabilities::RowProbabilities(const float* logits, int vocab) : logits_(logits), vocab_(vocab) {
  // Vectorised float exps summed a block at a time into a double: a row is a vocabulary long
  // (50,257 for GPT-2), and the logit lens reads 13 × 64 of them after every edit.
  constexpr int kBlock = 1024;
  const Eigen::Map<const Eigen::ArrayXf> row(logits, vocab);
  const float largest = row.maxCoeff();
  max_ = largest;
  for (int first = 0; first < vocab; first += kBlock) {
    const int count = std::min(kBlock, vocab - first);
    sum_ += static_cast<double>((row.segment(first, count) - largest).exp().sum());
  }
}

double RowProbabilities::p(int id) const { return std::exp(static_cast<double>(logits_[id]) - max_) / sum_; }

std::vector<int> RowProbabilities::top(int k) const {
  // One pass keeping the best k so far, best first: k is a handful, the row a vocabulary.
  const std::size_t count = static_cast<std::size_t>(std::clamp(k, 0, vocab_));
  std::vector<int> best;
  best.reserve(count + 1);
  if (count == 0) return best;
  for (int id = 0; id < vocab_; ++id) {
    if (best.size() == count && !better(id, best.back())) continue;
    const auto place = std::find_if(best.begin(), best.end(), [&](int kept) { return better(id, kept); });
    best.insert(place, id);
    if (best.size() > count) best.pop_back();
  }
  return best;
}

int RowProbabilities::rank(int id) const {
  // Larger logits anywhere, equal ones at smaller ids: two vectorised counts.
  const Eigen::Map<const Eigen::ArrayXf> row(logits_, vocab_);
  const float logit = logits_[id];
  return static_cast<int>((row > logit).count() + (row.head(id) == logit).count());
}

std::vector<TokenProbability> top_tokens(const Matrix& logits, int k, const tokenizers::Tokenizer& tokenizer,
                                         std::span<const int> before) {
  const float* row = logits.row(0);
  const RowProbabilities probabilities(row, logits.cols);
  std::vector<TokenProbability> top;
  for (const int id : probabilities.top(k)) {
    top.push_back({id, tokenizer.label_after(before, id), probabilities.p(id), row[id]});
  }
  return top;
}

}  // namespace attnviz::model
