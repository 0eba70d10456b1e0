#pragma once
// The parts of a transformer layer that the full forward pass (forward.cpp) and greedy
// generation with a KV cache (generate.cpp) share, so both compute a token's row alike: the
// norm before attention, the Q/K/V projections with the window's edits, the head factors, the
// block after attention (W_O, residual, MLP) and the prediction from the last hidden state.
// Attention itself stays with the callers (all N rows at once, or one new row over the cache).

#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/common/matrix.h"
#include "core/model/forward.h"

namespace attnviz::model {

// A value beyond float32 (NaN, ±inf) made by a stage of the computation: weights or a
// configuration whose numbers overflow. Thrown at the end of the stage (one vectorised pass over
// its output) and turned into an InputError naming the model, the layer, the stage and the token
// by the caller, which knows them (non_finite_error), so a pass never returns nulls.
struct NonFiniteActivation : std::runtime_error {
  NonFiniteActivation(std::string stage_name, int at_row, float bad_value)
      : std::runtime_error("a value that is not a finite number in " + stage_name),
        stage(std::move(stage_name)),
        row(at_row),
        value(bad_value) {}
  std::string stage;  // "the MLP's hidden layer"
  int row = 0;        // the row of the stage's output: the token
  float value = 0.0f;
};
// Throws NonFiniteActivation when `m` holds a value that is not finite.
void require_finite(const Matrix& m, const char* stage);
// InputError(model's path, "layer L: STAGE", "… at token i "tok" …"); layer -1 for the
// embeddings, num_layers for the prediction. `tokens` are the rows' tokens.
InputError non_finite_error(const Model& model, int layer, const NonFiniteActivation& e,
                            std::span<const std::string> tokens);

// Row `r` of an embedding table, refused (InputError naming the file, the tensor and the row)
// when a stored (F16, BF16, quantised) row holds a value that is not finite; float32 tables are
// checked whole when they are loaded.
void embedding_row(const Table& table, int r, float* out);

// Throws InputError ("head switch", "weights") for an edit of a head that does not exist, a
// factor that is not finite or a weight slice that is not d_model × head_dim.
void check_edits(const ModelConfig& c, const ModelEdits& edits);

// The norm before attention (GPT-2 ln_1, Llama input_layernorm); BERT has none (post-norm):
// returns false and leaves `normed` alone.
bool norm_before_attention(const ModelConfig& c, const LayerWeights& w, const Matrix& x, Matrix& normed);

// q: (N, H·dk), k, v: (N, G·dk) from `normed`, with the edited heads' slices in place (no RoPE).
void project_qkv(const Model& model, int layer, const Matrix& normed, const ModelEdits& edits, Matrix& q, Matrix& k,
                 Matrix& v);

// Each edited head's context (its columns of `contexts`, (N, H·dk)) times its factor.
void scale_heads(const ModelEdits& edits, int layer, int head_dim, Matrix& contexts);

// Each patch of this layer puts its context in its head's columns of `contexts`, whose rows are
// the text's rows [first_row, first_row + contexts.rows). Throws InputError when a patch's
// context is not tokens × head_dim.
void patch_heads(const std::vector<HeadPatch>& patches, int layer, int head_dim, Matrix& contexts, int first_row,
                 int tokens);

// Rows [first, first + count) of `m`, and `rows` written over m's rows from `first` on.
Matrix rows_of(const Matrix& m, int first, int count);
void put_rows(const Matrix& rows, Matrix& m, int first);

// Causal attention of new rows over cached keys and values, within the model's sliding window:
// row i of q (N', H·dk) is position first + i, row j of keys and values (M, G·dk) position
// first_cached + j, and the cache holds every position up to the last row's. contexts: (N', H·dk).
// The last row's scores and weights (H, the positions it sees) go to `last_scores` and
// `last_weights` when given. Shared by generation's KV cache and ForwardPass::rerun_rows.
void attend_over_cache(const ModelConfig& c, const Matrix& q, int first, const Matrix& keys, const Matrix& values,
                       int first_cached, Matrix& contexts, Matrix* last_scores = nullptr,
                       Matrix* last_weights = nullptr);

// Scratch matrices reused from layer to layer.
struct BlockScratch {
  Matrix normed, projected, up, gate;
};

// out = the layer's output: x + contexts·W_O, then the MLP (and BERT's post-norms).
void finish_layer(const ModelConfig& c, const LayerWeights& w, const Matrix& x, const Matrix& contexts, Matrix& out,
                  BlockScratch& scratch);

// The LM head's logits (1, vocab) at row `row` of the last hidden state.
Matrix logits_at(const Model& model, const Matrix& hidden, int row);
// The same for every row of `hidden` at once (N, vocab): the final norm (BERT: its masked-LM
// transform) and the unembedding; the logit lens puts every layer's residual through it.
void logits_of_rows(const Model& model, const Matrix& hidden, Matrix& logits);

// One row of logits read as probabilities: its largest logit and the softmax's denominator, in
// float64, so that any token's probability costs one exp. Ranks and the top k order by logit,
// ties going to the smaller id. Shared by the next-token list and the logit lens.
class RowProbabilities {
 public:
  RowProbabilities(const float* logits, int vocab);
  [[nodiscard]] double p(int id) const;
  // The k likeliest ids, best first.
  [[nodiscard]] std::vector<int> top(int k) const;
  // How many ids come before `id` (0 = the likeliest).
  [[nodiscard]] int rank(int id) const;

 private:
  [[nodiscard]] bool better(int a, int b) const {
    return logits_[a] > logits_[b] || (logits_[a] == logits_[b] && a < b);
  }
  const float* logits_;
  int vocab_;
  double max_ = 0.0;
  double sum_ = 0.0;
};

// The k likeliest tokens of a row of logits, best first (ties: the smaller id first), each
// labelled after the ids `before` it (a byte that completes a character they began reads 안₃).
std::vector<TokenProbability> top_tokens(const Matrix& logits, int k, const tokenizers::Tokenizer& tokenizer,
                                         std::span<const int> before);

}  // namespace attnviz::model
