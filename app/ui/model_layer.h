#pragma once
// A pretrained model's layer in the views that show one layer at a time (Heatmaps, Step by
// step, Tiled): the selector they share, and the chosen layer's attention as the Problem and
// Result that a scenario's views read (core's model::layer_problem: the layer's queries, keys
// and values as the forward pass computed them). Nothing is computed here.

#include <cstdint>
#include <optional>
#include <string>

#include "app/compute/model_session.h"
#include "app/ui/panel.h"
#include "core/attention/result.h"
#include "core/scenario/problem.h"

namespace attnviz::ui {

// How the window names a model (compute::model_caption), and the shown model's name, made once
// when it opened ("" when none is open).
using compute::model_caption;
const std::string& shown_model_caption(const UiContext& ui);

// "Layer [slider] of 12": `value` clamped to 0 .. count − 1. `label` is a msgid (N_), shown
// translated.
void draw_index_selector(const char* label, const char* id, int* value, int count);

// The model's layer selector (ui.view.model_layer, shared by every view); `id` keeps two
// views' widgets apart.
void draw_layer_selector(UiContext& ui, const char* id);

// Whether the one-layer views show the model: one is open with a result.
bool shows_model(const UiContext& ui);

// Whether the open model reads its whole text at once (BERT): it predicts at [MASK] and does not
// generate. False when no model is open.
bool model_is_encoder(const UiContext& ui);

// What a one-layer view shows this frame: the scenario's Problem and Result (the compute
// session), or the model's chosen layer while one is shown. version() moves on whenever what
// it refers to changes (a new result, another layer, the model opened or closed).
class ShownAttention {
 public:
  // Follows this frame's source; false when there is nothing to show.
  bool update(const UiContext& ui);

  [[nodiscard]] const Problem& problem() const { return *problem_; }
  [[nodiscard]] const Result& result() const { return *result_; }
  [[nodiscard]] std::uint64_t version() const { return version_; }
  [[nodiscard]] bool model() const { return layer_ >= 0; }
  [[nodiscard]] int layer() const { return layer_; }  // -1: the scenario

 private:
  struct Key {
    bool model = false;
    std::uint64_t generation = 0;
    int layer = -1;
    bool operator==(const Key&) const = default;
  };
  std::optional<Key> key_;
  std::optional<Problem> layer_problem_;  // the model's layer (the scenario's is the session's)
  const Problem* problem_ = nullptr;
  const Result* result_ = nullptr;
  std::uint64_t version_ = 0;
  int layer_ = -1;
};

}  // namespace attnviz::ui
