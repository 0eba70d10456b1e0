#include "app/compute/model_generation.h"

#include <exception>
#include <utility>

#include "app/compute/model_session.h"
#include "core/common/error.h"
#include "core/model/cancelled.h"

namespace attnviz::compute {

ModelGeneration::~ModelGeneration() { cancel(); }

void ModelGeneration::start(std::shared_ptr<const model::Model> model, const std::string& text,
                            const model::ModelEdits& edits, int tokens) {
  cancel();
  (void)poll();  // drop what the stopped job left
  if (!model) return;
  error_.clear();
  job_model_ = std::move(model);
  job_text_ = text;
  worker_.submit([this, m = job_model_, text, edits, tokens](const TaskContext& task) {
    generate(m, text, edits, tokens, task.stop);
  });
}

void ModelGeneration::generate(const std::shared_ptr<const model::Model>& model, const std::string& text,
                               const model::ModelEdits& edits, int tokens, std::stop_token stop) {
  worker_.report({"starting", 0.0});
  Outcome outcome;
  try {
    model::GenerateOptions options;
    options.max_new_tokens = tokens;
    options.edits = edits;
    options.stop = stop;
    options.progress = [this](const model::Progress& p) { worker_.report({p.stage, p.fraction}); };
    model::Generator generator(*model);
    outcome.result = generator.run(model->tokenizer().encode(text, "text"), options);
  } catch (const model::Cancelled&) {
    outcome.error = "cancelled";
  } catch (const InputError& e) {
    outcome.error = e.what();
    outcome.failure = std::current_exception();
  } catch (const std::exception& e) {
    outcome.error = e.what();
  }
  const std::lock_guard lock(mutex_);
  finished_ = std::move(outcome);
}

// Blocks until the job in flight has stopped, as the Decode view expects of Cancel.
void ModelGeneration::cancel() {
  const CancelOutcome cancelled = worker_.cancel();
  worker_.wait_idle();
  // A job dropped before it started says nothing itself: the window still shows the last one.
  if (cancelled.dropped_waiting && !cancelled.stopping_running) {
    error_ = "cancelled";
    job_model_.reset();
  }
}

bool ModelGeneration::poll() {
  std::optional<Outcome> outcome;
  {
    std::lock_guard lock(mutex_);
    outcome = std::exchange(finished_, std::nullopt);
  }
  if (!outcome) return false;
  if (outcome->result) {
    result_ = std::move(outcome->result);
    model_ = job_model_;
    text_ = job_text_;
    ++generation_;
  }
  error_ = outcome->failure ? window_message_of(outcome->failure) : outcome->error;
  job_model_.reset();
  return true;
}

void ModelGeneration::wait() {
  worker_.wait_idle();
  (void)poll();
}

bool ModelGeneration::busy() const { return !worker_.idle(); }

model::Progress ModelGeneration::progress() const {
  const WorkProgress progress = worker_.progress();
  return {progress.stage, progress.fraction};
}

void ModelGeneration::clear() {
  cancel();
  (void)poll();
  result_.reset();
  model_.reset();
  text_.clear();
  error_.clear();
  ++generation_;
}

}  // namespace attnviz::compute
