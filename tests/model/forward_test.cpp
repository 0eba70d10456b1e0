// The forward pass's contract for the window: edits, recomputing from a layer, layer choice,
// rollout, cancellation. The numbers themselves are held to the float64 reference by
// tests/reference/check_models.py.

#include "core/model/forward.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "core/cpu/cpu_backend.h"
#include "core/model/cancelled.h"
#include "core/model/rollout_export.h"
#include "tests/model/test_files.h"

namespace attnviz::model {
namespace {

using namespace testing;

class ForwardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = Model::open((test_models() / "llama").string());
    backend_ = make_cpu_backend();
    encoding_ = model_->tokenizer().encode("the cat sat on the mat", "--text");
  }
  ForwardResult run(const ForwardOptions& options) {
    ForwardPass pass(*model_, *backend_);
    return pass.run(encoding_, options);
  }
  std::unique_ptr<Model> model_;
  std::unique_ptr<Backend> backend_;
  tokenizers::Encoding encoding_;
};

double largest_difference(const ForwardResult& a, const ForwardResult& b) {
  double largest = 0.0;
  for (std::size_t l = 0; l < a.layers.size(); ++l) {
    for (std::size_t h = 0; h < a.layers[l].attention.heads.size(); ++h) {
      const auto& x = a.layers[l].attention.heads[h].weights.data;
      const auto& y = b.layers[l].attention.heads[h].weights.data;
      for (std::size_t i = 0; i < x.size(); ++i)
        largest = std::max(largest, static_cast<double>(std::abs(x[i] - y[i])));
    }
  }
  for (std::size_t i = 0; i < a.next_tokens.size(); ++i)
    largest = std::max(largest, std::abs(a.next_tokens[i].p - b.next_tokens[i].p));
  return largest;
}

TEST_F(ForwardTest, EveryLayerAndHeadIsKeptWithTopTokensBestFirst) {
  const ForwardResult r = run({});
  ASSERT_EQ(r.layers.size(), 2u);
  EXPECT_EQ(r.layers[1].attention.heads.size(), 4u);
  EXPECT_EQ(r.layers[0].attention.tokens.front(), "<s>");
  ASSERT_EQ(r.next_tokens.size(), 10u);
  for (std::size_t i = 1; i < r.next_tokens.size(); ++i) EXPECT_GE(r.next_tokens[i - 1].p, r.next_tokens[i].p);
}

TEST_F(ForwardTest, ChosenLayersAreKeptAndOthersComputedAlike) {
  ForwardOptions options;
  options.layers = std::vector<int>{1};
  const ForwardResult some = run(options);
  const ForwardResult all = run({});
  ASSERT_EQ(some.layers.size(), 1u);
  EXPECT_EQ(some.layers[0].layer, 1);
  EXPECT_EQ(some.layers[0].attention.heads[2].weights, all.layers[1].attention.heads[2].weights);
}

TEST_F(ForwardTest, AHeadOffChangesLaterLayersAndNotEarlierOnes) {
  ForwardOptions options;
  options.edits.head_factors[{0, 1}] = 0.0f;
  const ForwardResult edited = run(options);
  const ForwardResult plain = run({});
  EXPECT_EQ(edited.layers[0].attention.heads[1].weights, plain.layers[0].attention.heads[1].weights);
  EXPECT_NE(edited.layers[1].attention.heads[0].weights, plain.layers[1].attention.heads[0].weights);
  EXPECT_NE(edited.next_tokens[0].p, plain.next_tokens[0].p);
}

TEST_F(ForwardTest, NeutralEditsChangeNothing) {
  ForwardOptions options;
  options.edits.head_factors[{1, 2}] = 1.0f;
  options.edits.weights[{0, 3, Projection::Key}] = model_->head_weight(0, 3, Projection::Key);
  EXPECT_LT(largest_difference(run(options), run({})), 1e-6);
}

TEST_F(ForwardTest, RecomputingFromTheEditedLayerEqualsAFullRun) {
  ForwardPass pass(*model_, *backend_);
  (void)pass.run(encoding_, {});
  ForwardOptions options;
  Matrix wq = model_->head_weight(1, 0, Projection::Query);
  for (float& v : wq.data) v *= -2.0f;
  options.edits.weights[{1, 0, Projection::Query}] = wq;
  const ForwardResult recomputed = pass.rerun_from(options.edits.first_layer(model_->config().num_layers), options);
  const ForwardResult full = run(options);
  EXPECT_EQ(largest_difference(recomputed, full), 0.0);
  EXPECT_NE(full.layers[1].attention.heads[0].weights, run({}).layers[1].attention.heads[0].weights);
}

