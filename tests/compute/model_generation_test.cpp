// The Decode view's generation worker: it shows what the core's Generator gives for the same
// model, text and edits; a failure or a cancel keeps the last generation shown, with the reason.

#include "app/compute/model_generation.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

namespace attnviz::compute {
namespace {

std::shared_ptr<const model::Model> open(const std::string& name) {
  return model::Model::open((std::filesystem::path(ATTNVIZ_TEST_MODELS) / name).string());
}

TEST(ModelGeneration, ShowsWhatTheCoreGenerates) {
  const auto llama = open("llama");
  ModelGeneration generation;
  model::ModelEdits edits;
  edits.head_factors[{0, 1}] = 0.0f;
  generation.start(llama, "the cat sat", edits, 4);
  generation.wait();
  ASSERT_NE(generation.result(), nullptr) << generation.error();
  EXPECT_EQ(generation.model(), llama.get());
  EXPECT_EQ(generation.text(), "the cat sat");
  EXPECT_EQ(generation.generation(), 1u);
  model::GenerateOptions options;
  options.max_new_tokens = 4;
  options.edits = edits;
  const model::Generation direct =
      model::Generator(*llama).run(llama->tokenizer().encode("the cat sat", "test"), options);
  EXPECT_EQ(generation.result()->ids(), direct.ids());
  EXPECT_EQ(generation.result()->steps.back().layers[1].weights, direct.steps.back().layers[1].weights);
  EXPECT_FALSE(generation.busy());
}

TEST(ModelGeneration, ATextThatFillsThePositionsIsRefusedInTheWindowsWords) {
  ModelGeneration generation;
  std::string text;
  for (int i = 0; i < 16; ++i) text += "the cat ";  // 33 tokens (the last space one), 32 positions
  generation.start(open("gpt2"), text, {}, 2);
  generation.wait();
  EXPECT_EQ(generation.result(), nullptr);
  EXPECT_EQ(generation.error(),
            "The text makes 33 tokens, which fill the model's 32 positions: no room to generate; use a shorter text");
}

TEST(ModelGeneration, AFailureOrACancelKeepsTheLastGeneration) {
  ModelGeneration generation;
  generation.start(open("gpt2"), "the cat", {}, 2);
  generation.wait();
  ASSERT_NE(generation.result(), nullptr);
  const std::vector<int> shown = generation.result()->ids();

  generation.start(open("bert"), "the cat", {}, 2);
  generation.wait();
  EXPECT_NE(generation.error().find("architecture"), std::string::npos) << generation.error();
  EXPECT_EQ(generation.result()->ids(), shown);

  generation.start(open("llama"), "the cat sat on the mat", {}, 40);
  generation.cancel();
  (void)generation.poll();
  ASSERT_NE(generation.result(), nullptr);  // the last one, or the new one whole: never a part
  if (generation.error() == "cancelled") {
    EXPECT_EQ(generation.result()->ids(), shown);
  } else {  // it finished before the stop: shown whole, with its reason to stop
    EXPECT_EQ(generation.error(), "");
    EXPECT_TRUE(generation.result()->steps.size() == 40u || generation.result()->stop != model::StopReason::Tokens);
  }

  generation.clear();
  EXPECT_EQ(generation.result(), nullptr);
}

}  // namespace
}  // namespace attnviz::compute
