// The Heatmaps view's "W_Q, W_K, W_V" mode for a pretrained model: the chosen layer's and
// head's three weight slices (d_model × head_dim) as heatmaps, editable: click a cell to type its
// value, or scale, zero or reset a whole matrix. Each change is one undo step of the model
// session, which reruns the model from that layer on (the core's ModelEdits::weights).

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/compute/model_session.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/heatmap/value_range.h"
#include "app/i18n/translate.h"
#include "app/panels/heatmaps_parts.h"
#include "app/panels/model_parts.h"
#include "app/ui/palette.h"
#include "app/ui/view_state.h"

namespace attnviz::panels {
namespace {

using model::Projection;

constexpr Projection kProjections[] = {Projection::Query, Projection::Key, Projection::Value};

const char* projection_name(Projection which) {
  switch (which) {
    case Projection::Query: return "W_Q";
    case Projection::Key: return "W_K";
    case Projection::Value: return "W_V";
  }
  return "?";
}

std::string edit_label(int layer, int head, Projection which, const std::string& what) {
  return i18n::format(i18n::tr("Layer %d head %d %s: %s"), layer, head, projection_name(which), what.c_str());
}

}  // namespace

const Matrix& ModelWeightsEditor::original(const ui::UiContext& ui, int layer, int head, int index) {
  const model::Model* model = ui.model.model();
  if (model != cached_model_ || layer != cached_layer_ || head != cached_head_) {
    for (int p = 0; p < 3; ++p)
      originals_[static_cast<std::size_t>(p)] = model->head_weight(layer, head, kProjections[p]);
    cached_model_ = model;
    cached_layer_ = layer;
    cached_head_ = head;
    ++version_;
  }
  return originals_[static_cast<std::size_t>(index)];
}

void ModelWeightsEditor::draw_tools(ui::UiContext& ui, int layer, int head, int index, const Matrix& shown,
                                    bool edited) {
  const Projection which = kProjections[index];
  ImGui::PushID(index);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  ImGui::SliderFloat("##factor", &factors_[static_cast<std::size_t>(index)], -2.0f, 2.0f, "\xC3\x97 %.2f");
  ImGui::SameLine();
  if (ImGui::SmallButton(i18n::tr_label("Scale").c_str())) {
    Matrix next = shown;
    const float factor = factors_[static_cast<std::size_t>(index)];
    for (float& value : next.data) value *= factor;
    char what[48];
    std::snprintf(what, sizeof what, "\xC3\x97 %.2f", static_cast<double>(factor));
    ui.model.set_head_weight(layer, head, which, std::move(next), edit_label(layer, head, which, what));
  }
  ImGui::SameLine();
  if (ImGui::SmallButton(i18n::tr_label("Zero").c_str())) {
    ui.model.set_head_weight(layer, head, which, Matrix(shown.rows, shown.cols, 0.0f),
                             edit_label(layer, head, which, i18n::tr("zero")));
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(!edited);
  if (ImGui::SmallButton(i18n::tr_label("Reset").c_str()))
    ui.model.set_head_weight(layer, head, which, std::nullopt, edit_label(layer, head, which, i18n::tr("the model's")));
  ImGui::EndDisabled();
  ImGui::PopID();
}

void ModelWeightsEditor::draw_cell_editor(ui::UiContext& ui, int layer, int head) {
  if (!cell_) return;
  if (ImGui::BeginPopup("##model-weight-cell")) {
    const Projection which = kProjections[cell_->index];
    ImGui::Text(i18n::tr("Layer %d head %d  %s[%d][%d]"), layer, head, projection_name(which), cell_->row, cell_->col);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    ImGui::InputFloat("##model-weight-value", &cell_->value, 0.0f, 0.0f, "%.6g");
    const bool enter = ImGui::IsItemDeactivatedAfterEdit();
    if (ImGui::Button(i18n::tr_label("Set", "Set##model-weight").c_str()) || enter) {
      const Matrix* edited = ui.model.edited_weight(layer, head, which);
      Matrix next = edited != nullptr ? *edited : original(ui, layer, head, cell_->index);
      if (std::isfinite(cell_->value) && cell_->row < next.rows && cell_->col < next.cols) {
        next.at(cell_->row, cell_->col) = cell_->value;
        char what[64];
        std::snprintf(what, sizeof what, "[%d][%d] = %.4g", cell_->row, cell_->col, static_cast<double>(cell_->value));
        ui.model.set_head_weight(layer, head, which, std::move(next), edit_label(layer, head, which, what));
      }
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  } else {
    cell_.reset();
  }
}

void ModelWeightsEditor::draw(ui::UiContext& ui, int layer, int head) {
  const model::ModelConfig& config = ui.model.model()->config();
  if (config.num_kv_heads < config.num_heads) {
    ImGui::TextDisabled(
        i18n::tr("W_K and W_V are key/value group %d's, shared by %d query heads: editing them changes all of those."),
        head / (config.num_heads / config.num_kv_heads), config.num_heads / config.num_kv_heads);
  } else {
    ImGui::TextDisabled(
        "%s", i18n::tr("Click a cell to type its value; every later layer and the next tokens are recomputed."));
  }
  const ImVec2 area = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetFontSize() * 1.5f;
  const float box_w = (area.x - 2.0f * gap) / 3.0f;
  const float cells_h = std::max(60.0f, area.y - title_height() - colorbar_height() -
                                            ImGui::GetFrameHeightWithSpacing() - ImGui::GetFontSize() * 2.0f);
  const float top = ImGui::GetCursorPosY();
  const float left = ImGui::GetCursorPosX();
  for (int index = 0; index < 3; ++index) {
    const Projection which = kProjections[index];
    const Matrix* edited = ui.model.edited_weight(layer, head, which);
    const Matrix& shown = edited != nullptr ? *edited : original(ui, layer, head, index);
    ImGui::SetCursorPos(ImVec2(left + static_cast<float>(index) * (box_w + gap), top));
    ImGui::BeginGroup();
    const std::string formula =
        i18n::format(edited ? i18n::tr("%d \xC3\x97 %d, edited") : "%d \xC3\x97 %d", shown.rows, shown.cols);
    heading(projection_name(which), formula.c_str(), box_w);
    draw_tools(ui, layer, head, index, shown, edited != nullptr);
    const heatmap::ValueRange range = heatmap::symmetric_range(shown);
    heatmap::HeatmapSpec spec;
    spec.source.host = &shown;
    // The original slices change with the layer and head, an edited one with every edit.
    spec.source.version =
        version_ * 1000003u + ui.model.generation() * 7u + static_cast<std::uint64_t>(edited != nullptr);
    spec.values = &shown;
    spec.range_min = range.min;
    spec.range_max = range.max;
    spec.colormap = ui.view.scores_colormap;
    spec.cells_width = box_w;
    spec.cells_height = cells_h;
    spec.numbers = ui.view.show_numbers;
    spec.max_samples = 2;
    const std::string id = std::string("##model-") + projection_name(which);
    const heatmap::HeatmapHover hover = ui.heatmaps.draw(id.c_str(), spec);
    if (hover.hovered && hover.row >= 0 && hover.col >= 0 && hover.row < shown.rows && hover.col < shown.cols) {
      ImGui::SetTooltip(i18n::tr("%s[%d][%d] = %.6g\nclick to change it"), projection_name(which), hover.row, hover.col,
                        static_cast<double>(shown.at(hover.row, hover.col)));
      if (hover.clicked) {
        cell_ = Cell{index, hover.row, hover.col, shown.at(hover.row, hover.col)};
        ImGui::OpenPopup("##model-weight-cell");
      }
    }
    ui.heatmaps.colorbar(spec.colormap, range.min, range.max, spec.cells_width, projection_name(which));
    ImGui::EndGroup();
  }
  draw_cell_editor(ui, layer, head);
}

}  // namespace attnviz::panels
