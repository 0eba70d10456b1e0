#pragma once
// `attnviz train`'s loop: batches from the task, forward, backward, the optimiser, the log
// (training.jsonl), checkpoints every K steps, and the state to resume from; a stop request
// (Ctrl+C) ends it after saving. docs/design.md, "Training".

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/train/optimizer.h"
#include "core/train/parameters.h"
#include "core/train/tasks.h"

namespace attnviz::train {

struct TrainOptions {
  std::string task = "induction";   // "induction" | "text"
  std::filesystem::path text_file;  // task "text": its bytes are the ids (byte-level tokenizer)
  std::string text;                 // task "text" without a text_file: the text itself (saved as DIR/text.txt)
  // task "text": go on from this GPT-2 folder's weights (its shape replaces `shape`) and tokenizer.
  std::filesystem::path init;
  std::filesystem::path out;
  ModelShape shape;
  int context = 0;  // tokens per sequence; 0: shape.positions (a fresh model's table is its context)
  [[nodiscard]] int sequence_length() const { return context > 0 ? context : shape.positions; }
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

// Trains a fresh model (or, with options.init, that folder's) into options.out. Throws InputError
// for options the task cannot use, an --init folder it cannot train (initial_model.h), a run whose
// weights, optimiser state and activations would not fit in the memory the system has, and a loss
// that is not finite (naming the step; the last checkpoint written stays).
TrainResult train(const TrainOptions& options, const ProgressCallback& progress, const std::atomic<bool>* stop);

// Continues the training saved in `folder` (its options, weights, optimizer state and random
// state) until `steps` in all (nullopt: the saved number).
TrainResult resume(const std::filesystem::path& folder, std::optional<long> steps, int threads,
                   const ProgressCallback& progress, const std::atomic<bool>* stop);

// A run taken one step at a time by a caller that decides when (the window's Training view:
// Start, Pause, Step, on a thread of its own): train() is this in a loop, with checkpoints.
// Nothing is written until save().
class Trainer {
 public:
  // The task and a freshly initialised model. Throws InputError as train() does (a text shorter
  // than one batch, an induction context under 8, ...).
  explicit Trainer(const TrainOptions& options);
  ~Trainer();
  Trainer(const Trainer&) = delete;
  Trainer& operator=(const Trainer&) = delete;

  // One step. Throws InputError for a loss that is not finite, naming the step: the weights stay
  // those of the last good step.
  StepReport step();
  [[nodiscard]] long steps_done() const;
  [[nodiscard]] const TrainOptions& options() const;
  // The weights now (parameter_layout(options().shape)).
  [[nodiscard]] std::span<const float> parameters() const;
  // options().out as train() leaves it (the model, the optimiser's state, training.jsonl,
  // training_state.json): `attnviz train --resume` goes on from it. Atomic file by file.
  void save();
  // A model folder (write_model_folder) of this run with `parameters` of step `step`: an
  // earlier snapshot, opened by core/model like any checkpoint (no state to resume from).
  void save_model(const std::filesystem::path& folder, std::span<const float> parameters, long step) const;

  // The fixed sequence whose attention the window redraws as training goes (T ids): induction,
  // T/2 ids drawn from the task's ids (seed 0) and then the same again, so an induction head
  // draws a stripe T/2 − 1 below the diagonal; text, the text's first T ids.
  [[nodiscard]] const std::vector<std::int32_t>& probe() const;
  // Every head's attention weights on probe() for `parameters` (this run's layout):
  // L·H·T·T floats, [layer][head][query][key].
  [[nodiscard]] std::vector<float> probe_attention(std::span<const float> parameters);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace attnviz::train
