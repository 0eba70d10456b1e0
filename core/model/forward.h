#pragma once
// A model's forward pass on the CPU in float32, keeping every layer's (or the chosen layers')
// attention: each head's raw scores Q·Kᵀ, weights and context, as attnviz::Result values like
// a scenario's. Norms, MLPs, embeddings and RoPE are Eigen (layer_ops.h); the attention itself
// goes through an attnviz::Backend (Eigen or Vulkan), which receives the layer's projected
// queries, keys and values through selection matrices (Problem: X·W_Q = Q exactly), so any
// architecture's attention (RoPE, biases, grouped-query heads, a sliding window) is a Problem.
//
// Edits for the window: a head switched off or scaled (its context before W_O times a factor,
// Michel et al. 2019) and a head's W_Q, W_K or W_V replaced; rerun_from(layer) recomputes from
// the first edited layer on, reusing the earlier layers' activations and attention.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stop_token>
#include <tuple>
#include <vector>

#include "core/attention/backend.h"
#include "core/attention/compare.h"
#include "core/common/error.h"
#include "core/model/model.h"
#include "core/tokenizers/tokenizer.h"

namespace attnviz::model {

// The scores and weights of every kept head, at most (2 GiB): a pass over more is refused.
inline constexpr long long kMaxKeptCells = 1LL << 28;

// Cells of attention a pass keeps: every kept layer's heads, tokens × tokens.
inline long long kept_attention_cells(long long kept_layers, long long heads, long long tokens) {
  return (kept_layers > 1 ? kept_layers : 1) * heads * tokens * tokens;
}

// The memory a pass over `tokens` tokens keeping `kept_layers` layers takes besides the weights:
// every layer's input (N × d_model, kept for rerun_from), one layer's working matrices (Q, K, V,
// the attention Problem's inputs, the MLP's hidden layer of N × d_ff, twice for SwiGLU), the
// Problem's selection matrices, the kept layers' Q, K, V, scores and weights and the scratch
// layer's, the logits. An estimate from above, in bytes (as the allocations are float32).
std::uint64_t forward_pass_bytes(const ModelConfig& config, long long tokens, long long kept_layers);
// Throws InputError("<text>", "--text", …) with the numbers when forward_pass_bytes and the
// weights pass the model's memory limit (LoadOptions::memory_limit; without one, the activations
// pass the memory available now). Checked before a pass or a generation allocates anything.
void check_pass_memory(const Model& model, long long tokens, long long kept_layers);
// The most tokens, up to `upto`, whose pass keeping `kept_layers` layers check_pass_memory lets
// through (0 when none): where the window cuts a text refused for its activations.
int most_tokens_in_memory(const Model& model, long long kept_layers, int upto);

// A pass refused because its kept attention would pass kMaxKeptCells. what() advises the
// command line's --layers; the window, which keeps every layer, words it from the numbers.
class KeptAttentionTooLarge : public InputError {
 public:
  KeptAttentionTooLarge(long long tokens, long long kept_layers, int heads);
  [[nodiscard]] long long tokens() const { return tokens_; }
  [[nodiscard]] long long kept_layers() const { return kept_layers_; }
  [[nodiscard]] int heads() const { return heads_; }
  [[nodiscard]] long long mebibytes() const;  // the kept scores and weights, float32

 private:
  long long tokens_;
  long long kept_layers_;
  int heads_;
};

struct ModelEdits {
  // (layer, head) → factor on the head's context: 0 switches the head off, 1 leaves it.
  std::map<std::pair<int, int>, float> head_factors;
  // (layer, head, projection) → the head's d_model × head_dim weight slice (as
  // Model::head_weight gives it) in place of the model's. For a key or value it replaces the
  // slice of the head's key/value group, which the group's other query heads share.
  std::map<std::tuple<int, int, Projection>, Matrix> weights;