TEST_F(ForwardTest, AHandedOverResultIsNeverWrittenAndARerunAfterItEqualsAFullRun) {
  ForwardPass pass(*model_, *backend_);
  (void)pass.run(encoding_, {});
  const std::shared_ptr<const ForwardResult> shown = pass.share_result();
  EXPECT_EQ(pass.share_result(), shown) << "handed over once, not copied";
  EXPECT_TRUE(pass.result().layers.empty()) << "the pass keeps no copy";
  const ForwardResult before = *shown;
  ForwardOptions options;
  options.edits.head_factors[{1, 2}] = 0.0f;
  const ForwardResult recomputed = pass.rerun_from(1, options);
  EXPECT_EQ(largest_difference(recomputed, run(options)), 0.0);
  EXPECT_EQ(largest_difference(*shown, before), 0.0) << "the handed-over result stays as it was";
  EXPECT_EQ(shown->next_tokens[0].p, before.next_tokens[0].p);
  EXPECT_NE(recomputed.next_tokens[0].p, before.next_tokens[0].p);
  ForwardPass fresh(*model_, *backend_);
  EXPECT_THROW((void)fresh.share_result(), std::logic_error);
}

TEST_F(ForwardTest, AKeptLayersProblemGivesItsAttentionAgain) {
  // The window's step-by-step and tiled views read a layer through its Problem: computed again
  // it must be the layer exactly, and its x holds the kept queries.
  const ForwardResult r = run({});
  const Problem problem = layer_problem(model_->config(), r, 1);
  const Result again = backend_->compute(problem);
  const Result& kept = r.layers[1].attention;
  ASSERT_EQ(again.heads.size(), kept.heads.size());
  for (std::size_t h = 0; h < kept.heads.size(); ++h) {
    EXPECT_EQ(again.heads[h].weights, kept.heads[h].weights) << "head " << h;
    EXPECT_EQ(again.heads[h].context, kept.heads[h].context) << "head " << h;
  }
  const Matrix& q = r.layers[1].queries;
  ASSERT_EQ(q.rows, problem.n());
  EXPECT_EQ(q.cols, model_->config().num_heads * model_->config().head_dim);
  EXPECT_EQ(problem.x.at(2, 3), q.at(2, 3));
  EXPECT_EQ(problem.tokens, r.tokens);
  ForwardOptions first_only;
  first_only.layers = std::vector<int>{0};
  EXPECT_THROW((void)layer_problem(model_->config(), run(first_only), 1), std::invalid_argument);
}

TEST_F(ForwardTest, HeadsAveragedIsTheMeanOfEachCellAndRowsStillSumToOne) {
  const ForwardResult r = run({});
  const Result& layer = r.layers[1].attention;
  const Matrix mean = heads_averaged(layer);
  ASSERT_EQ(mean.rows, layer.heads[0].weights.rows);
  double cell = 0.0;
  for (const HeadResult& head : layer.heads) cell += head.weights.at(3, 1);
  EXPECT_NEAR(mean.at(3, 1), cell / static_cast<double>(layer.heads.size()), 1e-7);
  for (int i = 0; i < mean.rows; ++i) {
    double row = 0.0;
    for (int j = 0; j < mean.cols; ++j) row += mean.at(i, j);
    EXPECT_NEAR(row, 1.0, 1e-5) << "row " << i;
  }
}

TEST_F(ForwardTest, RolloutRowsAreDistributionsAndTheFirstLayerIsItsMixedAttention) {
  const ForwardResult r = run({});
  const Matrix rollout = attention_rollout(r, 1);
  for (int i = 0; i < rollout.rows; ++i) {
    double sum = 0.0;
    for (int j = 0; j < rollout.cols; ++j) sum += rollout.at(i, j);
    EXPECT_NEAR(sum, 1.0, 1e-6);
    for (int j = i + 1; j < rollout.cols; ++j) EXPECT_EQ(rollout.at(i, j), 0.0f);  // causal
  }
  ForwardOptions options;
  options.layers = std::vector<int>{1};
  EXPECT_THROW((void)attention_rollout(run(options), 1), std::invalid_argument);
}

