#include "app/heatmap/heatmap_widget.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>

#include "app/heatmap/axis_math.h"
#include "app/heatmap/heatmap_overlay.h"
#include "app/window/widget_log.h"

namespace attnviz::heatmap {
namespace {

struct Shape {
  int rows = 0;
  int cols = 0;
};

Shape shape_of(const HeatmapSource& source) {
  if (source.device.buffer != VK_NULL_HANDLE) return {source.device.rows, source.device.cols};
  if (source.host != nullptr) return {source.host->rows, source.host->cols};
  return {};
}

CellWindow current_window(const HeatmapSpec& spec, Shape shape) {
  if (spec.zoom == nullptr) return full_window(shape.rows, shape.cols);
  CellWindow w = *spec.zoom;
  if (!spec.zoom_columns) w.first_col = w.cols = 0.0f;  // all of its own columns
  return clamp_window(w, shape.rows, shape.cols);
}

// Wheel zooms around the mouse, dragging pans, a double click shows everything again. The
// shared zoom is written back in its kept form (axis_math.h: kept_window), never as this
// matrix's cell counts, so it follows the matrix when the sentence changes.
bool handle_zoom(const HeatmapSpec& spec, Shape shape, const CellGeometry& g, bool hovered, bool active) {
  if (spec.zoom == nullptr) return false;
  const ImGuiIO& io = ImGui::GetIO();
  CellWindow w = current_window(spec, shape);
  const CellWindow before = w;
  if (hovered && io.MouseWheel != 0.0f) {
    const CellPoint anchor = cell_at(g.window, io.MousePos.x, io.MousePos.y, g.x0, g.y0, g.x1, g.y1);
    w = zoom_window(w, std::pow(0.8f, io.MouseWheel), anchor.row, anchor.col, shape.rows, shape.cols);
  }
  if (active && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    w = pan_window(w, -io.MouseDelta.y / g.cell_h(), -io.MouseDelta.x / g.cell_w(), shape.rows, shape.cols);
  }
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) w = full_window(shape.rows, shape.cols);
  const bool moved = w.first_row != before.first_row || w.rows != before.rows || w.first_col != before.first_col ||
                     w.cols != before.cols;
  if (!moved) return false;  // a frame without zooming leaves the shared zoom alone
  CellWindow kept = kept_window(w, shape.rows, shape.cols);
  if (!spec.zoom_columns) {  // this heatmap moves the shared rows only
    kept.first_col = spec.zoom->first_col;
    kept.cols = spec.zoom->cols;
  }
  *spec.zoom = kept;
  return true;
}

// The first visible row and column labels and the pinned row, for tests that read the window.
void annotate_first_labels(ImGuiID id, const HeatmapSpec& spec, const CellGeometry& g) {
  if (!window::widget_log::enabled()) return;
  window::widget_log::annotate(id, "pinned_row", std::to_string(spec.pinned_row));
  const auto first = [](const std::vector<std::string>* labels, float room, int index) {
    if (labels == nullptr || room <= 0.0f || index < 0 || index >= static_cast<int>(labels->size()))
      return std::string();
    return (*labels)[static_cast<std::size_t>(index)];
  };
  window::widget_log::annotate(id, "first_row_label", first(spec.row_labels, spec.row_label_width, g.first_row()));
  window::widget_log::annotate(id, "first_col_label", first(spec.col_labels, spec.col_label_height, g.first_col()));
}

}  // namespace

HeatmapItem heatmap_item(const HeatmapSpec& spec, float width, float height) {
  ImGui::InvisibleButton("##heatmap", ImVec2(width, height));
  // The wheel zooms a zoomable heatmap, and must not scroll the window too.
  if (spec.zoom != nullptr) ImGui::SetItemUsingMouseWheel();
  return {ImGui::IsItemHovered(), ImGui::IsItemActive(), ImGui::IsItemDeactivated()};
}

