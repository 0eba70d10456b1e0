#pragma once
// ModelGeneration: greedy generation with a pretrained model's KV cache (core/model/generate.h)
// for the Decode view, on a Worker of its own so the frames go on with a progress bar;
// Cancel stops it at the core's next check (between layers). The last finished generation stays
// shown until a new one has finished; a failure or a cancel leaves it, with the reason.
//
//   generation.start(session.shared_model(), session.text(), session.shown_edits(), 8);
//   // later frames: poll(), busy(), progress(), result()

#include <exception>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/common/worker.h"
#include "core/model/generate.h"
#include "core/model/model.h"

namespace attnviz::compute {

class ModelGeneration {
 public:
  ModelGeneration() = default;
  ~ModelGeneration();  // stops the work in flight and waits for it
  ModelGeneration(const ModelGeneration&) = delete;
  ModelGeneration& operator=(const ModelGeneration&) = delete;

  // Generates `tokens` tokens after `text` with `model` (and the window's head switches and
  // edited weights); work in flight is stopped first.
  void start(std::shared_ptr<const model::Model> model, const std::string& text, const model::ModelEdits& edits,
             int tokens);
  void cancel();
  // The frame loop's: takes a finished job; true when what is shown changed.
  bool poll();
  // Waits for the job in flight, then poll()s (tests).
  void wait();

  [[nodiscard]] bool busy() const;
  [[nodiscard]] model::Progress progress() const;
  // The last finished generation (null before one), the model and text it was made with.
  [[nodiscard]] const model::Generation* result() const { return result_ ? &*result_ : nullptr; }
  [[nodiscard]] const model::Model* model() const { return model_.get(); }
  [[nodiscard]] const std::string& text() const { return text_; }
  // Why the last job failed ("" when it did not); "cancelled" after cancel().
  [[nodiscard]] const std::string& error() const { return error_; }
  // Moves on with every finished generation (caches key on it).
  [[nodiscard]] std::uint64_t generation() const { return generation_; }
  // Forgets the shown generation (the model it came from was closed).
  void clear();

 private:
  struct Outcome {
    std::optional<model::Generation> result;
    std::string error;
    std::exception_ptr failure;  // a refused text, said in the window's language by poll()
  };

  void generate(const std::shared_ptr<const model::Model>& model, const std::string& text,
                const model::ModelEdits& edits, int tokens, std::stop_token stop);

  mutable std::mutex mutex_;
  std::optional<Outcome> finished_;

  std::shared_ptr<const model::Model> job_model_;  // kept alive while the worker runs
  std::string job_text_;
  std::optional<model::Generation> result_;
  std::shared_ptr<const model::Model> model_;
  std::string text_;
  std::string error_;
  std::uint64_t generation_ = 0;
  Worker worker_;  // last: stopped and joined before the rest goes
};

}  // namespace attnviz::compute
