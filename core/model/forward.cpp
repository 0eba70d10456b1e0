// The forward pass layer by layer. Shapes (N tokens, d = d_model, H query heads and G
// key/value heads of head_dim dk):
//   inputs_[l]: (N, d)   q: (N, H·dk)   k, v: (N, G·dk)   contexts: (N, H·dk)
// The attention Problem: x = [q | 0] and xs = [k | v | 0], both (N, D) with D = max(H·dk, 2·G·dk),
// W_Q, W_K, W_V selection matrices of 0 and 1, so Q = x·W_Q is q exactly (a product with 1 and
// sums with 0 are exact in float32) and either backend computes the model's attention as it
// computes a scenario's.

#include "core/model/forward.h"

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "core/common/error.h"
#include "core/model/cancelled.h"
#include "core/model/layer_block.h"
#include "core/model/layer_ops.h"

namespace attnviz::model {
namespace {

using Clock = std::chrono::steady_clock;
double milliseconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

void copy_columns(const Matrix& from, Matrix& to, int first_column) {
  for (int r = 0; r < from.rows; ++r)
    std::memcpy(to.row(r) + first_column, from.row(r), sizeof(float) * static_cast<std::size_t>(from.cols));
}

// A copy of `result` for a rerun from `first_layer`: the layers before it as they were (the
// rerun keeps them), the later ones empty (it recomputes them into fresh storage).
ForwardResult layers_before(const ForwardResult& result, int first_layer) {
  ForwardResult kept;
  kept.ids = result.ids;
  kept.tokens = result.tokens;
  kept.type_ids = result.type_ids;
  kept.stream = result.stream;  // the later layers' entries are written again
  kept.backend = result.backend;
  kept.device = result.device;
  for (const LayerAttention& layer : result.layers) {
    if (layer.layer < first_layer) {
      kept.layers.push_back(layer);
    } else {
      kept.layers.emplace_back();
      kept.layers.back().layer = layer.layer;
    }
  }
  return kept;
}

}  // namespace

int ModelEdits::first_layer(int num_layers) const {
  int first = num_layers;
  for (const auto& [key, factor] : head_factors) first = std::min(first, key.first);
  for (const auto& [key, weight] : weights) first = std::min(first, std::get<0>(key));
  return first;
}

const LayerAttention* ForwardResult::layer(int index) const {
  for (const LayerAttention& kept : layers) {
    if (kept.layer == index) return &kept;
  }
  return nullptr;
}

namespace {

// The attention Problem's constant part: its selection matrices and sizes.
Problem problem_shape(const ModelConfig& c) {
  Problem problem;
  const int q_width = c.num_heads * c.head_dim;
  const int kv_width = c.num_kv_heads * c.head_dim;
  const int width = std::max(q_width, 2 * kv_width);
  problem.wq = Matrix(width, q_width);
  problem.wk = Matrix(width, kv_width);
  problem.wv = Matrix(width, kv_width);
  for (int i = 0; i < q_width; ++i) problem.wq.at(i, i) = 1.0f;
  for (int i = 0; i < kv_width; ++i) {
    problem.wk.at(i, i) = 1.0f;
    problem.wv.at(kv_width + i, i) = 1.0f;
  }
  problem.num_heads = c.num_heads;
  problem.num_kv_heads = c.num_kv_heads;
  problem.d_k = c.head_dim;
  problem.d_v = c.head_dim;
  problem.scale = 1.0f / std::sqrt(static_cast<float>(c.head_dim));
  problem.cross_attention = true;
  return problem;
}

// The per-text part: x = [q | 0], xs = [k | v | 0], the tokens and the sliding window.
void fill_problem(const ModelConfig& c, const Matrix& q, const Matrix& k, const Matrix& v,
                  const std::vector<std::string>& tokens, Problem& problem) {
  const int n = q.rows;
  const int width = problem.wq.rows;
  problem.x.reshape(n, width);  // storage kept from the last layer: same shape, no allocation
  problem.xs.reshape(n, width);
  std::fill(problem.x.data.begin(), problem.x.data.end(), 0.0f);
  std::fill(problem.xs.data.begin(), problem.xs.data.end(), 0.0f);
  copy_columns(q, problem.x, 0);
  copy_columns(k, problem.xs, 0);
  copy_columns(v, problem.xs, k.cols);
  problem.tokens = tokens;
  problem.source_tokens = tokens;
  problem.mask = layer_mask(c, n);
}

}  // namespace

MaskSetting layer_mask(const ModelConfig& config, int n) {
  MaskSetting mask;
  mask.causal = config.causal();
  if (config.sliding_window && *config.sliding_window < n) mask.window = *config.sliding_window - 1;
  return mask;
}

namespace {

// The scores and weights (float32) a pass keeps, rounded up: just past the limit reads
// "2,049 MiB", not the limit's own "2,048".
long long kept_mebibytes(long long kept_layers, long long heads, long long tokens) {
  constexpr long long kMebibyte = 1LL << 20;
  return (kept_attention_cells(kept_layers, heads, tokens) * 8 + kMebibyte - 1) / kMebibyte;
}

}  // namespace

std::uint64_t forward_pass_bytes(const ModelConfig& c, long long tokens, long long kept_layers) {
  const auto n = static_cast<std::uint64_t>(std::max(tokens, 0LL));
  const auto d = static_cast<std::uint64_t>(c.d_model);
  const std::uint64_t q_width = static_cast<std::uint64_t>(c.num_heads) * static_cast<std::uint64_t>(c.head_dim);
  const std::uint64_t kv_width = static_cast<std::uint64_t>(c.num_kv_heads) * static_cast<std::uint64_t>(c.head_dim);
  const std::uint64_t width = std::max(q_width, 2 * kv_width);  // the Problem's x and xs
  const std::uint64_t mlp = static_cast<std::uint64_t>(c.d_ff) * (c.architecture == Architecture::Llama ? 2 : 1);
  const std::uint64_t layers = static_cast<std::uint64_t>(c.num_layers);
  const auto kept = static_cast<std::uint64_t>(std::max(kept_layers, 0LL));
  const std::uint64_t attention = 2 * static_cast<std::uint64_t>(c.num_heads) * n * n;  // one layer's scores, weights
  const std::uint64_t layer_kept =
      n * (q_width + 2 * kv_width) + attention + n * q_width;              // Q, K, V, attention, output
  std::uint64_t floats = (layers + 1) * n * d;                             // every layer's input
  floats += n * (3 * d + 2 * (q_width + 2 * kv_width) + 2 * width + mlp);  // one layer at work
  floats += width * (q_width + 2 * kv_width);                              // the selection matrices
  floats += (kept + 1) * layer_kept;                                       // the kept layers and the scratch one
  floats += static_cast<std::uint64_t>(c.vocab_size) * 2;
  return floats * 4;
}

KeptAttentionTooLarge::KeptAttentionTooLarge(long long tokens, long long kept_layers, int heads)
    : InputError("<text>", "--layers",
                 "keeping the attention of " + std::to_string(kept_layers) + " layers × " + std::to_string(heads) +
                     " heads for " + std::to_string(tokens) + " tokens takes " +
                     std::to_string(kept_mebibytes(kept_layers, heads, tokens)) +
                     " MiB; keep fewer layers (--layers 0,5) or use a shorter text"),
      tokens_(tokens),
      kept_layers_(kept_layers),
      heads_(heads) {}

long long KeptAttentionTooLarge::mebibytes() const { return kept_mebibytes(kept_layers_, heads_, tokens_); }

ForwardPass::ForwardPass(const Model& model, Backend& backend, Backend* compare_with)
    : model_(model), backend_(backend), compare_with_(compare_with), problem_(problem_shape(model.config())) {}

Problem layer_problem(const ModelConfig& config, const ForwardResult& result, int layer) {
  const LayerAttention* kept = result.layer(layer);
  if (kept == nullptr) throw std::invalid_argument("layer " + std::to_string(layer) + " was not kept");
  Problem problem = problem_shape(config);
  fill_problem(config, kept->queries, kept->keys, kept->values, result.tokens, problem);
  return problem;
}

void ForwardPass::check(const ForwardOptions& options) const {
  const ModelConfig& c = model_.config();
  const std::string text = "<text>";
  const auto n = static_cast<long long>(encoding_.ids.size());
  if (n == 0) throw InputError(text, "--text", "makes no tokens: give some text");
  for (std::size_t i = 0; i < encoding_.ids.size(); ++i) {
    const int id = encoding_.ids[i];
    if (id < 0 || id >= c.vocab_size) {
      throw InputError(text, "--text",
                       "token " + std::to_string(i) + " has id " + std::to_string(id) + ", outside the model's " +
                           std::to_string(c.vocab_size) + " embeddings: the tokenizer and the weights disagree");
    }
    if (c.architecture == Architecture::Bert && encoding_.type_ids[i] >= c.type_vocab_size) {
      throw InputError(text, "--text",
                       "token " + std::to_string(i) + " is in segment " + std::to_string(encoding_.type_ids[i]) +
                           " but the model has " + std::to_string(c.type_vocab_size) + " token types");
    }
  }
  if (const std::optional<int> positions = c.position_limit(); positions && n > *positions) {
    throw InputError(
        text, "--text",
        "makes " + std::to_string(n) + " tokens but the model has positions for " + std::to_string(*positions));
  }
  long long kept = c.num_layers;
  if (options.layers) {
    kept = static_cast<long long>(options.layers->size());
    for (const int layer : *options.layers) {
      if (layer < 0 || layer >= c.num_layers) {
        throw InputError("<command line>", "--layers",
                         "layer " + std::to_string(layer) + " does not exist: the model has layers 0.." +
                             std::to_string(c.num_layers - 1));
      }
    }
  }
  if (kept_attention_cells(kept, c.num_heads, n) > kMaxKeptCells) throw KeptAttentionTooLarge(n, kept, c.num_heads);
  check_pass_memory(model_, n, kept);
  if (options.query_position && (*options.query_position < 0 || *options.query_position >= n)) {
    throw InputError("<command line>", "--query",
                     "position " + std::to_string(*options.query_position) +
                         " is not a token: the text has tokens 0.." + std::to_string(n - 1));
  }
  check_edits(c, options.edits);
}

// The pass's activations against the memory limit the model was opened with (the weights'
// share taken off), or against what the system has now: refused with the numbers before
// anything is allocated, rather than run into swap or the OOM killer.
namespace {

struct MemoryRoom {
  std::optional<std::uint64_t> limit;
  std::uint64_t weights = 0;  // counted only against a limit: without one they are in memory already
  std::uint64_t available = 0;
  [[nodiscard]] bool fits(std::uint64_t need) const { return need <= available && weights <= available - need; }
};

MemoryRoom memory_room(const Model& model) {
  MemoryRoom room;
  room.limit = model.memory_limit();
  room.weights = room.limit ? model.weight_bytes() : 0;
  room.available = room.limit ? *room.limit : available_memory_bytes();
  return room;
}

}  // namespace

int most_tokens_in_memory(const Model& model, long long kept_layers, int upto) {
  const MemoryRoom room = memory_room(model);
  int low = 0, high = std::max(upto, 0);  // fits(low); the answer is in [low, high]
  while (low < high) {
    const int middle = low + (high - low + 1) / 2;
    if (room.fits(forward_pass_bytes(model.config(), middle, kept_layers)))
      low = middle;
    else
      high = middle - 1;
  }
  return low;
}

void check_pass_memory(const Model& model, long long tokens, long long kept_layers) {
  const std::uint64_t need = forward_pass_bytes(model.config(), tokens, kept_layers);
  const MemoryRoom memory = memory_room(model);
  if (memory.fits(need)) return;
  const std::optional<std::uint64_t> limit = memory.limit;
  const std::uint64_t weights = memory.weights;
  const std::uint64_t available = memory.available;
  auto mib = [](std::uint64_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; };
  const std::string what = std::to_string(model.config().d_ff) + " MLP values and the attention of " +
                           std::to_string(kept_layers) + " kept layers per token";
  const std::string besides = limit ? " besides the weights' " + mib(weights) : std::string();
  const std::string room = limit ? "the memory limit is " + mib(available) : "only " + mib(available) + " is available";
  throw InputError("<text>", "--text",
                   "a pass over " + std::to_string(tokens) + " tokens needs " + mib(need) + " for its activations (" +
                       what + ")" + besides + ", but " + room + ": use a shorter text or keep fewer layers (--layers)");
}

void ForwardPass::embed() {
  const ModelConfig& c = model_.config();
  const ModelWeights& w = model_.weights();
  const int n = static_cast<int>(encoding_.ids.size());
  Matrix& x = inputs_[0];
  x.reshape(n, c.d_model);
  std::vector<float> extra(static_cast<std::size_t>(c.d_model));
  auto add_row = [&](const Table& table, int r, float* row) {
    if (table.rows == 0) return;
    embedding_row(table, r, extra.data());
    for (int j = 0; j < c.d_model; ++j) row[j] += extra[static_cast<std::size_t>(j)];
  };
  for (int i = 0; i < n; ++i) {
    float* row = x.row(i);
    embedding_row(w.token_embedding, encoding_.ids[static_cast<std::size_t>(i)], row);
    add_row(w.position_embedding, i, row);
    add_row(w.token_type_embedding, encoding_.type_ids[static_cast<std::size_t>(i)], row);
  }
  if (c.architecture == Architecture::Bert) {
    Matrix normed;
    layer_norm(x, w.embedding_norm, c.norm_eps, normed);
    x = std::move(normed);
  }
  try {
    require_finite(x, "the token embeddings");
  } catch (const NonFiniteActivation& e) {
    throw non_finite_error(model_, -1, e, encoding_.tokens);
  }
  if (c.architecture == Architecture::Llama) rope_tables(c.rope, n, rope_cos_, rope_sin_);
}

// The layer's attention block: projections (with edits), RoPE, the backend, the head factors
// and W_O. `normed` is the block's input; the block's output replaces `out`.
void ForwardPass::attention(int layer, const Matrix& normed, const ForwardOptions& options, Result& result,
                            LayerAttention* kept) {
  const ModelConfig& c = model_.config();
  const int dk = c.head_dim;
  Matrix q, k, v;
  project_qkv(model_, layer, normed, options.edits, q, k, v);
  if (c.architecture == Architecture::Llama) {
    apply_rope(q, c.num_heads, dk, rope_cos_, rope_sin_);
    apply_rope(k, c.num_kv_heads, dk, rope_cos_, rope_sin_);
  }
  fill_problem(c, q, k, v, encoding_.tokens, problem_);
  if (options.keep_keys_values) {
    keys_[static_cast<std::size_t>(layer)] = k;
    values_[static_cast<std::size_t>(layer)] = v;
  }
  if (kept) {
    kept->queries = q;
    kept->keys = k;
    kept->values = v;
  }
  backend_.compute_into(problem_, options.compute, result);
  if (compare_with_ && kept) {
    compare_with_->compute_into(problem_, options.compute, compare_scratch_);
    kept->differences = compare_results(result, compare_scratch_);
  }
}

void ForwardPass::run_layers(int first_layer, const ForwardOptions& options) {
  const ModelConfig& c = model_.config();
  const ModelWeights& weights = model_.weights();
  const auto layers = static_cast<std::size_t>(c.num_layers);
  if (!options.keep_keys_values) {
    keys_.clear();
    values_.clear();
  } else if (keys_.size() != layers) {  // a first run (rerun_from reruns every layer then)
    keys_.assign(layers, Matrix());
    values_.assign(layers, Matrix());
  }
  Matrix contexts;
  BlockScratch block;
  for (int l = first_layer; l < c.num_layers; ++l) {
    if (options.progress)
      options.progress({"layer " + std::to_string(l + 1) + " of " + std::to_string(c.num_layers),
                        static_cast<double>(l) / c.num_layers});
    if (options.stop.stop_requested()) throw Cancelled();
    const LayerWeights& w = weights.layers[static_cast<std::size_t>(l)];
    const Matrix& x = inputs_[static_cast<std::size_t>(l)];
    Matrix& out = inputs_[static_cast<std::size_t>(l) + 1];
    LayerAttention* kept = nullptr;
    for (LayerAttention& candidate : result_.layers) kept = candidate.layer == l ? &candidate : kept;
    Result& attention_result = kept ? kept->attention : scratch_;

    try {
      const bool pre_norm = norm_before_attention(c, w, x, block.normed);
      attention(l, pre_norm ? block.normed : x, options, attention_result, kept);
      contexts = attention_result.output;  // (N, H·dk): the heads' contexts side by side
      require_finite(contexts, "the attention's contexts (softmax(QKᵀ)·V)");
      scale_heads(options.edits, l, c.head_dim, contexts);
      patch_heads(options.patched_heads, l, c.head_dim, contexts, 0, contexts.rows);
      finish_layer(c, w, x, contexts, out, block);
      if (options.keep_stream) keep_in_stream(l, contexts, block.projected);
    } catch (const NonFiniteActivation& e) {
      throw non_finite_error(model_, l, e, encoding_.tokens);
    }
  }
}

void ForwardPass::keep_in_stream(int layer, const Matrix& contexts, const Matrix& mlp_output) {
  ResidualStream& stream = result_.stream;
  const auto l = static_cast<std::size_t>(layer);
  const std::size_t layers = inputs_.size() - 1;
  stream.residuals.resize(layers + 1);
  stream.contexts.resize(layers);
  stream.mlp_outputs.resize(layers);
  if (layer == 0) stream.residuals[0] = inputs_[0];
  stream.residuals[l + 1] = inputs_[l + 1];
  stream.contexts[l] = contexts;
  stream.mlp_outputs[l] = mlp_output;
}

void ForwardPass::predict(const ForwardOptions& options) {
  const ModelConfig& c = model_.config();
  result_.next_tokens.clear();
  result_.query_tokens.clear();
  result_.query_position = -1;
  if (options.query_position) {
    result_.query_position = *options.query_position;
  } else if (c.architecture == Architecture::Bert) {
    const int mask = model_.tokenizer().find("[MASK]");
    const auto it = std::find(encoding_.ids.begin(), encoding_.ids.end(), mask);
    if (mask >= 0 && it != encoding_.ids.end()) result_.query_position = static_cast<int>(it - encoding_.ids.begin());
  }
  if (!c.has_lm_head || !options.predict) return;
  const Matrix& hidden = inputs_.back();
  auto predict_row = [&](int row) {
    try {
      const std::span<const int> before = std::span(encoding_.ids).first(static_cast<std::size_t>(row) + 1);
      return top_tokens(logits_at(model_, hidden, row), options.top_k, model_.tokenizer(), before);
    } catch (NonFiniteActivation& e) {
      e.row = row;
      throw non_finite_error(model_, c.num_layers, e, encoding_.tokens);
    }
  };
  result_.next_tokens = predict_row(hidden.rows - 1);
  if (result_.query_position >= 0) result_.query_tokens = predict_row(result_.query_position);
}

const ForwardResult& ForwardPass::run(const tokenizers::Encoding& encoding, const ForwardOptions& options) {
  has_run_ = false;
  shared_.reset();  // whoever holds it keeps it; this run needs nothing of it
  encoding_ = encoding;
  check(options);
  const auto start = Clock::now();
  const ModelConfig& c = model_.config();
  result_ = ForwardResult{};
  result_.ids = encoding.ids;
  result_.tokens = encoding.tokens;
  result_.type_ids = encoding.type_ids;
  result_.backend = backend_.name();
  result_.device = backend_.device_name();
  std::vector<int> kept(static_cast<std::size_t>(c.num_layers));
  std::iota(kept.begin(), kept.end(), 0);
  if (options.layers) {
    kept = *options.layers;
    std::sort(kept.begin(), kept.end());
    kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
  }
  for (const int layer : kept) {
    result_.layers.emplace_back();
    result_.layers.back().layer = layer;
  }
  inputs_.assign(static_cast<std::size_t>(c.num_layers) + 1, Matrix());
  embed();
  const auto embedded = Clock::now();
  run_layers(0, options);
  const auto layered = Clock::now();
  predict(options);
  const auto done = Clock::now();
  result_.timing.stages_ms = {{"embeddings", milliseconds(start, embedded)},
                              {"layers", milliseconds(embedded, layered)},
                              {"prediction", milliseconds(layered, done)}};
  result_.timing.total_ms = milliseconds(start, done);
  has_run_ = true;
  if (options.progress) options.progress({"done", 1.0});
  return result_;
}

const ForwardResult& ForwardPass::rerun_from(int first_layer, const ForwardOptions& options) {
  const ModelConfig& c = model_.config();
  std::vector<int> wanted;
  if (options.layers)
    wanted = *options.layers;
  else {
    wanted.resize(static_cast<std::size_t>(c.num_layers));
    std::iota(wanted.begin(), wanted.end(), 0);
  }
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  if (!has_run_) throw std::logic_error("ForwardPass::rerun_from called before a run");
  std::vector<int> had;
  for (const LayerAttention& kept : (shared_ ? *shared_ : result_).layers) had.push_back(kept.layer);
  const bool keys_values_missing = options.keep_keys_values && keys_.size() != static_cast<std::size_t>(c.num_layers);
  if (had != wanted || first_layer <= 0 || keys_values_missing) {
    const tokenizers::Encoding same = encoding_;
    return run(same, options);
  }
  if (shared_) result_ = layers_before(*std::exchange(shared_, nullptr), first_layer);
  has_run_ = false;
  check(options);
  const auto start = Clock::now();
  run_layers(std::min(first_layer, c.num_layers), options);
  const auto layered = Clock::now();
  predict(options);
  const auto done = Clock::now();
  result_.timing.stages_ms = {{"layers", milliseconds(start, layered)}, {"prediction", milliseconds(layered, done)}};
  result_.timing.total_ms = milliseconds(start, done);
  has_run_ = true;
  if (options.progress) options.progress({"done", 1.0});
  return result_;
}

std::shared_ptr<const ForwardResult> ForwardPass::share_result() {
  if (!has_run_) throw std::logic_error("ForwardPass::share_result called before a run");
  if (!shared_) {
    shared_ = std::make_shared<const ForwardResult>(std::move(result_));
    result_ = ForwardResult{};
  }
  return shared_;
}

Matrix heads_averaged(const Result& attention) {
  if (attention.heads.empty()) return {};
  const Matrix& first = attention.heads.front().weights;
  std::vector<double> sum(first.data.size(), 0.0);
  for (const HeadResult& head : attention.heads) {
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += static_cast<double>(head.weights.data[i]);
  }
  Matrix mean(first.rows, first.cols);
  const auto count = static_cast<double>(attention.heads.size());
  for (std::size_t i = 0; i < sum.size(); ++i) mean.data[i] = static_cast<float>(sum[i] / count);
  return mean;
}

Matrix attention_rollout(const ForwardResult& result, int last_layer) {
  const auto n = static_cast<Eigen::Index>(result.tokens.size());
  Eigen::MatrixXd rollout = Eigen::MatrixXd::Identity(n, n);
  Eigen::MatrixXd step(n, n);
  for (int layer = 0; layer <= last_layer; ++layer) {
    const LayerAttention* kept = result.layer(layer);
    if (!kept)
      throw std::invalid_argument("attention rollout needs layer " + std::to_string(layer) + ", which was not kept");
    const auto& heads = kept->attention.heads;
    step.setZero();
    for (const HeadResult& head : heads) {
      step += Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
                  head.weights.data.data(), n, n)
                  .cast<double>();
    }
    step /= static_cast<double>(heads.size());
    step = 0.5 * step + 0.5 * Eigen::MatrixXd::Identity(n, n);
    step = step.array().colwise() / step.rowwise().sum().array();
    // R ← Â · R: this layer's mixing after everything below it.
    rollout = step * rollout;
  }
  Matrix out(static_cast<int>(n), static_cast<int>(n));
  Eigen::Map<Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(out.data.data(), n, n) =
      rollout.cast<float>();
  return out;
}

}  // namespace attnviz::model
