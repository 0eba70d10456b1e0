#include "app/classroom/compare_layers.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/classroom/draw_helpers.h"
#include "app/classroom/page_layout.h"
#include "app/compute/model_session.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/i18n/translate.h"
#include "app/ui/classroom_state.h"
#include "app/ui/model_layer.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "app/ui/long_text.h"
#include "core/common/number_text.h"
#include "core/model/forward.h"

namespace attnviz::classroom {

void LayerComparison::refresh(const ui::UiContext& ui, int head, bool averaged) {
  if (generation_ == ui.model.generation() && head_ == head && averaged_ == averaged && !shown_.empty()) return;
  generation_ = ui.model.generation();
  head_ = head;
  averaged_ = averaged;
  shown_.clear();
  const model::ForwardResult& result = *ui.model.result();
  for (const model::LayerAttention& layer : result.layers) {
    const Result& attention = layer.attention;
    shown_.push_back(averaged ? model::heads_averaged(attention)
                              : attention.heads[static_cast<std::size_t>(head)].weights);
  }
  mask_ = model::layer_mask(ui.model.model()->config(), static_cast<int>(result.tokens.size()));
  version_ = fresh_upload_version();
}

void LayerComparison::draw(ui::UiContext& ui, bool& heads_averaged) {
  const model::ForwardResult& result = *ui.model.result();
  const model::ModelConfig& config = ui.model.model()->config();
  const float s = ui.ui_scale;

  // What each column shows: the chosen head (the selector the Heatmaps view shares) or the mean.
  if (pill(i18n::tr_label("one head").c_str(), !heads_averaged)) heads_averaged = false;
  ImGui::SameLine();
  if (pill(i18n::tr_label("heads averaged").c_str(), heads_averaged)) heads_averaged = true;
  if (!heads_averaged) {
    ImGui::SameLine(0.0f, 20.0f * s);
    ui::draw_index_selector(i18n::tr("Head"), "##compare-model-head", &ui.view.model_head, config.num_heads);
  }
  const int head = std::clamp(ui.view.model_head, 0, config.num_heads - 1);
  refresh(ui, head, heads_averaged);
  ImGui::SameLine(0.0f, 20.0f * s);
  const float bar_w = std::clamp(ImGui::GetContentRegionAvail().x * 0.4f, ImGui::GetFontSize() * 8.0f, 360.0f * s);
  ImGui::BeginGroup();
  ui.heatmaps.colorbar(ui.view.weights_colormap, 0.0f, 1.0f, bar_w, nullptr);
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::TextDisabled("%s", i18n::tr("weight: one scale for every layer"));
  ImGui::PushTextWrapPos(0.0f);
  const std::string what =
      heads_averaged ? std::string(i18n::tr("heads averaged")) : i18n::format(i18n::tr("head %d"), head);
  ui::text_wrapped_disabled(
      "%s", i18n::format(i18n::tr("%s, on \"%s\": each layer's %s."), ui.model.model()->description().c_str(),
                         ui.model.text().c_str(), what.c_str())
                .c_str());
  ImGui::PopTextWrapPos();

  ImGui::BeginChild("##compare-layers", ImGui::GetContentRegionAvail(), false, ImGuiWindowFlags_HorizontalScrollbar);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const std::vector<std::string>& tokens = result.tokens;
  GridSpace space;
  space.width = avail.x;
  space.height = avail.y;
  space.rows = static_cast<int>(tokens.size());
  space.cols = static_cast<int>(tokens.size());
  space.min_cell = std::ceil(ImGui::GetFontSize() * 0.62f);
  space.max_cell = 80.0f * s;
  space.row_label_w = heatmap::HeatmapWidget::row_label_width(tokens, 110.0f * s);
  space.min_slot_w = ImGui::GetFontSize() * 5.0f;
  space.gap = 10.0f * s;
  space.title_h = [](float slot_w) {
    return heading_height(i18n::format(i18n::tr("Layer %d"), 99), slot_w) + ImGui::GetStyle().ItemSpacing.y;
  };
  space.col_label_h = [&tokens, s](float cell) {
    return heatmap::HeatmapWidget::col_label_height(tokens, cell, 90.0f * s);
  };
  const GridLayout grid = layout_grid(static_cast<int>(shown_.size()), space);
  const ImVec2 start = ImGui::GetCursorPos();
  for (std::size_t i = 0; i < shown_.size(); ++i) {
    const int r = static_cast<int>(i) / grid.columns;
    const int c = static_cast<int>(i) % grid.columns;
    const float label_w = c == 0 ? space.row_label_w : 0.0f;
    const float x = start.x + (c == 0 ? 0.0f : space.row_label_w + grid.slot_w * static_cast<float>(c));
    const float y = start.y + grid.slot_h * static_cast<float>(r);
    const int layer = result.layers[i].layer;
    ImGui::SetCursorPos(ImVec2(x + label_w, y));
    heading_text(i18n::format(i18n::tr("Layer %d"), layer));
    ImGui::SetCursorPos(ImVec2(x, y + space.title_h(grid.slot_w)));
    heatmap::HeatmapSpec spec;
    spec.source.host = &shown_[i];
    spec.source.version = version_;
    spec.values = ui.view.show_numbers ? &shown_[i] : nullptr;
    spec.numbers = ui.view.show_numbers;
    spec.range_min = 0.0f;
    spec.range_max = 1.0f;
    spec.colormap = ui.view.weights_colormap;
    spec.mask = &mask_;
    spec.mask_head = heads_averaged ? 0 : head;
    spec.mask_heads = config.num_heads;
    spec.row_labels = &tokens;
    spec.col_labels = &tokens;
    spec.row_label_width = label_w;
    spec.cells_width = drawn_extent(space.cols, grid.cell);
    spec.cells_height = drawn_extent(space.rows, grid.cell);
    spec.col_label_height = grid.label_h;
    spec.pinned_row = ui.view.pinned_model_query.value_or(-1);
    spec.highlight_token = ui.view.hovered_model_token;
    spec.highlight_column = true;
    const std::string id = "##compare-layer-" + std::to_string(layer);
    const heatmap::HeatmapHover hover = ui.heatmaps.draw(id.c_str(), spec);
    if (hover.hovered && hover.row >= 0 && hover.col >= 0) {
      ImGui::SetTooltip("%s", i18n::format(i18n::tr("layer %d: %s \xe2\x86\x92 %s: %s"), layer,
                                           ui::token_label(tokens[static_cast<std::size_t>(hover.row)]).c_str(),
                                           ui::token_label(tokens[static_cast<std::size_t>(hover.col)]).c_str(),
                                           format_number(shown_[i].at(hover.row, hover.col), 4).c_str())
                                  .c_str());
    }
    if (hover.clicked && hover.row >= 0) ui::toggle_pinned(ui.view.pinned_model_query, hover.row);
    if (!hover.hovered && hover.row >= 0) ui.view.hovered_model_token_next = hover.row;
  }
  ImGui::SetCursorPos(ImVec2(start.x, start.y + grid.slot_h * static_cast<float>(grid.rows)));
  ImGui::Dummy(ImVec2(space.row_label_w + grid.slot_w * static_cast<float>(grid.columns), 1.0f));
  ImGui::EndChild();
}

}  // namespace attnviz::classroom