HeatmapHover HeatmapWidget::draw(const char* id, const HeatmapSpec& spec) {
  HeatmapHover hover;
  const Shape shape = shape_of(spec.source);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::PushID(id);
  const HeatmapItem item = heatmap_item(spec, std::max(spec.row_label_width + spec.cells_width, 1.0f),
                                        std::max(spec.col_label_height + spec.cells_height, 1.0f));
  const bool item_hovered = item.hovered;
  const bool active = item.active;
  const bool released = item.released;
  const ImGuiID item_id = ImGui::GetItemID();
  ImGui::PopID();
  if (shape.rows <= 0 || shape.cols <= 0) return hover;

  CellGeometry g;
  g.x0 = origin.x + spec.row_label_width;
  g.y0 = origin.y + spec.col_label_height;
  g.x1 = g.x0 + spec.cells_width;
  g.y1 = g.y0 + spec.cells_height;
  g.window = current_window(spec, shape);
  g.rows = shape.rows;
  g.cols = shape.cols;

  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 mouse = io.MousePos;
  const bool over_cells = item_hovered && mouse.x >= g.x0 && mouse.x < g.x1 && mouse.y >= g.y0 && mouse.y < g.y1;
  hover.zoomed = handle_zoom(spec, shape, g, over_cells, active);
  g.window = current_window(spec, shape);
  if (item_hovered) {
    const CellPoint p = cell_at(g.window, mouse.x, mouse.y, g.x0, g.y0, g.x1, g.y1);
    const int row = std::clamp(static_cast<int>(std::floor(p.row)), 0, shape.rows - 1);
    const int col = std::clamp(static_cast<int>(std::floor(p.col)), 0, shape.cols - 1);
    hover.hovered = over_cells;
    if (over_cells || mouse.x < g.x0) hover.row = row;  // cells, or the row labels
    if (over_cells || mouse.y < g.y0) hover.col = col;  // cells, or the column labels
  }
  const float drag_threshold = io.MouseDragThreshold;
  hover.clicked = released && over_cells && io.MouseDragMaxDistanceSqr[0] < drag_threshold * drag_threshold;

  ImDrawList* list = ImGui::GetWindowDrawList();
  DrawRequest request;
  request.background = ImGui::GetColorU32(ImGuiCol_FrameBg);
  request.image_id = item_id;
  request.data_version = spec.source.version;
  request.matrix = spec.source.device.buffer != VK_NULL_HANDLE
                       ? spec.source.device
                       : renderer_->upload(*spec.source.host, spec.source.version);
  request.x0 = g.x0;
  request.y0 = g.y0;
  request.x1 = g.x1;
  request.y1 = g.y1;
  request.window = g.window;
  request.value_scale = spec.value_scale;
  request.range_min = spec.range_min;
  request.range_max = spec.range_max;
  request.colormap = spec.colormap;
  request.mask = spec.mask;
  request.mask_head = spec.mask_head;
  request.mask_heads = spec.mask_heads;
  request.max_samples = spec.max_samples;
  request.log_scale = spec.log_scale;
  request.nan_hidden = spec.nan_hidden;
  request.distance_bias = spec.distance_bias;
  if (spec.kept.device.buffer != VK_NULL_HANDLE)
    request.kept = spec.kept.device;
  else if (spec.kept.host != nullptr)
    request.kept = renderer_->upload(*spec.kept.host, spec.kept.version);
  // The cells' image is opaque, background included: nothing is drawn under it (lavapipe
  // rasterises every layer of every pixel).
  if (!renderer_->add_draw(list, request)) {
    list->AddRectFilled(ImVec2(g.x0, g.y0), ImVec2(g.x1, g.y1), request.background);
    list->AddText(ImVec2(g.x0 + 4, g.y0 + 4), ImGui::GetColorU32(ImGuiCol_Text), "too large to draw on this GPU");
  }

  const OverlayMasks masks{&renderer_->masks(), block_size_};
  const bool numbers = draw_overlay(list, spec, g, over_cells ? hover.row : -1, over_cells ? hover.col : -1, masks);
  window::widget_log::annotate(item_id, "numbers", numbers);  // for tests that read the window
  annotate_first_labels(item_id, spec, g);
  draw_axis_labels(list, spec, g, hover.row, hover.col);
  return hover;
}

}  // namespace attnviz::heatmap
