#pragma once
// The parts of a transformer layer that the full forward pass (forward.cpp) and greedy
// generation with a KV cache (generate.cpp) share, so both compute a token's row alike: the
// norm before attention, the Q/K/V projections with the window's edits, the head factors, the
// block after attention (W_O, residual, MLP) and the prediction from the last hidden state.
// Attention itself stays with the callers (all N rows at once, or one new row over the cache).

#include <span>
#include <vector>

#include "core/common/matrix.h"
#include "core/model/forward.h"

namespace attnviz::model {

// Throws InputError ("head switch", "weights") for an edit of a head that does not exist, a
// factor that is not finite or a weight slice that is not d_model × head_dim.
void check_edits(const ModelConfig& c, const ModelEdits& edits);

// The norm before attention (GPT-2 ln_1, Llama input_layernorm); BERT has none (post-norm):
// returns false and leaves `normed` alone.
bool norm_before_attention(const ModelConfig& c, const LayerWeights& w, const Matrix& x, Matrix& normed);

// q: (N, H·dk), k, v: (N, G·dk) from `normed`, with the edited heads' slices in place (no RoPE).
void project_qkv(const Model& model, int layer, const Matrix& normed, const ModelEdits& edits, Matrix& q, Matrix& k, Matrix& v);

// Each edited head's context (its columns of `contexts`, (N, H·dk)) times its factor.
void scale_heads(const ModelEdits& edits, int layer, int head_dim, Matrix& contexts);

// Scratch matrices reused from layer to layer.
struct BlockScratch {
  Matrix normed, projected, up, gate;
};

// out = the layer's output: x + contexts·W_O, then the MLP (and BERT's post-norms).
void finish_layer(const ModelConfig& c, const LayerWeights& w, const Matrix& x, const Matrix& contexts, Matrix& out, BlockScratch& scratch);

// The LM head's logits (1, vocab) at row `row` of the last hidden state.
Matrix logits_at(const Model& model, const Matrix& hidden, int row);

// The k likeliest tokens of a row of logits, best first (ties: the smaller id first), each
// labelled after the ids `before` it (a byte that completes a character they began reads 안₃).
std::vector<TokenProbability> top_tokens(const Matrix& logits, int k, const tokenizers::Tokenizer& tokenizer, std::span<const int> before);

}  // namespace attnviz::model
