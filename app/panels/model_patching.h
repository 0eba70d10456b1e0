#pragma once
// The Model view's activation patching (docs/gui.md "Model view"): a second text beside the
// model's (the same length in tokens; when the lengths differ, both are said with a button that
// cuts the longer to the shorter), the target token (the clean run's likeliest next token, one
// of the next-token list or typed), the positions patched (all, or one: the last by default),
// and every head's effect on the target's logit when its output is taken from the second text's
// run at those positions, as a layers × heads heatmap in diverging colours
// centred at 0 with a legend; a cell's tooltip says its value and a click opens the head in the
// Heatmaps view. Above it the two runs' logits and their difference. Computed off the window's
// thread (app/compute/patching_session.h) after every new result, second text or target while
// it is shown; the last one stays, with a line saying what is computing or why there is none.

#include <cstdint>
#include <optional>
#include <string>

#include "app/compute/patching_session.h"
#include "app/export_ui/export_ui.h"
#include "app/panels/model_attribution.h"
#include "app/ui/panel.h"

namespace attnviz::panels {

class ModelPatching {
 public:
  // Each frame, first: takes a finished patching, counts the second text's tokens when it or
  // the result changed, and, when `shown` and the lengths agree, asks for the shown result's
  // patching when it is not of it yet.
  void update(ui::UiContext& ui, bool shown);

  // The second text, the target, the status line, the logits and the heatmap with its legend,
  // in `width` × `height` pixels.
  void draw(ui::UiContext& ui, float width, float height);

 private:
  [[nodiscard]] compute::PatchingAsk ask(const ui::UiContext& ui) const;
  void count_second_text(const ui::UiContext& ui);
  void draw_second_text(ui::UiContext& ui, float width);
  void draw_positions(const ui::UiContext& ui, float width);
  // The one position patched in a text of n tokens; nullopt: every position.
  [[nodiscard]] std::optional<int> patched_position(int n) const;
  void draw_status(const ui::UiContext& ui, float width) const;
  void draw_heatmap(ui::UiContext& ui, const compute::HeadPatching& shown, float width, float height) const;

  compute::PatchingSession session_;
  const void* model_ = nullptr;  // the model the session's patching is of
  std::string second_;           // the second (corrupted) text, as typed
  TargetChooser target_;         // none: the clean run's likeliest next token
  bool one_position_ = false;    // patch one position's outputs, not every position's
  std::optional<int> position_;  // that position; none (or beyond the text): the last, the target's
  export_ui::HeadsExport export_;
  // The second text's length in tokens, counted for (generation, text); -1 when it makes none.
  std::uint64_t counted_generation_ = 0;
  std::string counted_text_;
  int second_tokens_ = -1;
  std::string count_error_;  // why the second text makes no tokens ("" when it does)
};

}  // namespace attnviz::panels
