#pragma once
// The Model view's analyses (head roles, the logit lens, the logit attribution) all run the same
// way: on a Worker of their own below the window's priority, a newer ask stopping the one in
// flight, the last result shown until a newer one has finished, a failure kept beside it with
// the reason in the window's words, and asks made before clear() (the model was closed) dropped.
// LatestResult<T> is that machinery once; each session says only what it computes.

#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <utility>

#include "app/compute/model_messages.h"
#include "core/common/error.h"
#include "core/common/worker.h"
#include "core/model/cancelled.h"

namespace attnviz::compute {

template <typename T>
class LatestResult {
 public:
  LatestResult() = default;
  LatestResult(const LatestResult&) = delete;
  LatestResult& operator=(const LatestResult&) = delete;

  // Runs `compute` on the worker for the ask numbered `source` (the model session's generation).
  void submit(std::uint64_t source, std::function<T(std::stop_token)> compute) {
    worker_.submit([this, source, compute = std::move(compute)](const TaskContext& task) {
      Outcome outcome;
      outcome.source = source;
      try {
        outcome.value = compute(task.stop);
      } catch (const model::Cancelled&) {
        return;  // a newer ask stopped it: that one answers
      } catch (const InputError& e) {
        outcome.error = window_message(e);
      } catch (const std::exception& e) {
        outcome.error = e.what();
      }
      const std::lock_guard lock(mutex_);
      finished_ = std::move(outcome);
    });
  }

  // The frame loop's: takes finished work; true when what is shown changed.
  bool poll() {
    std::optional<Outcome> outcome;
    {
      const std::lock_guard lock(mutex_);
      outcome = std::exchange(finished_, std::nullopt);
    }
    if (!outcome || outcome->source < first_source_) return false;  // none, or an ask from before clear()
    if (outcome->value) {
      shown_ = std::move(outcome->value);
      error_.clear();
    } else {
      error_ = std::move(outcome->error);
    }
    return true;
  }

  // Waits until the worker is idle, then poll()s (tests, screenshots).
  void wait() {
    worker_.wait_idle();
    poll();
  }

  [[nodiscard]] bool busy() const { return !worker_.idle(); }
  // The last result finished (null before any).
  [[nodiscard]] const T* shown() const { return shown_ ? &*shown_ : nullptr; }
  // Why the last ask failed ("" when it did not).
  [[nodiscard]] const std::string& error() const { return error_; }

  // Forgets the result and drops what asks up to `last_source` will still bring.
  void clear(std::uint64_t last_source) {
    worker_.cancel();
    first_source_ = last_source + 1;
    shown_.reset();
    error_.clear();
  }

 private:
  struct Outcome {
    std::optional<T> value;
    std::string error;
    std::uint64_t source = 0;
  };

  mutable std::mutex mutex_;
  std::optional<Outcome> finished_;  // shared with the worker, under mutex_
  // The window's.
  std::optional<T> shown_;
  std::string error_;
  std::uint64_t first_source_ = 0;  // outcomes of asks before the last clear() are dropped
  Worker worker_{10};               // last: stopped and joined before the rest goes
};

}  // namespace attnviz::compute
