#pragma once
// What `attnviz train` learns from (docs/design.md, "Training"): batches of B sequences of T
// inputs and their T targets (the next ids).
//   induction: T + 1 ids drawn uniformly from V readable byte tokens, holding one repeat of
//              k ∈ [4, T/2] ids starting at s ∈ [0, T + 1 − 2k]; `repeat` marks the predictions
//              only copying can make (targets in the second copy after its first id);
//   text:      a text's bytes (the byte-level tokenizer: id = byte), windows drawn at random or
//              read in order.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace attnviz::train {

struct Batch {
  Batch(int batch, int context);
  int batch;
  int context;
  std::vector<std::int32_t> inputs;   // batch × context
  std::vector<std::int32_t> targets;  // batch × context
  std::vector<std::uint8_t> repeat;   // batch × context: 1 where the target is copyable (induction)
};

class Task {
 public:
  virtual ~Task() = default;
  // Fills the batch of step `step` (0-based); allocates nothing.
  virtual void fill(Batch& batch, long step) = 0;
  [[nodiscard]] virtual std::string name() const = 0;
  // The ids the task draws from (task.json's "token_ids").
  [[nodiscard]] virtual std::vector<int> token_ids() const = 0;
  // The random generator's state as text, to resume exactly where a checkpoint stopped.
  [[nodiscard]] std::string random_state() const;
  void restore_random_state(const std::string& state);

 protected:
  explicit Task(std::uint64_t seed) : rng_(seed) {}
  std::mt19937_64 rng_;
};

// The byte ids of the most readable characters, at most kReadableTokens: a-z, A-Z, 0-9, then
// ASCII punctuation. Throws std::invalid_argument for a count outside [2, kReadableTokens].
constexpr int kReadableTokens = 94;
std::vector<int> readable_byte_ids(int count);

class InductionTask : public Task {
 public:
  InductionTask(int vocab, int context, std::uint64_t seed);  // context ≥ 8
  void fill(Batch& batch, long step) override;
  [[nodiscard]] std::string name() const override { return "induction"; }
  [[nodiscard]] std::vector<int> token_ids() const override { return ids_; }

 private:
  std::vector<int> ids_;
  std::vector<std::int32_t> sequence_;  // T + 1 ids, reused
};

enum class Sampling { Random, Sequential };

class TextTask : public Task {
 public:
  // ids: the text's token ids; needs batch·context + 1 of them at least (checked by the caller).
  TextTask(std::vector<std::int32_t> ids, Sampling sampling, std::uint64_t seed);
  void fill(Batch& batch, long step) override;
  [[nodiscard]] std::string name() const override { return "text"; }
  [[nodiscard]] std::vector<int> token_ids() const override;

 private:
  std::vector<std::int32_t> ids_;
  Sampling sampling_;
};

}  // namespace attnviz::train
