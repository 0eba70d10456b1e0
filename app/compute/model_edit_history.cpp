#include "app/compute/model_edit_history.h"

#include <utility>

namespace attnviz::compute {

void ModelEditHistory::record(model::ModelEdits edits, std::optional<std::string> text, std::string label) {
  undo_.push_back(Step{std::move(edits), std::move(text), std::move(label)});
  redo_.clear();
  ++recorded_;
}

// The step's state becomes the current one; the step that brings back the state replaced.
ModelEditHistory::Step ModelEditHistory::swap_in(Step step, model::ModelEdits& edits, std::string& text) {
  Step back{std::move(edits), std::nullopt, step.label};
  edits = std::move(step.edits);
  if (step.text) {
    back.text = std::move(text);
    text = std::move(*step.text);
  }
  return back;
}

bool ModelEditHistory::undo(model::ModelEdits& edits, std::string& text) {
  if (undo_.empty()) return false;
  Step step = std::move(undo_.back());
  undo_.pop_back();
  redo_.push_back(swap_in(std::move(step), edits, text));
  return true;
}

bool ModelEditHistory::redo(model::ModelEdits& edits, std::string& text) {
  if (redo_.empty()) return false;
  Step step = std::move(redo_.back());
  redo_.pop_back();
  undo_.push_back(swap_in(std::move(step), edits, text));
  return true;
}

const std::string& ModelEditHistory::undo_label() const {
  static const std::string none;
  return undo_.empty() ? none : undo_.back().label;
}

const std::string& ModelEditHistory::redo_label() const {
  static const std::string none;
  return redo_.empty() ? none : redo_.back().label;
}

void ModelEditHistory::clear() {
  undo_.clear();
  redo_.clear();
}

}  // namespace attnviz::compute
