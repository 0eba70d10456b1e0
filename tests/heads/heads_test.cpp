// core/heads' contract: head scores on hand-made weights, the repeated probe, the attribution
// summing to the logit, the lens ending at the model's prediction, patching a text with itself,
// one position patched against full passes that patch that row alone.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "core/common/error.h"
#include "core/cpu/cpu_backend.h"
#include "core/heads/attribution.h"
#include "core/heads/head_roles.h"
#include "core/heads/logit_lens.h"
#include "core/heads/patching.h"
#include "core/heads/unembedding.h"
#include "core/model/forward.h"

namespace attnviz::heads {
namespace {

std::unique_ptr<model::Model> open_test_model(const std::string& name) {
  return model::Model::open(std::string(ATTNVIZ_TEST_MODELS) + "/" + name);
}

model::ForwardResult run_with_stream(const model::Model& model, const tokenizers::Encoding& text) {
  const auto backend = make_cpu_backend();
  model::ForwardPass pass(model, *backend);
  model::ForwardOptions options;
  options.keep_stream = true;
  return pass.run(text, options);
}

TEST(HeadScores, AHeadOnThePreviousTokenScoresOneThereAndLooksOneBack) {
  const int n = 5;
  Matrix a(n, n);
  a.at(0, 0) = 1.0f;
  for (int i = 1; i < n; ++i) a.at(i, i - 1) = 1.0f;
  const HeadScores s = score_head(a, nullptr);
  EXPECT_DOUBLE_EQ(s.previous_token, 1.0);
  EXPECT_DOUBLE_EQ(s.self, 0.0);
  EXPECT_DOUBLE_EQ(s.first_token, 0.25);  // row 1's previous token is the first
  EXPECT_DOUBLE_EQ(s.entropy, 0.0);
  EXPECT_DOUBLE_EQ(s.mean_distance, 4.0 / 5.0);
  EXPECT_FALSE(s.induction.has_value());
}

TEST(HeadScores, UniformCausalRowsHaveTheEntropyOfTheirLength) {
  const int n = 4;
  Matrix a(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) a.at(i, j) = 1.0f / static_cast<float>(i + 1);
  const HeadScores s = score_head(a, nullptr);
  EXPECT_NEAR(s.entropy, (std::log(1.0) + std::log(2.0) + std::log(3.0) + std::log(4.0)) / 4.0, 1e-6);
  EXPECT_NEAR(s.mean_distance, (0.0 + 0.5 + 1.0 + 1.5) / 4.0, 1e-6);
}

TEST(HeadScores, InductionReadsTheTokenAfterTheEarlierCopy) {
  RepeatProbe probe{{7, 3, 4, 3, 4}, 1, 2};  // <s> a b a b
  Matrix a(5, 5);
  for (int i = 0; i < 5; ++i) a.at(i, i) = 1.0f;
  a.at(3, 3) = 0.0f;
  a.at(3, 2) = 1.0f;  // the second a looks at the first b: induction
  a.at(4, 4) = 0.0f;
  a.at(4, 2) = 1.0f;  // the second b looks at the first b: duplicate
  const HeadScores s = score_head(a, &probe);
  EXPECT_DOUBLE_EQ(*s.induction, 0.5);
  EXPECT_DOUBLE_EQ(*s.duplicate, 0.5);
}

TEST(RepeatProbe, LlamaStartsWithItsBeginningTokenThenTheSameRandomIdsTwice) {
  const auto model = open_test_model("llama");
  const RepeatProbe probe = make_repeat_probe(*model, 6, 11);
  ASSERT_EQ(probe.prefix, 1);
  ASSERT_EQ(probe.ids.size(), 13u);
  EXPECT_EQ(probe.ids[0], model->tokenizer().find("<s>"));
  for (int m = 0; m < 6; ++m) {
    EXPECT_EQ(probe.ids[static_cast<std::size_t>(7 + m)], probe.ids[static_cast<std::size_t>(1 + m)]);
    EXPECT_NE(probe.ids[static_cast<std::size_t>(1 + m)], model->tokenizer().find("<s>"));
  }
  EXPECT_EQ(make_repeat_probe(*model, 6, 11).ids, probe.ids);
  EXPECT_NE(make_repeat_probe(*model, 6, 12).ids, probe.ids);
}

TEST(RepeatProbe, AProbePastThePositionsIsRefusedNamingRepeat) {
  const auto model = open_test_model("gpt2");  // 32 positions
  try {
    (void)make_repeat_probe(*model, 17, 0);
    FAIL() << "a probe of 34 tokens was accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("--repeat"), std::string::npos) << error.what();
  }
}

class HeadsOnModels : public ::testing::TestWithParam<std::string> {};

TEST_P(HeadsOnModels, TheAttributionSumsToTheLogitOfTheModelsPrediction) {
  const auto model = open_test_model(GetParam());
  const auto text = model->tokenizer().encode("the cat sat on the mat", "--text");
  const model::ForwardResult result = run_with_stream(*model, text);
  const Attribution a = attribute_logit(*model, result, {});
  EXPECT_EQ(a.target, result.next_tokens.front().id);
  EXPECT_NEAR(a.logit, result.next_tokens.front().logit, 1e-4 * std::max(1.0, std::abs(a.logit)));
  double sum = 0.0;
  for (const AttributionPart& part : a.parts) sum += part.value;
  EXPECT_NEAR(sum, a.logit, 1e-4 * std::max(1.0, std::abs(a.logit)));
}

TEST_P(HeadsOnModels, TheLensLastLayerIsTheModelsOwnPrediction) {
  const auto model = open_test_model(GetParam());
  const auto text = model->tokenizer().encode("the cat sat on the mat", "--text");
  const model::ForwardResult result = run_with_stream(*model, text);
  const LogitLens lens = logit_lens(*model, result, 3);
  ASSERT_EQ(lens.cells.size(), static_cast<std::size_t>(model->config().num_layers) + 1);
  const LensCell& last = lens.cells.back().back();
  EXPECT_EQ(last.top.front().id, result.next_tokens.front().id);
  EXPECT_NEAR(last.top.front().p, result.next_tokens.front().p, 1e-5);
  EXPECT_FALSE(last.p_next.has_value());
  EXPECT_TRUE(lens.cells.front().front().rank_next.has_value());
}

TEST_P(HeadsOnModels, PatchingATextWithItselfChangesNothing) {
  const auto model = open_test_model(GetParam());
  const auto backend = make_cpu_backend();
  const auto text = model->tokenizer().encode("the cat sat on the mat", "--text");
  const Patching p = patch_every_head(*model, *backend, text, text, {});
  EXPECT_DOUBLE_EQ(p.clean_logit, p.corrupted_logit);
  for (const auto& layer : p.patched)
    for (const double logit : layer) EXPECT_NEAR(logit, p.clean_logit, 1e-5 * std::max(1.0, std::abs(logit)));
}

TEST(LogitLens, ATextLongerThanOneBlockOfRowsReadsEveryRowWhereItIs) {
  const auto model = open_test_model("llama");  // RoPE: no position table to run out of
  std::string words;
  for (int i = 0; i < 14; ++i) words += "the cat sat on the mat ";
  const auto text = model->tokenizer().encode(words, "--text");
  ASSERT_GT(text.ids.size(), 70u);
  const model::ForwardResult result = run_with_stream(*model, text);
  const LogitLens lens = logit_lens(*model, result, 1);
  for (const int position : {3, 63, 64, 70}) {
    const auto backend = make_cpu_backend();
    model::ForwardPass pass(*model, *backend);
    model::ForwardOptions options;
    options.query_position = position;
    const model::ForwardResult pinned = pass.run(text, options);
    const LensToken& top = lens.cells.back()[static_cast<std::size_t>(position)].top.front();
    EXPECT_EQ(top.id, pinned.query_tokens.front().id) << "position " << position;
    EXPECT_NEAR(top.p, pinned.query_tokens.front().p, 1e-5) << "position " << position;
  }
}

// The target's logit from a full pass over `clean` with head (l, h)'s context taken from
// `corrupted` at row p alone: what the one-position patching's rows rerun must equal.
double logit_with_one_row_patched(const model::Model& model, const tokenizers::Encoding& clean,
                                  const tokenizers::Encoding& corrupted, int l, int h, int p, const Patching& asked) {
  const auto backend = make_cpu_backend();
  model::ForwardOptions options;
  options.keep_stream = true;
  model::ForwardPass pass(model, *backend);
  const model::ResidualStream other = pass.run(corrupted, options).stream;
  const model::ResidualStream own = pass.run(clean, options).stream;
  const int dk = model.config().head_dim;
  Matrix context(static_cast<int>(clean.ids.size()), dk);
  for (int r = 0; r < context.rows; ++r) {
    const Matrix& from = (r == p ? other : own).contexts[static_cast<std::size_t>(l)];
    std::copy_n(from.row(r) + static_cast<long>(h) * dk, dk, context.row(r));
  }
  options.patched_heads = {{l, h, context}};
  const Matrix& last = pass.run(clean, options).stream.residuals.back();
  return target_logit(model, last.row(asked.position), asked.target);
}

TEST_P(HeadsOnModels, PatchingOnePositionEqualsFullPassesPatchingThatRowAlone) {
  const auto model = open_test_model(GetParam());
  const auto backend = make_cpu_backend();
  const auto clean = model->tokenizer().encode("the cat sat on the mat", "--text");
  const auto corrupted = model->tokenizer().encode("the mat sat on the cat", "--text");
  const int n = static_cast<int>(clean.ids.size());  // "cat" and "mat" at n - 5 and n - 1
  for (const auto& [position, patched] : {std::pair{n - 1, n - 1}, std::pair{n - 1, n - 5}, std::pair{n - 2, n - 5}}) {
    PatchingRequest request;
    request.position = position;
    request.patched_position = patched;
    const Patching p = patch_every_head(*model, *backend, clean, corrupted, request);
    EXPECT_EQ(p.patched_position, patched);
    double changed = 0.0;
    for (int l = 0; l < model->config().num_layers; ++l) {
      for (int h = 0; h < model->config().num_heads; ++h) {
        const double want = logit_with_one_row_patched(*model, clean, corrupted, l, h, patched, p);
        const double got = p.patched[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)];
        EXPECT_NEAR(got, want, 1e-5 * std::max(1.0, std::abs(want))) << "layer " << l << " head " << h;
        changed = std::max(changed, std::abs(got - p.clean_logit));
      }
    }
    EXPECT_GT(changed, 1e-4) << "patching position " << patched << " changes some head's logit";
  }
}

INSTANTIATE_TEST_SUITE_P(GptAndLlama, HeadsOnModels, ::testing::Values("gpt2", "llama"));

TEST(Patching, TextsOfDifferentLengthsAreRefusedWithBothLengths) {
  const auto model = open_test_model("gpt2");
  const auto backend = make_cpu_backend();
  const auto clean = model->tokenizer().encode("the cat sat on the mat", "--text");
  const auto corrupted = model->tokenizer().encode("the cat", "--text");
  try {
    (void)patch_every_head(*model, *backend, clean, corrupted, {});
    FAIL() << "texts of 6 and 2 tokens were patched";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("--corrupted-text"), std::string::npos) << message;
    EXPECT_NE(message.find("makes 2 tokens but --text makes 6 tokens"), std::string::npos) << message;
  }
}

