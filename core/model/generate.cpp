// Greedy generation with a KV cache. Shapes (n new positions, d = d_model, H query heads and G
// key/value heads of head_dim dk, M cached entries):
//   x: (n, d)   q: (n, H·dk)   k, v: (n, G·dk)   cache keys, values: (M, G·dk)   contexts: (n, H·dk)
// The prefill feeds the whole prompt (n = P), each later step one position (n = 1).

#include "core/model/generate.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>

#include "core/common/error.h"
#include "core/model/cancelled.h"
#include "core/model/layer_block.h"
#include "core/model/layer_ops.h"

namespace attnviz::model {
namespace {

void append_rows(Matrix& to, const Matrix& rows) {
  const int held = to.rows;
  to.data.insert(to.data.end(), rows.data.begin(), rows.data.end());
  to.rows = held + rows.rows;
  to.cols = rows.cols;
}

void drop_front_rows(Matrix& m, int count) {
  m.data.erase(m.data.begin(), m.data.begin() + static_cast<std::ptrdiff_t>(count) * m.cols);
  m.rows -= count;
}

bool kept_layer(const GenerateOptions& options, int layer) {
  return !options.layers || std::find(options.layers->begin(), options.layers->end(), layer) != options.layers->end();
}

// Every token's label, and each step's query and chosen token, read as one text once the tokens
// are known: a character whose bytes a later token finished reads 안₁₂ | 안₃ in both.
void relabel(Generation& g, const tokenizers::Tokenizer& tokenizer) {
  const std::vector<std::string> labels = tokenizer.labels(g.ids());
  const std::size_t p = g.prompt_ids.size();
  std::copy_n(labels.begin(), p, g.prompt_tokens.begin());
  for (std::size_t s = 0; s < g.steps.size(); ++s) {
    g.steps[s].query_token = labels[p + s - 1];
    g.steps[s].token = labels[p + s];
  }
}

}  // namespace

const char* to_string(StopReason reason) {
  switch (reason) {
    case StopReason::Tokens: return "tokens";
    case StopReason::EndOfText: return "end of text";
    case StopReason::PositionTable: return "position table";
  }
  return "tokens";
}

std::vector<int> Generation::ids() const {
  std::vector<int> all = prompt_ids;
  for (const GenerationStep& step : steps) all.push_back(step.id);
  return all;
}

std::vector<std::string> Generation::tokens() const {
  std::vector<std::string> all = prompt_tokens;
  for (const GenerationStep& step : steps) all.push_back(step.token);
  return all;
}

std::vector<int> end_of_text_ids(const ModelConfig& config, const tokenizers::Tokenizer& tokenizer) {
  if (!config.end_of_text_ids.empty()) return config.end_of_text_ids;
  constexpr std::array<const char*, 5> kNames = {"<|endoftext|>", "</s>", "<|end_of_text|>", "<|eot_id|>",
                                                 "<|im_end|>"};
  for (const char* name : kNames) {
    const int id = tokenizer.find(name);
    if (id >= 0) return {id};
  }
  return {};
}

bool Generation::ends_text(int id) const {
  return std::find(end_of_text_ids.begin(), end_of_text_ids.end(), id) != end_of_text_ids.end();
}

std::uint64_t cache_bytes(const ModelConfig& c, int entries) {
  std::uint64_t bytes = 2 * sizeof(float);
  for (const int factor : {c.num_layers, c.num_kv_heads, c.head_dim, entries})
    bytes *= static_cast<std::uint64_t>(std::max(factor, 0));
  return bytes;
}

Generator::Generator(const Model& model) : model_(model) {}

void Generator::check(const tokenizers::Encoding& prompt, const GenerateOptions& options) const {
  const ModelConfig& c = model_.config();
  if (c.architecture == Architecture::Bert || !c.has_lm_head) {
    throw InputError(
        model_.path(), "architecture",
        c.architecture_name + " is " + c.family() +
            ", an encoder that sees the whole text at once: it does not generate. Open a GPT-2 or Llama-family model");
  }
  if (options.max_new_tokens < 1 || options.max_new_tokens > kMaxGeneratedTokens) {
    throw InputError(
        "<command line>", "--tokens",
        std::to_string(options.max_new_tokens) + " tokens: give 1 to " + std::to_string(kMaxGeneratedTokens));
  }
  const auto n = static_cast<int>(prompt.ids.size());
  if (n == 0) throw InputError("<text>", "--text", "makes no tokens: give some text");
  for (std::size_t i = 0; i < prompt.ids.size(); ++i) {
    if (prompt.ids[i] < 0 || prompt.ids[i] >= c.vocab_size) {
      throw InputError("<text>", "--text",
                       "token " + std::to_string(i) + " has id " + std::to_string(prompt.ids[i]) +
                           ", outside the model's " + std::to_string(c.vocab_size) +
                           " embeddings: the tokenizer and the weights disagree");
    }
  }
  // The prefill is a pass over the prompt and each step one position more, so a pass over the
  // prompt and the new tokens bounds the activations; the rows of attention kept are small.
  check_pass_memory(model_, static_cast<long long>(n) + options.max_new_tokens, 0);
  if (c.max_positions > 0 && n >= c.max_positions) {
    throw InputError("<text>", "--text",
                     "makes " + std::to_string(n) + " tokens, which fill the model's " +
                         std::to_string(c.max_positions) + " positions: no room to generate; use a shorter text");
  }
  if (options.layers) {
    for (const int layer : *options.layers) {
      if (layer < 0 || layer >= c.num_layers) {
        throw InputError("<command line>", "--layers",
                         "layer " + std::to_string(layer) + " does not exist: the model has layers 0.." +
                             std::to_string(c.num_layers - 1));
      }
    }
  }
  check_edits(c, options.edits);
}

void Generator::embed(const std::vector<int>& ids, int first, Matrix& x) const {
  const ModelConfig& c = model_.config();
  const ModelWeights& w = model_.weights();
  x.reshape(static_cast<int>(ids.size()), c.d_model);
  std::vector<float> position(static_cast<std::size_t>(c.d_model));
  for (int i = 0; i < x.rows; ++i) {
    embedding_row(w.token_embedding, ids[static_cast<std::size_t>(i)], x.row(i));
    if (w.position_embedding.rows == 0) continue;  // RoPE models turn q and k instead
    embedding_row(w.position_embedding, first + i, position.data());
    for (int j = 0; j < c.d_model; ++j) x.row(i)[j] += position[static_cast<std::size_t>(j)];
  }
}

void Generator::rope(Matrix& q, Matrix& k, int first) const {
  const ModelConfig& c = model_.config();
  if (c.architecture != Architecture::Llama) return;
  const Matrix cos = rows_of(rope_cos_, first, q.rows);
  const Matrix sin = rows_of(rope_sin_, first, q.rows);
  apply_rope(q, c.num_heads, c.head_dim, cos, sin);
  apply_rope(k, c.num_kv_heads, c.head_dim, cos, sin);
}

// Each new row i (position first + i) attends over the cached positions it may see: all up to
// itself, or the last `sliding_window` of them. `kept` receives the last row's scores and
// weights over the entries the cache holds once this step is done.
void Generator::attend(int layer, const Matrix& q, int first, Matrix& contexts, StepAttention* kept) {
  const LayerCache& cache = caches_[static_cast<std::size_t>(layer)];
  attend_over_cache(model_.config(), q, first, cache.keys, cache.values, first_cached_, contexts,
                    kept ? &kept->scores : nullptr, kept ? &kept->weights : nullptr);
}

// A sliding window's cache is a rolling buffer: entries older than the window leave.
void Generator::evict() {
  const ModelConfig& c = model_.config();
  if (!c.sliding_window || caches_.empty()) return;
  const int extra = caches_.front().keys.rows - *c.sliding_window;
  if (extra <= 0) return;
  for (LayerCache& cache : caches_) {
    drop_front_rows(cache.keys, extra);
    drop_front_rows(cache.values, extra);
  }
  first_cached_ += extra;
}

Matrix Generator::feed(const std::vector<int>& ids, int first, const GenerateOptions& options, GenerationStep& step) {
  const ModelConfig& c = model_.config();
  Matrix x, out, q, k, v, contexts;
  BlockScratch block;
  embed(ids, first, x);
  for (int l = 0; l < c.num_layers; ++l) {
    if (options.stop.stop_requested()) throw Cancelled();
    const LayerWeights& w = model_.weights().layers[static_cast<std::size_t>(l)];
    try {
      if (l == 0) require_finite(x, "the token embeddings");
      norm_before_attention(c, w, x, block.normed);
      project_qkv(model_, l, block.normed, options.edits, q, k, v);
      rope(q, k, first);
      LayerCache& cache = caches_[static_cast<std::size_t>(l)];
      append_rows(cache.keys, k);
      append_rows(cache.values, v);
      StepAttention* kept = nullptr;
      if (kept_layer(options, l)) kept = &step.layers.emplace_back(StepAttention{l, {}, {}});
      attend(l, q, first, contexts, kept);
      require_finite(contexts, "the attention's contexts (softmax(QKᵀ)·V)");
      scale_heads(options.edits, l, c.head_dim, contexts);
      finish_layer(c, w, x, contexts, out, block);
    } catch (NonFiniteActivation& e) {
      e.row += first;  // the row among the new ones: the token's position
      throw non_finite_error(model_, l, e, token_labels_);
    }
    std::swap(x, out);
  }
  evict();
  step.query_position = first + static_cast<int>(ids.size()) - 1;
  step.first_cached = first_cached_;
  step.cache_length = caches_.front().keys.rows;
  step.cache_bytes = cache_bytes(c, step.cache_length);
  try {
    return logits_at(model_, x, x.rows - 1);
  } catch (NonFiniteActivation& e) {
    e.row = first + x.rows - 1;
    throw non_finite_error(model_, c.num_layers, e, token_labels_);
  }
}

Generation Generator::run(const tokenizers::Encoding& prompt, const GenerateOptions& options) {
  check(prompt, options);
  const auto start = std::chrono::steady_clock::now();
  const ModelConfig& c = model_.config();
  const auto& tokenizer = model_.tokenizer();
  const auto p = static_cast<int>(prompt.ids.size());
  caches_.assign(static_cast<std::size_t>(c.num_layers), LayerCache{});
  for (LayerCache& cache : caches_) cache.keys = cache.values = Matrix(0, c.num_kv_heads * c.head_dim);
  first_cached_ = 0;
  token_labels_ = prompt.tokens;
  if (c.architecture == Architecture::Llama) rope_tables(c.rope, p + options.max_new_tokens, rope_cos_, rope_sin_);

  Generation g;
  g.prompt_ids = prompt.ids;
  g.prompt_tokens = prompt.tokens;
  g.end_of_text_ids = end_of_text_ids(c, tokenizer);
  while (static_cast<int>(g.steps.size()) < options.max_new_tokens) {
    const auto s = static_cast<int>(g.steps.size());
    if (s > 0 && g.ends_text(g.steps.back().id)) {
      g.stop = StopReason::EndOfText;
      break;
    }
    if (c.max_positions > 0 && p + s + 1 > c.max_positions) {
      g.stop = StopReason::PositionTable;
      break;
    }
    if (options.progress) {
      options.progress({s == 0 ? "prefill (" + std::to_string(p) + " tokens)"
                               : "token " + std::to_string(s + 1) + " of " + std::to_string(options.max_new_tokens),
                        static_cast<double>(s) / options.max_new_tokens});
    }
    if (options.stop.stop_requested()) throw Cancelled();
    GenerationStep step;
    const Matrix logits =
        s == 0 ? feed(prompt.ids, 0, options, step) : feed({g.steps.back().id}, p + s - 1, options, step);
    step.next_tokens = top_tokens(logits, std::max(options.top_k, 1), tokenizer, g.ids());
    step.id = step.next_tokens.front().id;
    token_labels_.push_back(step.next_tokens.front().token);
    g.steps.push_back(std::move(step));
  }
  if (!g.steps.empty() && static_cast<int>(g.steps.size()) == options.max_new_tokens && g.ends_text(g.steps.back().id))
    g.stop = StopReason::EndOfText;
  relabel(g, tokenizer);
  g.total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (options.progress) options.progress({"done", 1.0});
  return g;
}

}  // namespace attnviz::model
