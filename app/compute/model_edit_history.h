#pragma once
// ModelEditHistory: the undo and redo of a shown model's edits (head switches, edited W_Q, W_K,
// W_V, a text cut to the start the model takes). A step keeps the state before it; undoing
// swaps it with the current state, which becomes the redo step, so undo and redo are one move.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/forward.h"

namespace attnviz::compute {

class ModelEditHistory {
 public:
  // A new step, labelled: `edits` (and `text`, for a step that changes the text) as they were
  // before it. The redo steps go.
  void record(model::ModelEdits edits, std::optional<std::string> text, std::string label);
  // Brings back the state before the last step (after the last undone one): `edits` and `text`
  // become it, and what they were is kept for the other direction. False when there is none.
  bool undo(model::ModelEdits& edits, std::string& text);
  bool redo(model::ModelEdits& edits, std::string& text);

  [[nodiscard]] bool can_undo() const { return !undo_.empty(); }
  [[nodiscard]] bool can_redo() const { return !redo_.empty(); }
  [[nodiscard]] const std::string& undo_label() const;
  [[nodiscard]] const std::string& redo_label() const;
  // How many steps were ever recorded: the window's one undo timeline sees a new one by it.
  [[nodiscard]] std::uint64_t recorded() const { return recorded_; }
  // A new step elsewhere in the window's timeline: what was undone here can no longer be redone.
  void discard_redo() { redo_.clear(); }
  void clear();

 private:
  struct Step {
    model::ModelEdits edits;
    std::optional<std::string> text;
    std::string label;
  };
  static Step swap_in(Step step, model::ModelEdits& edits, std::string& text);

  std::vector<Step> undo_;
  std::vector<Step> redo_;
  std::uint64_t recorded_ = 0;
};

}  // namespace attnviz::compute