  [[nodiscard]] bool empty() const { return head_factors.empty() && weights.empty(); }
  // The first layer an edit touches; num_layers when there is none.
  [[nodiscard]] int first_layer(int num_layers) const;
};

// One head's context (N × head_dim, before W_O) put in place of the one the pass computes:
// activation patching (core/heads/patching.h) runs a text with a head's output taken from
// another text's run. Applied after the head factors.
struct HeadPatch {
  int layer = 0;
  int head = 0;
  Matrix context;
};

struct ForwardOptions {
  std::optional<std::vector<int>> layers;  // layers whose attention is kept; nullopt: all
  std::optional<int>
      query_position;  // the pinned query: its top tokens as well (BERT: the first [MASK] when not given)
  int top_k = 10;
  ModelEdits edits;
  std::vector<HeadPatch> patched_heads;
  // Keep the residual stream and what each block adds to it (ForwardResult::stream), for the
  // logit lens and direct logit attribution (core/heads).
  bool keep_stream = false;
  // false: no top tokens (next_tokens stays empty); for callers that read one logit themselves
  // from the stream, where the whole vocabulary's would cost more than the pass.
  bool predict = true;
  // Keep every layer's keys and values (after RoPE) for rerun_rows: 2·G·head_dim floats per
  // token and layer besides the pass's own (GPT-2 small, 64 tokens: 4.7 MB).
  bool keep_keys_values = false;
  ComputeOptions compute;
  ProgressCallback progress;
  std::stop_token stop;  // checked between layers: throws Cancelled
};

struct TokenProbability {
  int id = 0;
  std::string token;  // readable label
  double p = 0.0;
  float logit = 0.0f;
};

struct LayerAttention {
  int layer = 0;
  Result attention;                           // tokens, mask, masked rows, and per head scores, weights, context
  std::vector<MatrixDifference> differences;  // against the comparison backend, when there is one
  // The queries, keys and values the attention read, after biases, edits and RoPE:
  // queries (N, H·dk), keys and values (N, G·dk), head h's columns [h·dk, (h + 1)·dk).
  Matrix queries, keys, values;
};

// The residual stream of a pass (ForwardOptions::keep_stream), every matrix (N, ·) row per token.
// For the pre-norm architectures (GPT-2, the Llama family) residuals[l + 1] = residuals[l] +
// contexts[l]·W_O (+ its bias) + mlp_outputs[l] exactly up to float32 rounding.
struct ResidualStream {
  std::vector<Matrix> residuals;    // L + 1: [0] the embeddings, [l + 1] after block l
  std::vector<Matrix> contexts;     // L: (N, H·dk), the heads' contexts as W_O read them (factors, patches)
  std::vector<Matrix> mlp_outputs;  // L: (N, d), the MLP's output with its bias (BERT: before the post-norm)
};

struct ForwardResult {
  std::vector<int> ids;
  std::vector<std::string> tokens;
  std::vector<int> type_ids;
  std::vector<LayerAttention> layers;          // the kept layers, ascending
  std::vector<TokenProbability> next_tokens;   // at the last position, best first (empty without an LM head)
  int query_position = -1;                     // -1: none pinned
  std::vector<TokenProbability> query_tokens;  // at the pinned query
  ResidualStream stream;                       // empty unless ForwardOptions::keep_stream
  std::string backend;
  std::string device;
  Timing timing;

  [[nodiscard]] const LayerAttention* layer(int index) const;
};

class ForwardPass {
 public:
  // `compare_with`: a second backend computing each layer's attention too, for the per-layer
  // differences (the Vulkan − Eigen check); the residual stream follows `backend`.
  ForwardPass(const Model& model, Backend& backend, Backend* compare_with = nullptr);