TEST(Patching, APatchedPositionBeyondTheTextOrAfterTheTargetsIsRefusedNamingIt) {
  const auto model = open_test_model("gpt2");
  const auto backend = make_cpu_backend();
  const auto text = model->tokenizer().encode("the cat sat on the mat", "--text");
  for (const auto& [position, patched, words] : {std::tuple{std::optional<int>{}, 6, "beyond the text"},
                                                 std::tuple{std::optional<int>{2}, 3, "after the target position 2"}}) {
    PatchingRequest request;
    request.position = position;
    request.patched_position = patched;
    try {
      (void)patch_every_head(*model, *backend, text, text, request);
      FAIL() << "position " << patched << " was patched";
    } catch (const InputError& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find("--patch-positions"), std::string::npos) << message;
      EXPECT_NE(message.find(words), std::string::npos) << message;
    }
  }
}

TEST(Patching, BertPatchesOnePositionByFullPassesAndATextWithItselfChangesNothing) {
  const auto model = open_test_model("bert");
  const auto backend = make_cpu_backend();
  const auto text = model->tokenizer().encode("the cat sat", "--text");
  PatchingRequest request;
  request.patched_position = 1;
  const Patching p = patch_every_head(*model, *backend, text, text, request);
  for (const auto& layer : p.patched)
    for (const double logit : layer) EXPECT_NEAR(logit, p.clean_logit, 1e-5 * std::max(1.0, std::abs(logit)));
}

