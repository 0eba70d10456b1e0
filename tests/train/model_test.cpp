// The whole model (core/train/gpt2.h): its gradient against finite differences, its
// initialisation, and the folder it writes opened by core/model with the same forward pass.

#include "core/model/model.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "core/cpu/cpu_backend.h"
#include "core/model/forward.h"
#include "core/train/checkpoint.h"
#include "core/train/gpt2.h"
#include "tests/train/finite_differences.h"

namespace attnviz::train {
namespace {

namespace fs = std::filesystem;

constexpr ModelShape kShape{.layers = 2, .heads = 2, .d_model = 8, .positions = 6, .vocab = 256};
constexpr int kBatch = 2;

std::vector<std::int32_t> ids(std::mt19937& rng) {
  std::vector<std::int32_t> v(kBatch * kShape.positions);
  std::uniform_int_distribution<int> token(0, kShape.vocab - 1);
  for (auto& id : v) id = token(rng);
  return v;
}

// An MLP of another width than 4·C (an --init model's n_inner) is differentiated as well.
void expect_gradient_matches_finite_differences(const ModelShape& shape) {
  std::mt19937 rng(3);
  Gpt2 model(shape, kBatch, shape.positions);
  model.initialise(5);
  // Larger weights than GPT-2's 0.02 so that every path carries a gradient well above rounding.
  for (float& w : model.parameters()) w += std::normal_distribution<float>(0.0f, 0.3f)(rng);
  const std::vector<std::int32_t> inputs = ids(rng), targets = ids(rng);
  model.zero_gradients();
  model.forward(inputs, targets);
  model.backward();
  const std::vector<float> analytic(model.gradients().begin(), model.gradients().end());
  std::vector<float> weights(model.parameters().begin(), model.parameters().end());
  for (const TensorSpec& spec : model.layout()) {
    std::vector<float> tensor(weights.begin() + static_cast<long>(spec.offset),
                              weights.begin() + static_cast<long>(spec.offset + spec.size));
    const std::vector<float> grad(analytic.begin() + static_cast<long>(spec.offset),
                                  analytic.begin() + static_cast<long>(spec.offset + spec.size));
    const auto loss = [&] {
      std::copy(tensor.begin(), tensor.end(), model.parameters().begin() + static_cast<long>(spec.offset));
      return static_cast<double>(model.forward(inputs, targets));
    };
    testing::expect_finite_differences(tensor, grad, loss, spec.name, 8);
    loss();  // the tensor as it was
  }
}

TEST(Gpt2Model, GradientMatchesFiniteDifferencesInEveryTensor) { expect_gradient_matches_finite_differences(kShape); }

TEST(Gpt2Model, GradientMatchesFiniteDifferencesWithAnotherMlpWidth) {
  ModelShape narrow = kShape;
  narrow.mlp_width = 3 * kShape.d_model;
  expect_gradient_matches_finite_differences(narrow);
}

TEST(Gpt2Model, TheMemoryCheckCountsTheActivationsAsTheyAreMade) {
  ModelShape narrow = kShape;
  narrow.mlp_width = 20;
  for (const ModelShape& shape : {kShape, narrow}) {
    EXPECT_EQ(Activations::floats_for(shape, 3, 5), Activations(shape, 3, 5).floats());
  }
}

TEST(Gpt2Model, InitialisationIsGpt2s) {
  const ModelShape shape{.layers = 4, .heads = 4, .d_model = 64, .positions = 32, .vocab = 256};
  Gpt2 model(shape, 1, 32);
  model.initialise(1);
  const float residual_std = 0.02f / std::sqrt(8.0f);
  for (const TensorSpec& spec : model.layout()) {
    const auto values = model.parameters().subspan(spec.offset, spec.size);
    double sum = 0.0, squares = 0.0;
    for (const float v : values) {
      sum += v;
      squares += static_cast<double>(v) * v;
    }
    const double mean = sum / static_cast<double>(spec.size);
    const double std = std::sqrt(squares / static_cast<double>(spec.size) - mean * mean);
    if (!spec.is_matrix()) {
      const float want = spec.name.find("ln_") != std::string::npos && spec.name.ends_with(".weight") ? 1.0f : 0.0f;
      for (const float v : values) ASSERT_EQ(v, want) << spec.name;
    } else {
      const double want = spec.name.ends_with("c_proj.weight") ? residual_std : 0.02;
      EXPECT_NEAR(std, want, want * 0.1) << spec.name;
      EXPECT_NEAR(mean, 0.0, want * 0.1) << spec.name;
    }
  }
  Gpt2 again(shape, 1, 32);
  again.initialise(1);
  EXPECT_TRUE(std::equal(model.parameters().begin(), model.parameters().end(), again.parameters().begin()));
}

// "One model, held equal": the folder train writes, opened by core/model, gives the trainer's logits.
TEST(Gpt2Model, TheWrittenFolderRunsTheSameForwardPassInCoreModel) {
  std::mt19937 rng(11);
  Gpt2 model(kShape, kBatch, kShape.positions);
  model.initialise(9);
  for (float& w : model.parameters()) w += std::normal_distribution<float>(0.0f, 0.1f)(rng);  // not just the init
  const std::vector<std::int32_t> inputs = ids(rng), targets = ids(rng);
  model.forward(inputs, targets);
  const fs::path folder = fs::temp_directory_path() / ("attnviz-train-parity-" + std::to_string(::getpid()));
  FolderContents contents;
  contents.task = "text";
  contents.context = kShape.positions;
  write_model_folder(folder, kShape, model.parameters(), contents);

  const auto opened = model::Model::open(folder.string());
  const auto backend = make_cpu_backend();
  model::ForwardPass pass(*opened, *backend);
  model::ForwardOptions options;
  options.top_k = kShape.vocab;
  tokenizers::Encoding text;
  text.ids.assign(inputs.begin(), inputs.begin() + kShape.positions);  // the first sequence
  text.tokens.assign(text.ids.size(), "");
  text.type_ids.assign(text.ids.size(), 0);
  const model::ForwardResult& result = pass.run(text, options);
  ASSERT_EQ(result.next_tokens.size(), static_cast<std::size_t>(kShape.vocab));
  const auto last = model.logits().subspan(static_cast<std::size_t>(kShape.positions - 1) * kShape.vocab, kShape.vocab);
  for (const model::TokenProbability& t : result.next_tokens) {
    EXPECT_NEAR(t.logit, last[static_cast<std::size_t>(t.id)], 1e-5f) << "token " << t.id;
  }
  fs::remove_all(folder);
}

TEST(Gpt2Model, SafetensorsReadBackAsWritten) {
  Gpt2 model(kShape, 1, kShape.positions);
  model.initialise(2);
  const fs::path path = fs::temp_directory_path() / ("attnviz-train-st-" + std::to_string(::getpid()) + ".safetensors");
  write_safetensors(path, model.layout(), {{"m.", model.parameters()}}, 17);
  const SafetensorsFile file = read_safetensors(path);
  EXPECT_EQ(file.metadata.value("step", ""), "17");
  for (const TensorSpec& spec : model.layout()) {
    const std::vector<float>& got = file.tensors.at("m." + spec.name);
    EXPECT_EQ(file.shapes.at("m." + spec.name), spec.shape);
    EXPECT_TRUE(std::equal(got.begin(), got.end(), model.parameters().begin() + static_cast<long>(spec.offset)))
        << spec.name;
  }
  fs::remove(path);
}

}  // namespace
}  // namespace attnviz::train
