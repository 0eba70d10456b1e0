#include "core/train/layers.h"

#include <algorithm>
#include <cmath>

#include "core/train/eigen_maps.h"

namespace attnviz::train {
namespace {

constexpr float kLayerNormEps = 1e-5f;
// Below this many values a loop runs on one thread: a parallel region costs a barrier, and on a
// machine shared with other work a barrier waits for a descheduled thread (measured: 2 threads
// 8× slower than 1 on a small model under load).
constexpr long kParallelValues = 1L << 16;
bool worth_threads(long values) { return values >= kParallelValues; }
constexpr float kGeluScale = 0.7978845608028654f;  // √(2/π)
constexpr float kGeluCube = 0.044715f;

}  // namespace

void embedding_forward(float* out, const std::int32_t* ids, const float* wte, const float* wpe, int B, int T, int C) {
#pragma omp parallel for schedule(static) if (worth_threads(static_cast <long>(B) * T * C))
  for (int row = 0; row < B * T; ++row) {
    const int t = row % T;
    VectorView(out + static_cast<long>(row) * C, C) =
        ConstVectorView(wte + static_cast<long>(ids[row]) * C, C) + ConstVectorView(wpe + static_cast<long>(t) * C, C);
  }
}

void embedding_backward(float* dwte, float* dwpe, const float* dout, const std::int32_t* ids, int B, int T, int C) {
  // Serial: two rows of one batch may hold the same token, and B·T·C additions are cheap.
  for (int row = 0; row < B * T; ++row) {
    const ConstVectorView d(dout + static_cast<long>(row) * C, C);
    VectorView(dwte + static_cast<long>(ids[row]) * C, C) += d;
    VectorView(dwpe + static_cast<long>(row % T) * C, C) += d;
  }
}

void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* w, const float* b, int N,
                       int C) {
  const ConstVectorView weight(w, C);
  const ConstVectorView bias(b, C);
#pragma omp parallel for schedule(static) if (worth_threads(static_cast <long>(N) * C))
  for (int row = 0; row < N; ++row) {
    const ConstVectorView x(inp + static_cast<long>(row) * C, C);
    const float m = x.mean();
    const float variance = (x.array() - m).square().mean();
    const float s = 1.0f / std::sqrt(variance + kLayerNormEps);
    VectorView(out + static_cast<long>(row) * C, C) = ((x.array() - m) * s * weight.array() + bias.array()).matrix();
    mean[row] = m;
    rstd[row] = s;
  }
}

void layernorm_backward(float* dinp, float* dw, float* db, const float* dout, const float* inp, const float* w,
                        const float* mean, const float* rstd, int N, int C) {
  // 1. dinp, row by row: dx = (dn − mean(dn) − n·mean(dn·n))·rstd with n the normalised row,
  // dn = w·dout (scalar loops: no temporary rows, so nothing is allocated).
#pragma omp parallel for schedule(static) if (worth_threads(static_cast <long>(N) * C))
  for (int row = 0; row < N; ++row) {
    const long at = static_cast<long>(row) * C;
    float dnorm_mean = 0.0f;
    float dnorm_norm_mean = 0.0f;
    for (int c = 0; c < C; ++c) {
      const float norm = (inp[at + c] - mean[row]) * rstd[row];
      const float dnorm = w[c] * dout[at + c];
      dnorm_mean += dnorm;
      dnorm_norm_mean += dnorm * norm;
    }
    dnorm_mean /= static_cast<float>(C);
    dnorm_norm_mean /= static_cast<float>(C);
    for (int c = 0; c < C; ++c) {
      const float norm = (inp[at + c] - mean[row]) * rstd[row];
      const float dnorm = w[c] * dout[at + c];
      dinp[at + c] += (dnorm - dnorm_mean - norm * dnorm_norm_mean) * rstd[row];
    }
  }
  // 2. dw and db, column by column (rows would race on them).
#pragma omp parallel for schedule(static) if (worth_threads(static_cast <long>(N) * C))
  for (int c = 0; c < C; ++c) {
    float dw_c = 0.0f;
    float db_c = 0.0f;
    for (int row = 0; row < N; ++row) {
      const long at = static_cast<long>(row) * C + c;
      dw_c += (inp[at] - mean[row]) * rstd[row] * dout[at];
      db_c += dout[at];
    }
    dw[c] += dw_c;
    db[c] += db_c;
  }
}

