#pragma once
// `attnviz train`'s loop: batches from the task, forward, backward, the optimiser, the log
// (training.jsonl), checkpoints every K steps, and the state to resume from; a stop request
// (Ctrl+C) ends it after saving. docs/design.md, "Training".

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "core/train/optimizer.h"
#include "core/train/parameters.h"
#include "core/train/tasks.h"

namespace attnviz::train {

struct TrainOptions {
  std::string task = "induction";   // "induction" | "text"
  std::filesystem::path text_file;  // task "text": its bytes are the ids (byte-level tokenizer)
  std::filesystem::path out;
  ModelShape shape;  // shape.positions is the context
  int batch = 32;
  int task_vocab = 64;  // induction: V readable tokens
  long steps = 1000;
  OptimizerSettings optimizer;
  std::uint64_t seed = 1;
  Sampling sampling = Sampling::Random;
  long checkpoint_every = 0;  // 0: no checkpoints/ folders
  int threads = 0;            // 0: every core
};

struct StepReport {
  long step = 0;  // 1-based: the step just taken
  long steps = 0;
  float loss = 0.0f;  // the step's batch, before its update
  std::optional<float> repeat_loss;
  double seconds = 0.0;            // since training began (over every resumed run)
  double tokens_per_second = 0.0;  // this run's
};

struct TrainResult {
  long steps_done = 0;
  bool stopped = false;  // a stop request ended it early
  float last_loss = 0.0f;
  std::optional<float> last_repeat_loss;
  double seconds = 0.0;
};

using ProgressCallback = std::function<void(const StepReport&)>;

// Trains a fresh model into options.out. Throws InputError for options the task cannot use and
// for a loss that is not finite (naming the step; the last checkpoint written stays).
TrainResult train(const TrainOptions& options, const ProgressCallback& progress, const std::atomic<bool>* stop);

// Continues the training saved in `folder` (its options, weights, optimizer state and random
// state) until `steps` in all (nullopt: the saved number).
TrainResult resume(const std::filesystem::path& folder, std::optional<long> steps, int threads,
                   const ProgressCallback& progress, const std::atomic<bool>* stop);

}  // namespace attnviz::train
