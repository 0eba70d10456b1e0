#pragma once
// The Model view's direct logit attribution (docs/gui.md "Model view"): the chosen target
// token's logit at a chosen position split into the embeddings', each head's, each attention
// bias's, each MLP's and the final bias's parts, as bars sorted by size, the sum beside the
// logit; a head's bar opens its attention in the Heatmaps view. The target comes from the
// next-token list or is typed. Computed off the window's thread
// (app/compute/attribution_session.h) after every new result or choice while it is shown; the
// last one stays, with a line saying what is computing or why there is none.

#include <optional>
#include <string>

#include "app/compute/attribution_session.h"
#include "app/export_ui/export_ui.h"
#include "app/ui/panel.h"

namespace attnviz::panels {

// The token an analysis reads the logit of: the likeliest (none chosen), one of the next-token
// list after the text, or typed (one token of the vocabulary). The attribution's and the
// patching's; `id` ("dla", "patch") keeps their widgets apart.
class TargetChooser {
 public:
  // "Target", the combo of the next tokens and the typed field, with why a typed text is no
  // target below them.
  void draw(const ui::UiContext& ui, const char* id, float width);
  // nullopt: the likeliest token.
  [[nodiscard]] std::optional<int> target() const { return target_; }
  void reset();

 private:
  void take_typed(const ui::UiContext& ui);

  std::optional<int> target_;
  std::string label_;        // its label, as chosen
  char typed_[128] = {};     // the typed target
  std::string typed_error_;  // why the typed text is no target ("" when it is)
};

class ModelAttribution {
 public:
  // Each frame, first: takes a finished attribution, and, when `shown`, asks for the shown
  // result's with the chosen target and position when it is not of them yet.
  void update(ui::UiContext& ui, bool shown);

  // The choices, the status line, the sum and the bars, in `width` × `height` pixels.
  void draw(ui::UiContext& ui, float width, float height);

 private:
  [[nodiscard]] compute::AttributionAsk ask(const ui::UiContext& ui) const;
  void draw_choices(ui::UiContext& ui, float width);
  void draw_status(const ui::UiContext& ui, float width) const;
  void draw_bars(ui::UiContext& ui, const compute::LogitAttribution& shown, float width, float height) const;

  compute::AttributionSession session_;
  const void* model_ = nullptr;  // the model the session's attribution is of
  TargetChooser target_;         // none: the likeliest token at the position
  export_ui::HeadsExport export_;
  std::optional<int> position_;  // nullopt: the last
};

}  // namespace attnviz::panels