TEST(Patching, TheEditsApplyToEveryRunSoASwitchedOffHeadHasNothingToPatch) {
  const auto model = open_test_model("llama");
  const auto backend = make_cpu_backend();
  const auto clean = model->tokenizer().encode("the cat sat on the mat", "--text");
  const auto corrupted = model->tokenizer().encode("the mat sat on the cat", "--text");
  PatchingRequest request;
  request.edits.head_factors[{1, 2}] = 0.0f;
  const Patching p = patch_every_head(*model, *backend, clean, corrupted, request);
  EXPECT_NEAR(p.patched[1][2], p.clean_logit, 1e-5 * std::max(1.0, std::abs(p.clean_logit)));
  EXPECT_GT(std::abs(p.patched[1][1] - p.clean_logit), 1e-4);  // a head left on does change it
}

TEST(Patching, TheLongerTextIsCutToTheShortersLengthInTokens) {
  const auto model = open_test_model("gpt2");
  const tokenizers::Tokenizer& tokenizer = model->tokenizer();
  const std::string text = "the cat sat on the mat";
  const std::size_t n = tokenizer.encode(text, "--text").ids.size();
  ASSERT_GT(n, 3u);
  const std::string cut = text_cut_to_tokens(tokenizer, text, 3);
  EXPECT_EQ(tokenizer.encode(cut, "--text").ids.size(), 3u) << cut;
  EXPECT_TRUE(text.starts_with(cut)) << cut;
  EXPECT_EQ(text_cut_to_tokens(tokenizer, text, static_cast<int>(n)), text);               // already that short: whole
  EXPECT_EQ(text_cut_to_tokens(tokenizer, "\xED\x95\x9C\xEA\xB8\x80", 1).size() % 3, 0u);  // whole characters
}

TEST(Attribution, BertIsRefusedSayingWhy) {
  const auto model = open_test_model("bert");
  const auto text = model->tokenizer().encode("the cat sat", "--text");
  const model::ForwardResult result = run_with_stream(*model, text);
  EXPECT_THROW((void)attribute_logit(*model, result, {}), InputError);
}

}  // namespace
}  // namespace attnviz::heads
