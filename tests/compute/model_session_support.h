#pragma once
// Shared by the model session's tests: the tiny generated models (tests/model's fixture writes
// them) and what the core computes for them on Eigen, independently of the session.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "core/cpu/cpu_backend.h"
#include "core/model/forward.h"
#include "core/model/model.h"

namespace attnviz::compute::model_session_support {

inline const std::string kText = "the cat sat on the mat";

inline std::string gpt2() { return (std::filesystem::path(ATTNVIZ_TEST_MODELS) / "gpt2").string(); }
inline std::string llama() { return (std::filesystem::path(ATTNVIZ_TEST_MODELS) / "llama").string(); }

// What the core computes for these edits on Eigen, independently of the session.
inline model::ForwardResult direct(const std::string& path, const model::ModelEdits& edits) {
  const auto model = model::Model::open(path);
  const auto backend = make_cpu_backend();
  model::ForwardPass pass(*model, *backend);
  model::ForwardOptions options;
  options.edits = edits;
  return pass.run(model->tokenizer().encode(kText, "test"), options);
}

// The largest difference between two weight matrices (a recompute from a layer may sum in
// another order than a fresh pass: float32 rounding, far below the 1e-5 the references use).
inline double largest_difference(const Matrix& a, const Matrix& b) {
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.cols, b.cols);
  double largest = a.data.size() == b.data.size() ? 0.0 : 1.0;
  for (std::size_t i = 0; i < std::min(a.data.size(), b.data.size()); ++i) {
    largest = std::max(largest, static_cast<double>(std::abs(a.data[i] - b.data[i])));
  }
  return largest;
}

// The largest |value| of a matrix.
inline double largest_magnitude(const Matrix& m) {
  double largest = 0.0;
  for (const float v : m.data) largest = std::max(largest, static_cast<double>(std::abs(v)));
  return largest;
}

// Every kept layer's scores, weights and context, and the next tokens, within `tolerance` as
// the backends' agreement rule reads it (core/attention/compare.h): absolute within ±1, relative
// to the matrix's largest value beyond (raw scores grow, and with them float32 rounding: a
// machine with other vector units sums in another order).
inline void expect_same(const model::ForwardResult& got, const model::ForwardResult& want, double tolerance = 1e-5) {
  const auto within = [tolerance](const Matrix& m) { return tolerance * std::max(1.0, largest_magnitude(m)); };
  ASSERT_EQ(got.layers.size(), want.layers.size());
  for (std::size_t l = 0; l < got.layers.size(); ++l) {
    ASSERT_EQ(got.layers[l].attention.heads.size(), want.layers[l].attention.heads.size());
    for (std::size_t h = 0; h < got.layers[l].attention.heads.size(); ++h) {
      const HeadResult& a = got.layers[l].attention.heads[h];
      const HeadResult& b = want.layers[l].attention.heads[h];
      EXPECT_LE(largest_difference(a.scores, b.scores), within(b.scores)) << "scores, layer " << l << " head " << h;
      EXPECT_LE(largest_difference(a.weights, b.weights), within(b.weights)) << "weights, layer " << l << " head " << h;
      EXPECT_LE(largest_difference(a.context, b.context), within(b.context)) << "context, layer " << l << " head " << h;
    }
  }
  ASSERT_EQ(got.next_tokens.size(), want.next_tokens.size());
  for (std::size_t i = 0; i < got.next_tokens.size(); ++i) {
    EXPECT_EQ(got.next_tokens[i].id, want.next_tokens[i].id);
    EXPECT_NEAR(got.next_tokens[i].p, want.next_tokens[i].p, tolerance);
  }
}

}  // namespace attnviz::compute::model_session_support
