// core/train's loss and gradient of a model folder on one batch, for check_training.py to hold
// against the float64 PyTorch GPT-2 tensor by tensor (not through an optimiser step):
//
//   train_gradients_runner MODEL_DIR CONTEXT OUT.safetensors ID...
//
// The ids are B sequences of CONTEXT + 1 (inputs, then the last target). Prints the loss; writes
// every gradient under its tensor's name.

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/train/checkpoint.h"
#include "core/train/gpt2.h"

int main(int argc, char** argv) {
  using namespace attnviz::train;
  if (argc < 5) {
    std::fprintf(stderr, "usage: train_gradients_runner MODEL_DIR CONTEXT OUT ID...\n");
    return 2;
  }
  const std::string folder = argv[1];
  const int T = std::stoi(argv[2]);
  const nlohmann::json config = nlohmann::json::parse(std::ifstream(folder + "/config.json"));
  const ModelShape shape{.layers = config["n_layer"],
                         .heads = config["n_head"],
                         .d_model = config["n_embd"],
                         .positions = config["n_positions"],
                         .vocab = config["vocab_size"]};
  const int count = argc - 4;
  const int B = count / (T + 1);
  std::vector<std::int32_t> inputs, targets;
  for (int b = 0; b < B; ++b) {
    for (int t = 0; t < T; ++t) {
      inputs.push_back(std::stoi(argv[4 + b * (T + 1) + t]));
      targets.push_back(std::stoi(argv[4 + b * (T + 1) + t + 1]));
    }
  }
  Gpt2 model(shape, B, T);
  const SafetensorsFile weights = read_safetensors(folder + "/model.safetensors");
  for (const TensorSpec& spec : model.layout()) {
    const std::vector<float>& values = weights.tensors.at(spec.name);
    std::copy(values.begin(), values.end(), model.parameters().begin() + static_cast<long>(spec.offset));
  }
  model.zero_gradients();
  const float loss = model.forward(inputs, targets);
  model.backward();
  write_safetensors(argv[3], model.layout(), {{"", model.gradients()}}, 0);
  std::printf("%.9g\n", static_cast<double>(loss));
  return 0;
}