void matmul_forward(float* out, const float* inp, const float* w, const float* b, int N, int C, int OC) {
  MatrixView y(out, N, OC);
  y.noalias() = ConstMatrixView(inp, N, C) * ConstMatrixView(w, C, OC);
  if (b != nullptr) y.rowwise() += ConstVectorView(b, OC);
}

void matmul_backward(float* dinp, float* dw, float* db, const float* dout, const float* inp, const float* w, int N,
                     int C, int OC) {
  const ConstMatrixView dy(dout, N, OC);
  MatrixView(dinp, N, C).noalias() += dy * ConstMatrixView(w, C, OC).transpose();
  MatrixView(dw, C, OC).noalias() += ConstMatrixView(inp, N, C).transpose() * dy;
  if (db != nullptr) VectorView(db, OC) += dy.colwise().sum();
}

void unembedding_forward(float* logits, const float* inp, const float* wte, int N, int C, int V) {
  MatrixView(logits, N, V).noalias() = ConstMatrixView(inp, N, C) * ConstMatrixView(wte, V, C).transpose();
}

void unembedding_backward(float* dinp, float* dwte, const float* dlogits, const float* inp, const float* wte, int N,
                          int C, int V) {
  const ConstMatrixView dy(dlogits, N, V);
  MatrixView(dinp, N, C).noalias() += dy * ConstMatrixView(wte, V, C);
  MatrixView(dwte, V, C).noalias() += dy.transpose() * ConstMatrixView(inp, N, C);
}

void attention_forward(float* out, float* att, const float* qkv, int B, int T, int C, int NH) {
  const int hs = C / NH;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
  const Eigen::OuterStride<> qkv_stride(3 * C);
#pragma omp parallel for schedule(static) if (worth_threads(static_cast <long>(B) * T * T * C))
  for (int bh = 0; bh < B * NH; ++bh) {
    const int b = bh / NH;
    const int h = bh % NH;
    const float* base = qkv + static_cast<long>(b) * T * 3 * C + h * hs;
    const ConstStridedView q(base, T, hs, qkv_stride);
    const ConstStridedView k(base + C, T, hs, qkv_stride);
    const ConstStridedView v(base + 2 * C, T, hs, qkv_stride);
    MatrixView weights(att + static_cast<long>(bh) * T * T, T, T);
    // 1. scores (T,T) = q·kᵀ/√hs; 2. a causal softmax per row (keys after the query get 0).
    weights.noalias() = q * k.transpose() * scale;
    for (int i = 0; i < T; ++i) {
      auto visible = weights.row(i).head(i + 1).array();
      visible = (visible - visible.maxCoeff()).exp();
      visible /= visible.sum();
      weights.row(i).tail(T - 1 - i).setZero();
    }
    // 3. out (T,hs) = weights·v, into this head's columns.
    StridedView(out + static_cast<long>(b) * T * C + h * hs, T, hs, Eigen::OuterStride<>(C)).noalias() = weights * v;
  }
}

void attention_backward(float* dqkv, float* scratch, const float* dout, const float* qkv, const float* att, int B,
                        int T, int C, int NH) {
  const int hs = C / NH;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
  const Eigen::OuterStride<> qkv_stride(3 * C);
#pragma omp parallel for schedule(static) if (worth_threads(static_cast <long>(B) * T * T * C))
  for (int bh = 0; bh < B * NH; ++bh) {
    const int b = bh / NH;
    const int h = bh % NH;
    const long qkv_at = static_cast<long>(b) * T * 3 * C + h * hs;
    const ConstStridedView q(qkv + qkv_at, T, hs, qkv_stride);
    const ConstStridedView k(qkv + qkv_at + C, T, hs, qkv_stride);
    const ConstStridedView v(qkv + qkv_at + 2 * C, T, hs, qkv_stride);
    StridedView dq(dqkv + qkv_at, T, hs, qkv_stride);
    StridedView dk(dqkv + qkv_at + C, T, hs, qkv_stride);
    StridedView dv(dqkv + qkv_at + 2 * C, T, hs, qkv_stride);
    const ConstStridedView dy(dout + static_cast<long>(b) * T * C + h * hs, T, hs, Eigen::OuterStride<>(C));
    const ConstMatrixView weights(att + static_cast<long>(bh) * T * T, T, T);
    MatrixView d(scratch + static_cast<long>(bh) * T * T, T, T);
    // 3. out = weights·v: dweights = dy·vᵀ, dv += weightsᵀ·dy.
    d.noalias() = dy * v.transpose();
    dv.noalias() += weights.transpose() * dy;
    // 2. softmax, row by row: dscores = w ⊙ (dw − Σ w⊙dw), scaled; 0 above the diagonal, as w.
    for (int i = 0; i < T; ++i) {
      const float row_dot = weights.row(i).dot(d.row(i));
      d.row(i) = (weights.row(i).array() * (d.row(i).array() - row_dot) * scale).matrix();
    }
    // 1. scores = q·kᵀ: dq += dscores·k, dk += dscoresᵀ·q.
    dq.noalias() += d * k;
    dk.noalias() += d.transpose() * q;
  }
}

