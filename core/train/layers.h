#pragma once
// GPT-2's layers, forward and backward, by hand on Eigen in float32, in the style of llm.c: every
// tensor is row-major and flat, its shape in the comment; each backward ADDS into the gradients it
// is given (they are zeroed once per step), so a tensor read in two places gathers both.
// N is the number of rows (B·T), C the width. Loops over rows run on every OpenMP thread; the
// matrix products use Eigen's own threads.

#include <cstdint>

namespace attnviz::train {

// out (B,T,C) = wte[ids] + wpe[t]; ids (B,T).
void embedding_forward(float* out, const std::int32_t* ids, const float* wte, const float* wpe, int B, int T, int C);
void embedding_backward(float* dwte, float* dwpe, const float* dout, const std::int32_t* ids, int B, int T, int C);

// out (N,C) = (inp − mean) · rstd · w + b per row (biased variance, eps 1e-5); mean, rstd (N) kept.
void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* w, const float* b, int N,
                       int C);
void layernorm_backward(float* dinp, float* dw, float* db, const float* dout, const float* inp, const float* w,
                        const float* mean, const float* rstd, int N, int C);

// out (N,OC) = inp (N,C) · w (C,OC) + b (OC): Hugging Face's Conv1D layout, [in, out]. b may be null.
void matmul_forward(float* out, const float* inp, const float* w, const float* b, int N, int C, int OC);
void matmul_backward(float* dinp, float* dw, float* db, const float* dout, const float* inp, const float* w, int N,
                     int C, int OC);

// The unembedding tied to the token embedding: logits (N,V) = inp (N,C) · wteᵀ, wte (V,C).
void unembedding_forward(float* logits, const float* inp, const float* wte, int N, int C, int V);
void unembedding_backward(float* dinp, float* dwte, const float* dlogits, const float* inp, const float* wte, int N,
                          int C, int V);

// Causal multi-head attention. qkv (B,T,3C): q, k, v side by side, head h at columns h·hs of
// each; att (B,NH,T,T): the softmax weights (zero above the diagonal); out (B,T,C).
void attention_forward(float* out, float* att, const float* qkv, int B, int T, int C, int NH);
// scratch (B,NH,T,T) is overwritten (the gradient of the weights, then of the scores).
void attention_backward(float* dqkv, float* scratch, const float* dout, const float* qkv, const float* att, int B,
                        int T, int C, int NH);

// GPT-2's GELU ("gelu_new"): 0.5x(1 + tanh(√(2/π)(x + 0.044715x³))), elementwise over n values.
void gelu_forward(float* out, const float* inp, long n);
void gelu_backward(float* dinp, const float* inp, const float* dout, long n);

// out = a + b over n values.
void residual_forward(float* out, const float* a, const float* b, long n);
void residual_backward(float* da, float* db, const float* dout, long n);

// probs (N,V) = softmax(logits); losses (N) = −ln probs[target]. The mean over the N rows is the loss.
void crossentropy_forward(float* probs, float* losses, const float* logits, const std::int32_t* targets, int N, int V);
// dlogits (N,V) += (probs − onehot(target)) / N: the gradient of the mean loss.
void crossentropy_backward(float* dlogits, const float* probs, const std::int32_t* targets, int N, int V);

}  // namespace attnviz::train
