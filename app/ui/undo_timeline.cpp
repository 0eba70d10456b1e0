#include "app/ui/undo_timeline.h"

#include <algorithm>

namespace attnviz::ui {
namespace {

bool can_undo(History history, const document::Document& document, const compute::ModelSession& model) {
  return history == History::Scenario ? document.can_undo() : model.can_undo();
}

bool can_redo(History history, const document::Document& document, const compute::ModelSession& model) {
  return history == History::Scenario ? document.can_redo() : model.can_redo();
}

// The newest entry of `order` (of `only`'s history, when given) whose history can move that
// way; entries it passes over belong to steps their history no longer holds (a bounded
// scenario history, a model opened since) and never will again.
template <class CanMove>
std::optional<std::size_t> newest_movable(const std::vector<History>& order, std::optional<History> only,
                                          CanMove can_move) {
  for (std::size_t i = order.size(); i-- > 0;) {
    if (only && order[i] != *only) continue;
    if (can_move(order[i])) return i;
  }
  return std::nullopt;
}

}  // namespace

void UndoTimeline::observe(document::Document& document, compute::ModelSession& model) {
  const std::uint64_t scenario = document.recorded_steps();
  const std::uint64_t models = model.recorded_steps();
  if (scenario == scenario_seen_ && models == model_seen_) return;
  // A history that was reset counts from where it is now (a new document is a new history).
  if (scenario > scenario_seen_) undo_order_.insert(undo_order_.end(), scenario - scenario_seen_, History::Scenario);
  if (models > model_seen_) undo_order_.insert(undo_order_.end(), models - model_seen_, History::Model);
  scenario_seen_ = scenario;
  model_seen_ = models;
  redo_order_.clear();
  document.discard_redo();
  model.discard_redo();
}

std::optional<History> UndoTimeline::next_undo(const document::Document& document,
                                               const compute::ModelSession& model) const {
  const auto found =
      newest_movable(undo_order_, std::nullopt, [&](History history) { return can_undo(history, document, model); });
  if (found) return undo_order_[*found];
  // A step the timeline has not seen (none in practice: observe() runs every frame).
  if (document.can_undo()) return History::Scenario;
  if (model.can_undo()) return History::Model;
  return std::nullopt;
}

std::optional<History> UndoTimeline::next_redo(const document::Document& document,
                                               const compute::ModelSession& model) const {
  const auto found =
      newest_movable(redo_order_, std::nullopt, [&](History history) { return can_redo(history, document, model); });
  if (found) return redo_order_[*found];
  return std::nullopt;
}

std::optional<UndoTimeline::Done> UndoTimeline::undo(document::Document& document, compute::ModelSession& model,
                                                     std::optional<History> only) {
  observe(document, model);
  const auto found =
      newest_movable(undo_order_, only, [&](History history) { return can_undo(history, document, model); });
  if (!found) return std::nullopt;
  const History history = undo_order_[*found];
  undo_order_.erase(undo_order_.begin() + static_cast<std::ptrdiff_t>(*found));
  Done done{history, history == History::Scenario ? document.undo_label() : model.undo_label()};
  if (history == History::Scenario)
    document.undo();
  else
    model.undo();
  redo_order_.push_back(history);
  return done;
}

std::optional<UndoTimeline::Done> UndoTimeline::redo(document::Document& document, compute::ModelSession& model,
                                                     std::optional<History> only) {
  observe(document, model);
  const auto found =
      newest_movable(redo_order_, only, [&](History history) { return can_redo(history, document, model); });
  if (!found) return std::nullopt;
  const History history = redo_order_[*found];
  redo_order_.erase(redo_order_.begin() + static_cast<std::ptrdiff_t>(*found));
  Done done{history, history == History::Scenario ? document.redo_label() : model.redo_label()};
  if (history == History::Scenario)
    document.redo();
  else
    model.redo();
  undo_order_.push_back(history);
  return done;
}

}  // namespace attnviz::ui
