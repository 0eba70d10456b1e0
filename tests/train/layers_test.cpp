// Each layer kind's backward (core/train/layers.h) against finite differences of its forward.

#include "core/train/layers.h"

#include <gtest/gtest.h>

#include "tests/train/finite_differences.h"

namespace attnviz::train {
namespace {

using testing::dot;
using testing::expect_finite_differences;
using testing::random_values;

constexpr int B = 2, T = 5, C = 8, NH = 2, N = B * T;

class LayerGradients : public ::testing::Test {
 protected:
  std::mt19937 rng{42};
};

TEST_F(LayerGradients, Embedding) {
  constexpr int V = 7;
  const std::vector<std::int32_t> ids = {1, 3, 3, 0, 6, 2, 1, 1, 5, 4};  // repeated ids gather both rows' gradients
  std::vector<float> wte = random_values(V * C, rng), wpe = random_values(T * C, rng), out(N * C);
  const std::vector<float> r = random_values(out.size(), rng);
  const auto loss = [&] {
    embedding_forward(out.data(), ids.data(), wte.data(), wpe.data(), B, T, C);
    return dot(out, r);
  };
  std::vector<float> dwte(wte.size()), dwpe(wpe.size());
  embedding_backward(dwte.data(), dwpe.data(), r.data(), ids.data(), B, T, C);
  expect_finite_differences(wte, dwte, loss, "dwte");
  expect_finite_differences(wpe, dwpe, loss, "dwpe");
}

TEST_F(LayerGradients, LayerNorm) {
  std::vector<float> inp = random_values(N * C, rng, 2.0f), w = random_values(C, rng), b = random_values(C, rng);
  std::vector<float> out(N * C), mean(N), rstd(N);
  const std::vector<float> r = random_values(out.size(), rng);
  const auto loss = [&] {
    layernorm_forward(out.data(), mean.data(), rstd.data(), inp.data(), w.data(), b.data(), N, C);
    return dot(out, r);
  };
  loss();
  std::vector<float> dinp(inp.size()), dw(C), db(C);
  layernorm_backward(dinp.data(), dw.data(), db.data(), r.data(), inp.data(), w.data(), mean.data(), rstd.data(), N, C);
  expect_finite_differences(inp, dinp, loss, "dinp");
  expect_finite_differences(w, dw, loss, "dw");
  expect_finite_differences(b, db, loss, "db");
}

TEST_F(LayerGradients, MatmulInConv1DLayout) {
  constexpr int OC = 12;
  std::vector<float> inp = random_values(N * C, rng), w = random_values(C * OC, rng), b = random_values(OC, rng);
  std::vector<float> out(N * OC);
  const std::vector<float> r = random_values(out.size(), rng);
  const auto loss = [&] {
    matmul_forward(out.data(), inp.data(), w.data(), b.data(), N, C, OC);
    return dot(out, r);
  };
  std::vector<float> dinp(inp.size()), dw(w.size()), db(OC);
  matmul_backward(dinp.data(), dw.data(), db.data(), r.data(), inp.data(), w.data(), N, C, OC);
  expect_finite_differences(inp, dinp, loss, "dinp");
  expect_finite_differences(w, dw, loss, "dw");
  expect_finite_differences(b, db, loss, "db");
}

TEST_F(LayerGradients, TiedUnembedding) {
  constexpr int V = 9;
  std::vector<float> inp = random_values(N * C, rng), wte = random_values(V * C, rng), logits(N * V);
  const std::vector<float> r = random_values(logits.size(), rng);
  const auto loss = [&] {
    unembedding_forward(logits.data(), inp.data(), wte.data(), N, C, V);
    return dot(logits, r);
  };
  std::vector<float> dinp(inp.size()), dwte(wte.size());
  unembedding_backward(dinp.data(), dwte.data(), r.data(), inp.data(), wte.data(), N, C, V);
  expect_finite_differences(inp, dinp, loss, "dinp");
  expect_finite_differences(wte, dwte, loss, "dwte");
}

TEST_F(LayerGradients, CausalAttention) {
  std::vector<float> qkv = random_values(N * 3 * C, rng), out(N * C), att(B * NH * T * T);
  const std::vector<float> r = random_values(out.size(), rng);
  const auto loss = [&] {
    attention_forward(out.data(), att.data(), qkv.data(), B, T, C, NH);
    return dot(out, r);
  };
  loss();
  std::vector<float> dqkv(qkv.size()), scratch(att.size());
  attention_backward(dqkv.data(), scratch.data(), r.data(), qkv.data(), att.data(), B, T, C, NH);
  expect_finite_differences(qkv, dqkv, loss, "dqkv", 200);
}

TEST_F(LayerGradients, AttentionIsCausal) {
  std::vector<float> qkv = random_values(N * 3 * C, rng), out(N * C), att(B * NH * T * T);
  attention_forward(out.data(), att.data(), qkv.data(), B, T, C, NH);
  for (std::size_t bh = 0; bh < B * NH; ++bh) {
    for (std::size_t i = 0; i < T; ++i) {
      double row = 0.0;
      for (std::size_t j = 0; j < T; ++j) {
        const float w = att[(bh * T + i) * T + j];
        if (j > i) {
          EXPECT_EQ(w, 0.0f);
        }
        row += w;
      }
      EXPECT_NEAR(row, 1.0, 1e-6);
    }
  }
}

TEST_F(LayerGradients, Gelu) {
  std::vector<float> inp = random_values(N * C, rng, 2.0f), out(inp.size());
  const std::vector<float> r = random_values(out.size(), rng);
  const auto loss = [&] {
    gelu_forward(out.data(), inp.data(), static_cast<long>(inp.size()));
    return dot(out, r);
  };
  std::vector<float> dinp(inp.size());
  gelu_backward(dinp.data(), inp.data(), r.data(), static_cast<long>(inp.size()));
  expect_finite_differences(inp, dinp, loss, "dinp", 80);
}

TEST_F(LayerGradients, Residual) {
  std::vector<float> a = random_values(N * C, rng), b = random_values(N * C, rng), out(a.size());
  const std::vector<float> r = random_values(out.size(), rng);
  const auto loss = [&] {
    residual_forward(out.data(), a.data(), b.data(), static_cast<long>(a.size()));
    return dot(out, r);
  };
  std::vector<float> da(a.size()), db(b.size());
  residual_backward(da.data(), db.data(), r.data(), static_cast<long>(a.size()));
  expect_finite_differences(a, da, loss, "da");
  expect_finite_differences(b, db, loss, "db");
}

TEST_F(LayerGradients, CrossEntropyOfTheMean) {
  constexpr int V = 11;
  std::vector<float> logits = random_values(N * V, rng, 3.0f), probs(logits.size()), losses(N);
  const std::vector<std::int32_t> targets = {0, 3, 10, 5, 5, 1, 2, 9, 8, 7};
  const auto loss = [&] {
    crossentropy_forward(probs.data(), losses.data(), logits.data(), targets.data(), N, V);
    double sum = 0.0;
    for (const float l : losses) sum += l;
    return sum / N;
  };
  loss();
  std::vector<float> dlogits(logits.size());
  crossentropy_backward(dlogits.data(), probs.data(), targets.data(), N, V);
  expect_finite_differences(logits, dlogits, loss, "dlogits", 110);
}

}  // namespace
}  // namespace attnviz::train
