#include "app/state/document.h"

namespace attnviz::app {

Document::Document(Scenario initial, std::optional<std::filesystem::path> path)
    : current_(std::move(initial)), path_(std::move(path)) {}

void Document::change_to(Scenario next) {
  current_ = std::move(next);
  ++revision_;
}

void Document::apply(Scenario next, const std::string& label, const std::string& merge_key) {
  if (next == current_) return;
  const bool merges = !merge_key.empty() && merge_key == merge_key_ && !undo_.empty();
  if (!merges) {
    undo_.push_back(Step{current_, label});
    if (undo_.size() > kMaxUndoSteps) undo_.erase(undo_.begin());
  }
  merge_key_ = merge_key;
  redo_.clear();
  change_to(std::move(next));
}

bool Document::undo() {
  if (undo_.empty()) return false;
  Step step = std::move(undo_.back());
  undo_.pop_back();
  redo_.push_back(Step{current_, step.label});
  merge_key_.clear();
  change_to(std::move(step.before));
  return true;
}

bool Document::redo() {
  if (redo_.empty()) return false;
  Step step = std::move(redo_.back());
  redo_.pop_back();
  undo_.push_back(Step{current_, step.label});
  merge_key_.clear();
  change_to(std::move(step.before));
  return true;
}

void Document::reset(Scenario scenario, std::optional<std::filesystem::path> path) {
  undo_.clear();
  redo_.clear();
  merge_key_.clear();
  path_ = std::move(path);
  change_to(std::move(scenario));
  saved_revision_ = revision_;
}

void Document::set_saved(std::filesystem::path path) {
  path_ = std::move(path);
  saved_revision_ = revision_;
}

}  // namespace attnviz::app
