#include "app/document/background_load.h"

#include <exception>
#include <stop_token>
#include <utility>

#include "core/scenario/problem.h"

namespace attnviz::document {

BackgroundLoad::BackgroundLoad(std::string path_or_preset) : source_(std::move(path_or_preset)) {
  worker_.submit([this](const TaskContext& task) {
    // The reader polls a flag between reads; the worker's stop (cancel(), the destructor) sets it.
    const std::stop_callback stop_reading(task.stop, [this] { cancel_ = true; });
    run();
  });
}

BackgroundLoad::~BackgroundLoad() = default;

void BackgroundLoad::run() {
  try {
    ReadOptions options;
    options.cancel = &cancel_;
    options.progress = &bytes_read_;
    LoadedScenario loaded = load_scenario(source_, options);
    (void)build_problem(loaded.scenario, source_);  // refuse what could not be shown
    result_ = std::move(loaded);
  } catch (const ReadCancelled&) {
    cancelled_ = true;
  } catch (const std::exception& error) {
    error_ = error.what();
  }
  done_.store(true, std::memory_order_release);
}

std::optional<LoadedScenario> BackgroundLoad::take_result() {
  if (!done()) return std::nullopt;
  return std::exchange(result_, std::nullopt);
}

}  // namespace attnviz::document
