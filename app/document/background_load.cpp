#include "app/document/background_load.h"

#include <exception>
#include <utility>

#include "core/scenario/problem.h"

namespace attnviz::document {

BackgroundLoad::BackgroundLoad(std::string path_or_preset)
    : source_(std::move(path_or_preset)), thread_([this] { run(); }) {}

BackgroundLoad::~BackgroundLoad() {
  cancel();
  if (thread_.joinable()) thread_.join();
}

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
