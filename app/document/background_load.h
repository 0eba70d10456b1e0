#pragma once
// Loading a scenario file off the window's thread: the window keeps drawing (and can show
// "Reading…" with the bytes so far), Esc or Cancel stops the read, and a FIFO nobody writes to,
// /dev/zero or a large file never freezes it (before, the window then ignored SIGTERM and its
// work was never autosaved). No ImGui here; app/panels/file_menu.cpp shows it.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "core/common/worker.h"
#include "core/scenario/scenario_json.h"

namespace attnviz::document {

class BackgroundLoad {
 public:
  // Starts reading `path_or_preset` (read_input_file's limits), parsing it and checking that
  // it can be computed (build_problem), on a Worker of its own.
  explicit BackgroundLoad(std::string path_or_preset);
  // Cancels and waits for the thread (at most about a tenth of a second while it waits for
  // data; a parse stops at its next value).
  ~BackgroundLoad();
  BackgroundLoad(const BackgroundLoad&) = delete;
  BackgroundLoad& operator=(const BackgroundLoad&) = delete;

  // The read stops at its next check; a load not yet started starts and stops at once, so
  // done() always comes (cancelling the worker's task instead would drop it unrun).
  void cancel() { cancel_ = true; }
  [[nodiscard]] bool done() const { return done_.load(std::memory_order_acquire); }
  [[nodiscard]] const std::string& source() const { return source_; }
  [[nodiscard]] std::size_t bytes_read() const { return bytes_read_.load(); }
  [[nodiscard]] std::chrono::steady_clock::duration running_for() const {
    return std::chrono::steady_clock::now() - started_;
  }

  // Once done(): the scenario (with the loader's warnings), or nullopt with error() (the
  // loader's message, "" when cancelled).
  [[nodiscard]] std::optional<LoadedScenario> take_result();
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] bool cancelled() const { return cancelled_; }

 private:
  void run();

  std::string source_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::atomic<bool> cancel_{false};
  std::atomic<std::size_t> bytes_read_{0};
  std::atomic<bool> done_{false};
  // Written by the thread before done_ is set, read after.
  std::optional<LoadedScenario> result_;
  std::string error_;
  bool cancelled_ = false;
  Worker worker_;  // last: stopped and joined before the rest goes
};

}  // namespace attnviz::document