// The command line and the window write the rollout through render_rollout: its files are named
// for it, hold its numbers, and are captioned as a rollout of the text.
TEST_F(ForwardTest, TheRolloutExportsAsItsOwnFigureAndNumbers) {
  const ForwardResult r = run({});
  const Matrix rollout = attention_rollout(r, 1);
  exporting::ExportRequest request;
  request.format = exporting::ExportFormat::Csv;
  request.what = {exporting::Quantity::Scores, exporting::Quantity::Context};  // the rollout's own, whatever was asked
  request.heads = std::vector<int>{3};
  const std::vector<exporting::ExportedFile> csv =
      render_rollout(rollout, r, model_->config(), "the cat sat on the mat", 1, request);
  ASSERT_EQ(csv.size(), 1u);
  EXPECT_EQ(csv.front().name, "rollout.csv");
  std::istringstream lines(csv.front().bytes);
  std::string line;
  std::getline(lines, line);  // the column tokens
  for (int i = 0; i < rollout.rows; ++i) {
    ASSERT_TRUE(std::getline(lines, line)) << "row " << i;
    std::istringstream cells(line);
    std::string cell;
    std::getline(cells, cell, ',');  // the row's token
    for (int j = 0; j < rollout.cols; ++j) {
      ASSERT_TRUE(std::getline(cells, cell, ',')) << i << ", " << j;
      EXPECT_NEAR(std::stod(cell), rollout.at(i, j), 1e-6) << i << ", " << j;
    }
  }
  request.format = exporting::ExportFormat::Svg;
  const std::vector<exporting::ExportedFile> svg =
      render_rollout(rollout, r, model_->config(), "the cat sat", 1, request);
  ASSERT_EQ(svg.size(), 1u);
  EXPECT_EQ(svg.front().name, "rollout.svg");
  EXPECT_THAT(svg.front().bytes, ::testing::HasSubstr("Attention rollout \xC2\xB7 the cat sat"));
  EXPECT_THAT(svg.front().bytes, ::testing::HasSubstr("rollout through layers 0\xE2\x80\x93"
                                                      "1"));
  request.format = exporting::ExportFormat::Npy;
  EXPECT_EQ(render_rollout(rollout, r, model_->config(), "the cat sat", 1, request).front().name, "rollout.npy");
  EXPECT_THROW((void)render_rollout(rollout, ForwardResult{}, model_->config(), "x", 1, request),
               std::invalid_argument);
}

TEST_F(ForwardTest, BadLayersQueriesAndEditsAreBadInput) {
  ForwardOptions layers;
  layers.layers = std::vector<int>{2};
  EXPECT_EQ(input_error([&] { (void)run(layers); }).pointer(), "--layers");
  ForwardOptions query;
  query.query_position = 99;
  EXPECT_EQ(input_error([&] { (void)run(query); }).pointer(), "--query");
  ForwardOptions edit;
  edit.edits.weights[{0, 0, Projection::Query}] = Matrix(3, 3);
  EXPECT_EQ(input_error([&] { (void)run(edit); }).pointer(), "weights");
}

TEST_F(ForwardTest, CancellingStopsBetweenLayers) {
  std::stop_source stop;
  ForwardOptions options;
  options.stop = stop.get_token();
  options.progress = [&](const Progress& p) {
    if (p.stage.starts_with("layer 2")) stop.request_stop();
  };
  EXPECT_THROW((void)run(options), Cancelled);
}

TEST(ForwardBert, ThePinnedQueryIsTheMaskAndTokenTypesFollowTheSeparator) {
  const auto model = Model::open((test_models() / "bert").string());
  const auto backend = make_cpu_backend();
  const auto encoding = model->tokenizer().encode("the [MASK] sat [SEP] on the mat", "--text");
  ForwardPass pass(*model, *backend);
  const ForwardResult& r = pass.run(encoding, {});
  EXPECT_EQ(r.query_position, 2);
  EXPECT_EQ(r.query_tokens.size(), 10u);
  EXPECT_EQ(r.type_ids, (std::vector<int>{0, 0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_TRUE(r.layers[0].attention.masked_rows.empty());
  EXPECT_TRUE(r.layers[0].attention.mask.at(0, 8));  // bidirectional
}

}  // namespace
}  // namespace attnviz::model
