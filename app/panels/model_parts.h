#pragma once
// The pretrained model in the window's views (app/compute/model_session.h computes; these
// only draw its results): the bar above both model views (the model, its text, its tokens, the
// progress of a load or a pass with Cancel, the last error), and the Heatmaps view's model
// mode (a layer and a head chosen, that head's raw scores, weights and context).

#include <cstdint>
#include <string>

#include "app/heatmap/value_range.h"
#include "app/ui/panel.h"

namespace attnviz::panels {

// Whether the Heatmaps view shows the model (one is open or opening, and the user did not
// switch back to the scenario).
bool heatmaps_show_model(const ui::UiContext& ui);

// The model's name and description, the text field (edits rerun the model), its tokens as
// chips (hover highlights them everywhere), a progress bar with Cancel while working, the
// last error. `id` keeps two views' bars apart; `text` is that bar's edit buffer.
void draw_model_bar(ui::UiContext& ui, const char* id, std::string& text);

// The head switch of (layer, head): Off / On and a scale factor, one undo step each.
void draw_head_switch(ui::UiContext& ui, const char* id, int layer, int head);

class ModelHeatmaps {
 public:
  // The Heatmaps view's model mode in the rest of the current window.
  void draw(ui::UiContext& ui);

 private:
  void draw_selectors(ui::UiContext& ui, int layers, int heads);
  void update_ranges(const ui::UiContext& ui, int layer, int head);

  std::string text_;
  std::uint64_t ranges_generation_ = 0;
  int ranges_layer_ = -1;
  int ranges_head_ = -1;
  heatmap::ValueRange scores_;
  heatmap::ValueRange context_;
};

}  // namespace attnviz::panels
