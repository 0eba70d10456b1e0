#pragma once
// The pretrained model in the window's views (app/compute/model_session.h computes; these
// only draw its results): the bar above both model views (the model, its text, its tokens, the
// progress of a load or a pass with Cancel, the last error), and the Heatmaps view's model
// mode (a layer and a head chosen, that head's raw scores, weights and context, the Model view's
// head role's key cells outlined in the weights).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/heatmap/value_range.h"
#include "core/common/matrix.h"
#include "app/ui/panel.h"
#include "core/heads/role_ranking.h"

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

// The chosen layer's and head's W_Q, W_K, W_V (d_model × head_dim) as editable heatmaps: a cell
// typed in, a matrix scaled, zeroed or reset; each change one undo step of the model session
// (app/panels/model_weights.cpp).
class ModelWeightsEditor {
 public:
  void draw(ui::UiContext& ui, int layer, int head);

 private:
  struct Cell {
    int index = 0;  // 0 W_Q, 1 W_K, 2 W_V
    int row = 0;
    int col = 0;
    float value = 0.0f;
  };
  // The model's own slice (cached per model, layer and head: dequantised from the file).
  const Matrix& original(const ui::UiContext& ui, int layer, int head, int index);
  void draw_tools(ui::UiContext& ui, int layer, int head, int index, const Matrix& shown, bool edited);
  void draw_cell_editor(ui::UiContext& ui, int layer, int head);

  const void* cached_model_ = nullptr;
  int cached_layer_ = -1;
  int cached_head_ = -1;
  std::array<Matrix, 3> originals_;
  std::uint64_t version_ = 0;
  std::array<float, 3> factors_ = {0.5f, 0.5f, 0.5f};
  std::optional<Cell> cell_;
};

class ModelHeatmaps {
 public:
  // The Heatmaps view's model mode in the rest of the current window.
  void draw(ui::UiContext& ui);

 private:
  void draw_selectors(ui::UiContext& ui, int layers, int heads);
  void update_ranges(const ui::UiContext& ui, int layer, int head);
  // The cells of the shown text the chosen role is read from (core/heads/role_ranking.h),
  // found again when the text or the role changes.
  const std::vector<std::pair<int, int>>& key_cells(const ui::UiContext& ui);

  std::string text_;
  bool show_weights_ = false;  // the head's W_Q, W_K, W_V instead of its attention
  ModelWeightsEditor weights_;
  std::uint64_t ranges_generation_ = 0;
  int ranges_layer_ = -1;
  int ranges_head_ = -1;
  heatmap::ValueRange scores_;
  heatmap::ValueRange context_;
  std::uint64_t key_cells_generation_ = 0;
  std::optional<heads::Role> key_cells_role_;
  std::vector<std::pair<int, int>> key_cells_;
};

}  // namespace attnviz::panels
