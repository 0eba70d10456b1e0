#pragma once
// UndoTimeline: one order for the window's two histories, the scenario's edits (Document) and
// the shown model's (ModelSession): Ctrl+Z undoes what the user did last, whichever it was, and
// redo follows the order they undid in. Each history keeps its own steps; the timeline keeps
// only whose each step is, learning of new steps by their counts (observe(), every frame), so
// an edit anywhere in the window joins it without knowing of it. A new step ends what could be
// redone in both histories, as in any one history.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/compute/model_session.h"
#include "app/document/document.h"

namespace attnviz::ui {

enum class History { Scenario, Model };

class UndoTimeline {
 public:
  // Notes the steps each history recorded since the last look.
  void observe(document::Document& document, compute::ModelSession& model);
  // Whose step Ctrl+Z (Ctrl+Shift+Z) would undo (redo) now; nullopt when there is none.
  [[nodiscard]] std::optional<History> next_undo(const document::Document& document,
                                                 const compute::ModelSession& model) const {
    return next(true, document, model);
  }
  [[nodiscard]] std::optional<History> next_redo(const document::Document& document,
                                                 const compute::ModelSession& model) const {
    return next(false, document, model);
  }
  // Undoes (redoes) the last step, or the last of `only` that history's (the Model view's own
  // Undo); returns whose it was and its label, or nullopt when there was none.
  struct Done {
    History history;
    std::string label;
  };
  std::optional<Done> undo(document::Document& document, compute::ModelSession& model,
                           std::optional<History> only = std::nullopt) {
    return move(true, document, model, only);
  }
  std::optional<Done> redo(document::Document& document, compute::ModelSession& model,
                           std::optional<History> only = std::nullopt) {
    return move(false, document, model, only);
  }

 private:
  [[nodiscard]] std::optional<History> next(bool undo, const document::Document& document,
                                            const compute::ModelSession& model) const;
  std::optional<Done> move(bool undo, document::Document& document, compute::ModelSession& model,
                           std::optional<History> only);

  std::uint64_t scenario_seen_ = 0;
  std::uint64_t model_seen_ = 0;
  std::vector<History> undo_order_;  // oldest first
  std::vector<History> redo_order_;  // the next to redo last
};

}  // namespace attnviz::ui
