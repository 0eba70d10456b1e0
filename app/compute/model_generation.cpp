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
  {
    std::lock_guard lock(mutex_);
    running_ = true;
    progress_ = {"starting", 0.0};
  }
  error_.clear();
  job_model_ = std::move(model);
  job_text_ = text;
  worker_ = std::jthread([this, m = job_model_, text, edits, tokens](std::stop_token stop) {
    Outcome outcome;
    try {
      model::GenerateOptions options;
      options.max_new_tokens = tokens;
      options.edits = edits;
      options.stop = stop;
      options.progress = [this](const model::Progress& p) {
        std::lock_guard lock(mutex_);
        progress_ = p;
      };
      model::Generator generator(*m);
      outcome.result = generator.run(m->tokenizer().encode(text, "text"), options);
    } catch (const model::Cancelled&) {
      outcome.error = "cancelled";
    } catch (const InputError& e) {
      outcome.error = window_message(e);
    } catch (const std::exception& e) {
      outcome.error = e.what();
    }
    std::lock_guard lock(mutex_);
    finished_ = std::move(outcome);
    running_ = false;
  });
}

void ModelGeneration::cancel() {
  if (!worker_.joinable()) return;
  worker_.request_stop();
  worker_.join();
}

bool ModelGeneration::poll() {
  std::optional<Outcome> outcome;
  {
    std::lock_guard lock(mutex_);
    outcome = std::exchange(finished_, std::nullopt);
  }
  if (!outcome) return false;
  if (worker_.joinable()) worker_.join();  // it has finished: this returns at once
  if (outcome->result) {
    result_ = std::move(outcome->result);
    model_ = job_model_;
    text_ = job_text_;
    ++generation_;
  }
  error_ = outcome->error;
  job_model_.reset();
  return true;
}

void ModelGeneration::wait() {
  if (worker_.joinable()) worker_.join();
  (void)poll();
}

bool ModelGeneration::busy() const {
  std::lock_guard lock(mutex_);
  return running_;
}

model::Progress ModelGeneration::progress() const {
  std::lock_guard lock(mutex_);
  return progress_;
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
