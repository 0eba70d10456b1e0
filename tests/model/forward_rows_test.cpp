// ForwardPass::rerun_rows against a full pass whose patch leaves every other row as it was: the
// same stream at the rerun rows for each of a layer's heads rerun together (GPT-2; the Llama's
// grouped-query heads and RoPE; the Mistral's sliding window of 3), the pass itself unchanged.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cpu/cpu_backend.h"
#include "core/model/forward.h"
#include "tests/model/test_files.h"

namespace attnviz::model {
namespace {

using namespace testing;

// Head h's context at layer l of the clean run with row p taken from `other`.
Matrix one_row_patched(const ResidualStream& clean, const ResidualStream& other, int l, int h, int p, int dk) {
  const Matrix& from = clean.contexts[static_cast<std::size_t>(l)];
  Matrix context(from.rows, dk);
  for (int r = 0; r < from.rows; ++r) {
    const Matrix& source = r == p ? other.contexts[static_cast<std::size_t>(l)] : from;
    std::copy_n(source.row(r) + static_cast<long>(h) * dk, dk, context.row(r));
  }
  return context;
}

// The largest difference between rows [first, end) of two streams, relative to their largest value.
double relative_difference(const Matrix& a, const Matrix& b, int first, int end) {
  double largest = 0.0, scale = 1.0;
  for (int r = first; r < end; ++r) {
    for (int j = 0; j < a.cols; ++j) {
      largest = std::max(largest, static_cast<double>(std::abs(a.at(r, j) - b.at(r, j))));
      scale = std::max(scale, static_cast<double>(std::abs(b.at(r, j))));
    }
  }
  return largest / scale;
}

Matrix rows_of_text(const Matrix& m, int first, int end) {
  Matrix out(end - first, m.cols);
  std::copy_n(m.row(first), out.data.size(), out.data.begin());
  return out;
}

class RowsRerun : public ::testing::TestWithParam<std::string> {};

TEST_P(RowsRerun, EqualsAFullPassPatchingOneRowForEveryLayerHeadAndRow) {
  const auto model = Model::open((test_models() / GetParam()).string());
  const auto backend = make_cpu_backend();
  const ModelConfig& c = model->config();
  const auto clean = model->tokenizer().encode("the cat sat on the mat the cat sat", "--text");
  const auto other = model->tokenizer().encode("the mat sat on the cat the mat sat", "--text");
  ASSERT_EQ(clean.ids.size(), other.ids.size());
  const int n = static_cast<int>(clean.ids.size());
  ForwardOptions options;
  options.layers.emplace();
  options.keep_stream = true;
  options.predict = false;
  ForwardPass full(*model, *backend);
  const ResidualStream other_stream = full.run(other, options).stream;
  const ResidualStream clean_stream = full.run(clean, options).stream;
  ForwardOptions rows_options = options;
  rows_options.keep_keys_values = true;
  rows_options.keep_stream = false;
  ForwardPass pass(*model, *backend);
  (void)pass.run(clean, rows_options);
  const Matrix unpatched = pass.rerun_rows(0, n - 1, n, {{}}, rows_options);
  for (const int p : {n - 1, n / 2, n - 8}) {  // the first "cat" / "mat" at n - 8; the contexts differ after it
    const int end = p == n / 2 ? n - 2 : n;    // stopping short of the text as well
    const int rows = end - p;
    double changed = 0.0;
    for (int l = 0; l < c.num_layers; ++l) {
      std::vector<std::vector<HeadPatch>> variants;
      for (int h = 0; h < c.num_heads; ++h)
        variants.push_back({{l, h, one_row_patched(clean_stream, other_stream, l, h, p, c.head_dim)}});
      const Matrix together = pass.rerun_rows(l, p, end, variants, rows_options);
      ASSERT_EQ(together.rows, c.num_heads * rows);
      for (int h = 0; h < c.num_heads; ++h) {
        options.patched_heads = variants[static_cast<std::size_t>(h)];
        const Matrix& want = full.run(clean, options).stream.residuals.back();
        Matrix got(n, c.d_model);  // the variant's rows where they are in the text
        std::copy_n(together.row(h * rows), rows * c.d_model, got.row(p));
        EXPECT_LT(relative_difference(got, want, p, end), 1e-5) << "layer " << l << " head " << h << " row " << p;
        changed = std::max(changed, relative_difference(clean_stream.residuals.back(), want, p, end));
      }
    }
    EXPECT_GT(changed, 1e-4) << "patching row " << p << " changes the stream";
  }
  EXPECT_EQ(pass.rerun_rows(0, n - 1, n, {{}}, rows_options).data, unpatched.data) << "the pass is as it was";
  EXPECT_LT(relative_difference(unpatched, rows_of_text(clean_stream.residuals.back(), n - 1, n), 0, 1), 1e-5)
      << "no patch: the run's own last row";
}

INSTANTIATE_TEST_SUITE_P(DecoderModels, RowsRerun, ::testing::Values("gpt2", "llama", "mistral"));

TEST(RowsRerunRefused, WithoutKeptKeysAndValuesForAnEncoderAndOutsideTheText) {
  const auto backend = make_cpu_backend();
  const auto llama = Model::open((test_models() / "llama").string());
  const auto text = llama->tokenizer().encode("the cat sat", "--text");
  ForwardPass pass(*llama, *backend);
  (void)pass.run(text, {});
  EXPECT_THROW((void)pass.rerun_rows(0, 1, 2, {{}}, {}), std::logic_error);
  ForwardOptions keep;
  keep.keep_keys_values = true;
  (void)pass.run(text, keep);
  const int n = static_cast<int>(text.ids.size());
  EXPECT_THROW((void)pass.rerun_rows(0, 1, n + 1, {{}}, keep), std::out_of_range);
  EXPECT_THROW((void)pass.rerun_rows(llama->config().num_layers, 0, 1, {{}}, keep), std::out_of_range);
  EXPECT_NO_THROW((void)pass.rerun_rows(0, n - 1, n, {{}}, keep));
  const auto bert = Model::open((test_models() / "bert").string());
  ForwardPass encoder(*bert, *backend);
  (void)encoder.run(bert->tokenizer().encode("the cat sat", "--text"), keep);
  EXPECT_THROW((void)encoder.rerun_rows(0, 1, 2, {{}}, keep), std::logic_error);
}

}  // namespace
}  // namespace attnviz::model