namespace {

// glibc's scalar tanhf (through expm1f) was a third of a training step; Eigen's vectorised tanh is
// as exact in float32. Chunks of the stack's size: no allocation per step.
constexpr long kGeluChunk = 1024;
using GeluChunk = Eigen::Array<float, Eigen::Dynamic, 1, 0, kGeluChunk, 1>;
using ConstArrayView = Eigen::Map<const Eigen::ArrayXf>;
using ArrayView = Eigen::Map<Eigen::ArrayXf>;

void gelu_tanh_of(GeluChunk& tanh_out, const ConstArrayView& x) {
  tanh_out = (kGeluScale * (x + kGeluCube * x.cube())).tanh();
}

}  // namespace

void gelu_forward(float* out, const float* inp, long n) {
  const long chunks = (n + kGeluChunk - 1) / kGeluChunk;
#pragma omp parallel for schedule(static) if (worth_threads(n))
  for (long c = 0; c < chunks; ++c) {
    const long begin = c * kGeluChunk, count = std::min(kGeluChunk, n - begin);
    const ConstArrayView x(inp + begin, count);
    GeluChunk tanh_out(count);
    gelu_tanh_of(tanh_out, x);
    ArrayView(out + begin, count) = 0.5f * x * (1.0f + tanh_out);
  }
}

void gelu_backward(float* dinp, const float* inp, const float* dout, long n) {
  const long chunks = (n + kGeluChunk - 1) / kGeluChunk;
#pragma omp parallel for schedule(static) if (worth_threads(n))
  for (long c = 0; c < chunks; ++c) {
    const long begin = c * kGeluChunk, count = std::min(kGeluChunk, n - begin);
    const ConstArrayView x(inp + begin, count);
    GeluChunk tanh_out(count);
    gelu_tanh_of(tanh_out, x);
    const auto sech2 = 1.0f - tanh_out.square();
    const auto local =
        0.5f * (1.0f + tanh_out) + 0.5f * x * sech2 * kGeluScale * (1.0f + 3.0f * kGeluCube * x.square());
    ArrayView(dinp + begin, count) += local * ConstArrayView(dout + begin, count);
  }
}

void residual_forward(float* out, const float* a, const float* b, long n) {
#pragma omp parallel for schedule(static) if (worth_threads(n))
  for (long i = 0; i < n; ++i) out[i] = a[i] + b[i];
}

void residual_backward(float* da, float* db, const float* dout, long n) {
#pragma omp parallel for schedule(static) if (worth_threads(n))
  for (long i = 0; i < n; ++i) {
    da[i] += dout[i];
    db[i] += dout[i];
  }
}

void crossentropy_forward(float* probs, float* losses, const float* logits, const std::int32_t* targets, int N, int V) {
#pragma omp parallel for schedule(static) if (worth_threads(static_cast <long>(N) * V))
  for (int row = 0; row < N; ++row) {
    const long at = static_cast<long>(row) * V;
    const ConstVectorView z(logits + at, V);
    VectorView p(probs + at, V);
    const float max = z.maxCoeff();
    p = (z.array() - max).exp().matrix();
    const float sum = p.sum();
    p /= sum;
    losses[row] = std::log(sum) + max - z[targets[row]];  // −ln softmax(z)[target], without ln 0
  }
}

void crossentropy_backward(float* dlogits, const float* probs, const std::int32_t* targets, int N, int V) {
  const float per_row = 1.0f / static_cast<float>(N);
#pragma omp parallel for schedule(static) if (worth_threads(static_cast <long>(N) * V))
  for (int row = 0; row < N; ++row) {
    const long at = static_cast<long>(row) * V;
    VectorView(dlogits + at, V) += ConstVectorView(probs + at, V) * per_row;
    dlogits[at + targets[row]] -= per_row;
  }
}

}  // namespace attnviz::train