  // Throws InputError for ids outside the vocabulary, a text longer than the model's position
  // table, a layer, head or query that does not exist, attention too large to keep; Cancelled.
  const ForwardResult& run(const tokenizers::Encoding& encoding, const ForwardOptions& options);
  // After an edit at `first_layer` (or later), with the same text: layers before it are kept
  // from the last run (all are recomputed when another set of layers is to be kept). Throws
  // std::logic_error when there was no run.
  const ForwardResult& rerun_from(int first_layer, const ForwardOptions& options);
  // Patched versions of the last run's text that differ from it at rows [first_row, end_row)
  // only, for a causal model: variant v puts variants[v]'s contexts (tokens × head_dim, as
  // options.patched_heads, which is not read) in place from first_layer on. The rows before
  // first_row see nothing of a patch in any layer, so only rows [first_row, end_row) of the layers
  // from first_layer on are computed, attending over the run's kept keys and values of the
  // earlier rows; the variants' rows go through each layer's products together (one pass over
  // the weights for all of them). Exact: a full pass with the same patch gives the same rows (to
  // float32 rounding). Returns the stream after the last layer, (V·R, d_model) for R rows:
  // variant v's rows at [v·R, (v + 1)·R). Reads, never changes, the pass: the last run (or
  // rerun_from) must have kept the keys and values (options.keep_keys_values) with the same edits.
  // Throws std::logic_error without such a run or for an encoder, std::out_of_range for rows or
  // a layer outside the text or model, InputError for a patch of the wrong shape, Cancelled.
  [[nodiscard]] Matrix rerun_rows(int first_layer, int first_row, int end_row,
                                  const std::vector<std::vector<HeadPatch>>& variants,
                                  const ForwardOptions& options) const;

  [[nodiscard]] const ForwardResult& result() const { return result_; }
  // Hands the last run's result over (the window shows it while this pass computes the next
  // one), so that it is in memory once: result() is empty afterwards, and a later rerun_from
  // copies the layers it keeps from the handed-over result, which is never written again.
  // Throws std::logic_error when there was no run.
  std::shared_ptr<const ForwardResult> share_result();

 private:
  void check(const ForwardOptions& options) const;
  void embed();
  void run_layers(int first_layer, const ForwardOptions& options);
  void attention(int layer, const Matrix& normed, const ForwardOptions& options, Result& out, LayerAttention* kept);
  void predict(const ForwardOptions& options);
  void keep_in_stream(int layer, const Matrix& contexts, const Matrix& mlp_output);

  const Model& model_;
  Backend& backend_;
  Backend* compare_with_;
  tokenizers::Encoding encoding_;
  std::vector<Matrix> inputs_;  // the residual stream entering each layer, (N, d_model); [L] is the last layer's output
  // Each layer's keys and values after RoPE, (N, G·dk), when options.keep_keys_values (else empty).
  std::vector<Matrix> keys_, values_;
  ForwardResult result_;
  std::shared_ptr<const ForwardResult> shared_;  // the last result, once handed over (share_result)
  bool has_run_ = false;
  // Reused between layers and runs: the attention problem (its selection matrices are set
  // once) and scratch matrices.
  Problem problem_;
  Result scratch_;
  Result compare_scratch_;
  Matrix rope_cos_;
  Matrix rope_sin_;
};

// The kept layer's attention as a Problem (the one the backend computed it from: x = [q | 0],
// xs = [k | v | 0], 0/1 selection matrices for W_Q, W_K, W_V), so that what reads a scenario's
// Problem and Result (the step-by-step lesson, tiled attention) reads a model's layer. Throws
// std::invalid_argument when `layer` was not kept.
Problem layer_problem(const ModelConfig& config, const ForwardResult& result, int layer);
// What hides a layer's cells for a text of n tokens (every layer alike): causal for decoders,
// Mistral's sliding window when the text is longer than it.
MaskSetting layer_mask(const ModelConfig& config, int n);

// The heads' weights averaged (N × M, summed in float64): one layer's attention as a whole (the
// window's Compare view shows it per layer).
Matrix heads_averaged(const Result& attention);

// Attention rollout (Abnar & Zuidema 2020) through layers 0..last_layer: per layer the heads'
// weights averaged, Â = 0.5·A + 0.5·I with rows renormalised, and R = Â_last · … · Â_0 (float64
// products). Throws std::invalid_argument when a layer it needs was not kept.
Matrix attention_rollout(const ForwardResult& result, int last_layer);

}  // namespace attnviz::model
