#include "app/ui/undo_timeline.h"

#include <algorithm>

namespace attnviz::ui {
namespace {

// Whether `history` holds a step to move back (undo) or forward (redo).
bool can_move(History history, bool undo, const document::Document& document, const compute::ModelSession& model) {
  if (history == History::Scenario) return undo ? document.can_undo() : document.can_redo();
  return undo ? model.can_undo() : model.can_redo();
}

// The newest entry of `order` (of `only`'s history, when given) whose history can move that
// way; entries it passes over belong to steps their history no longer holds (a bounded
// scenario history, a model opened since) and never will again.
std::optional<std::size_t> newest_movable(const std::vector<History>& order, std::optional<History> only, bool undo,
                                          const document::Document& document, const compute::ModelSession& model) {
  for (std::size_t i = order.size(); i-- > 0;) {
    if (only && order[i] != *only) continue;
    if (can_move(order[i], undo, document, model)) return i;
  }
  return std::nullopt;
}

}  // namespace

void UndoTimeline::observe(document::Document& document, compute::ModelSession& model) {
  const std::uint64_t scenario = document.recorded_steps();
  const std::uint64_t models = model.recorded_steps();
  if (scenario == scenario_seen_ && models == model_seen_) return;
  // The counts only grow (a history cleared by a new document or model keeps counting).
  if (scenario > scenario_seen_) undo_order_.insert(undo_order_.end(), scenario - scenario_seen_, History::Scenario);
  if (models > model_seen_) undo_order_.insert(undo_order_.end(), models - model_seen_, History::Model);
  scenario_seen_ = scenario;
  model_seen_ = models;
  redo_order_.clear();
  document.discard_redo();
  model.discard_redo();
}

std::optional<History> UndoTimeline::next(bool undo, const document::Document& document,
                                          const compute::ModelSession& model) const {
  const std::vector<History>& order = undo ? undo_order_ : redo_order_;
  const auto found = newest_movable(order, std::nullopt, undo, document, model);
  if (found) return order[*found];
  return std::nullopt;
}

std::optional<UndoTimeline::Done> UndoTimeline::move(bool undo, document::Document& document,
                                                     compute::ModelSession& model, std::optional<History> only) {
  observe(document, model);
  std::vector<History>& from = undo ? undo_order_ : redo_order_;
  const auto found = newest_movable(from, only, undo, document, model);
  if (!found) return std::nullopt;
  const History history = from[*found];
  from.erase(from.begin() + static_cast<std::ptrdiff_t>(*found));
  const bool scenario = history == History::Scenario;
  Done done{history, scenario ? (undo ? document.undo_label() : document.redo_label())
                              : (undo ? model.undo_label() : model.redo_label())};
  if (scenario)
    undo ? document.undo() : document.redo();
  else
    undo ? model.undo() : model.redo();
  (undo ? redo_order_ : undo_order_).push_back(history);
  return done;
}

}  // namespace attnviz::ui
