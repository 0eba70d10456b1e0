// Heatmaps: for the selected head the raw scores, the scaled and masked scores, the weights and
// the context vectors side by side (rows aligned, one shared zoom), the all-heads grid of
// weight thumbnails, and the pinned query's weights and context vector as bars.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/compute/compute_session.h"
#include "app/export_ui/export_ui.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/heatmap/value_range.h"
#include "app/panels/heatmaps_parts.h"
#include "app/panels/panels.h"
#include "app/state/document.h"
#include "app/ui/view_state.h"

namespace attnviz::ui {
namespace {

using compute::HeadMatrix;
using heatmap::Colormap;
using heatmap::HeatmapHover;
using heatmap::HeatmapSpec;
using heatmap::ValueRange;

struct Ranges {
  ValueRange raw, scaled, weights, context;
};

// Where one heatmap goes (all in pixels): its labels and cells.
struct HeatmapGeometry {
  float label_w = 0;  // row labels
  float label_h = 0;  // column labels
  float cells_w = 0;
  float cells_h = 0;
};

constexpr int kAllThreeUpTo = 40;  // tokens: HeadView::Auto shows the three steps up to here

// "× 0.354 = 1/√8", "× 1 (no scaling)", "× 0.5".
std::string scale_caption(const Problem& problem, const ScaleSetting& setting) {
  char text[96];
  const auto scale = static_cast<double>(problem.scale);
  switch (setting.kind) {
    case ScaleSetting::Kind::InvSqrtDk: std::snprintf(text, sizeof text, "× %.3g = 1/√%d", scale, problem.d_k); break;
    case ScaleSetting::Kind::None: std::snprintf(text, sizeof text, "× 1 (not scaled)"); break;
    case ScaleSetting::Kind::Value: std::snprintf(text, sizeof text, "× %.3g", scale); break;
  }
  return text;
}

class HeatmapsPanel final : public Panel {
 public:
  [[nodiscard]] const char* title() const override { return "Heatmaps"; }
  [[nodiscard]] PanelArea area() const override { return PanelArea::Main; }
  void draw(UiContext& ui) override;

 private:
  void update_ranges(const UiContext& ui, int head);
  void draw_toolbar(UiContext& ui, int head_count);
  HeatmapGeometry fit(const UiContext& ui, float width, float height, int across) const;
  void draw_all_three(UiContext& ui, int head);
  void draw_focus(UiContext& ui, int head, HeadView which);
  void draw_step(UiContext& ui, const char* id, HeadView which, int head, const HeatmapGeometry& g);
  void draw_context(UiContext& ui, int head, const HeatmapGeometry& g);
  HeatmapGeometry context_geometry(const UiContext& ui, float width, float height) const;
  void handle_hover(UiContext& ui, const HeatmapHover& hover, int head);
  void tooltip(const UiContext& ui, int head, int row, int col) const;

  std::uint64_t ranges_generation_ = 0;
  int ranges_head_ = -1;
  WeightsRange ranges_mode_ = WeightsRange::ZeroToOne;
  Ranges ranges_;
  std::vector<std::string> dims_;  // "0", "1", ...: the context's column labels
};

void HeatmapsPanel::update_ranges(const UiContext& ui, int head) {
  const compute::ComputeSession& session = ui.session;
  if (ranges_generation_ == session.generation() && ranges_head_ == head && ranges_mode_ == ui.view.weights_range) return;
  ranges_generation_ = session.generation();
  ranges_head_ = head;
  ranges_mode_ = ui.view.weights_range;
  const Result& result = session.shown_result();
  const Matrix* scores = session.host_matrix(head, HeadMatrix::Scores);
  const Matrix* weights = session.host_matrix(head, HeadMatrix::Weights);
  const Matrix* context = session.host_matrix(head, HeadMatrix::Context);
  if (scores != nullptr) {
    ranges_.raw = heatmap::symmetric_range(*scores);
    ranges_.scaled = heatmap::symmetric_range(*scores, session.problem().scale, &result.mask);
  }
  const WeightsRange mode = resolve(ui.view.weights_range, std::max(session.problem().n(), session.problem().m()));
  ranges_.weights = mode == WeightsRange::Log ? heatmap::kLogWeights : heatmap::ValueRange{0.0f, 1.0f};
  if (weights != nullptr && mode == WeightsRange::Auto) ranges_.weights = heatmap::zero_to_max(*weights);
  if (context != nullptr) ranges_.context = heatmap::symmetric_range(*context);
}

void HeatmapsPanel::draw_toolbar(UiContext& ui, int head_count) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Head");
  ImGui::SameLine();
  if (head_count <= 16) {
    for (int h = 0; h < head_count; ++h) {
      ImGui::PushID(h);
      const bool selected = h == ui.view.selected_head;
      if (selected) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_SliderGrab));
      if (selected) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
      if (ImGui::Button(std::to_string(h).c_str(), ImVec2(ImGui::GetFrameHeight() * 1.3f, 0))) ui.view.selected_head = h;
      if (selected) ImGui::PopStyleColor(2);
      ImGui::PopID();
      ImGui::SameLine(0.0f, 3.0f * ui.ui_scale);
    }
  } else {
    ImGui::SetNextItemWidth(140.0f * ui.ui_scale);
    ImGui::SliderInt("##head", &ui.view.selected_head, 0, head_count - 1);
    ImGui::SameLine();
  }
  ImGui::SameLine(0.0f, 18.0f * ui.ui_scale);
  int view = static_cast<int>(ui.view.head_view);
  ImGui::SetNextItemWidth(190.0f * ui.ui_scale);
  if (ImGui::Combo("##show", &view, "Auto\0All three steps\0Raw scores\0Scaled + masked\0Weights\0")) {
    ui.view.head_view = static_cast<HeadView>(view);
  }
  const Problem& problem = ui.session.problem();
  ImGui::SameLine(0.0f, 18.0f * ui.ui_scale);
  ImGui::TextDisabled("%d × %d  ·  d_k %d, d_v %d%s", problem.n(), problem.m(), problem.d_k, problem.d_v,
                      problem.num_kv_heads != problem.num_heads ? "  ·  grouped K/V" : "");
  if (ui.view.pinned_query) {
    ImGui::SameLine(0.0f, 18.0f * ui.ui_scale);
    if (ImGui::SmallButton("Unpin query")) ui.view.pinned_query.reset();
  }
  const char* hint = "hover a cell for its numbers · click pins a query · wheel zooms · drag pans · double-click resets";
  const float w = ImGui::CalcTextSize(hint).x;
  const float right = ImGui::GetWindowContentRegionMax().x;
  const float used = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x;
  if (used + w + 30.0f * ui.ui_scale < right) {
    ImGui::SameLine(right - w);
    ImGui::TextDisabled("%s", hint);
  }
}

// `across` heatmaps side by side in width × height (each with row labels, a title above and
// a colorbar below): the largest cells that keep the matrix's aspect ratio, within limits.
HeatmapGeometry HeatmapsPanel::fit(const UiContext& ui, float width, float height, int across) const {
  const Problem& problem = ui.session.problem();
  const float s = ui.ui_scale;
  const float gap = 18.0f * s;
  const float decorations = title_height() + colorbar_height();
  HeatmapGeometry g;
  g.label_w = heatmap::HeatmapWidget::row_label_width(problem.tokens, 150.0f * s);
  const auto n = static_cast<float>(across);
  const float widest_cells = std::max((width - n * g.label_w - (n - 1.0f) * gap) / n, 40.0f * s);
  const auto label_height = [&](float cells_w) {
    return heatmap::HeatmapWidget::col_label_height(problem.source_tokens, cells_w / static_cast<float>(problem.m()),
                                                    90.0f * s);
  };
  // Cells keep the matrix's aspect ratio until one side hits its limit; narrower cells may need
  // taller column labels, so the labels are measured again for the final width.
  const float aspect = static_cast<float>(problem.n()) / static_cast<float>(problem.m());
  const auto cells_for = [&](float label_h, float& cells_w, float& cells_h) {
    const float max_h = std::max(height - decorations - label_h, 40.0f * s);
    cells_w = widest_cells;
    cells_h = cells_w * aspect;
    if (cells_h > max_h) {
      cells_h = max_h;
      cells_w = std::min(cells_w, std::max(cells_h / aspect, cells_w * 0.5f));
    }
  };
  float cells_w = 0.0f;
  float cells_h = 0.0f;
  g.label_h = label_height(widest_cells);
  cells_for(g.label_h, cells_w, cells_h);
  const float needed = label_height(cells_w);
  if (needed > g.label_h) {
    g.label_h = needed;
    cells_for(g.label_h, cells_w, cells_h);
    g.label_h = std::max(g.label_h, label_height(cells_w));
  }
  g.cells_w = std::floor(cells_w);
  g.cells_h = std::floor(cells_h);
  return g;
}

// One step of the selected head, its title above and its colorbar below.
void HeatmapsPanel::draw_step(UiContext& ui, const char* id, HeadView which, int head, const HeatmapGeometry& g) {
  const compute::ComputeSession& session = ui.session;
  const Problem& problem = session.problem();
  const HeadMatrix matrix = which == HeadView::Weights ? HeadMatrix::Weights : HeadMatrix::Scores;
  const float x = ImGui::GetCursorPosX();
  ImGui::SetCursorPosX(x + g.label_w);
  // Up to the next heatmap, short of the Export button at the line's end (app/export_ui).
  const float title_w = g.cells_w + 8.0f * ui.ui_scale - export_ui::export_button_room();
  if (which == HeadView::RawScores) heading("Raw scores", "S = Q·Kᵀ", title_w);
  if (which == HeadView::ScaledScores) {
    heading("Scaled + masked", ("S " + scale_caption(problem, ui.document.scenario().scale)).c_str(), title_w);
  }
  if (which == HeadView::Weights) heading("Weights", "A = softmax of each row", title_w);
  export_ui::heatmap_export_button(ui, export_ui::quantity_for(which), x + g.label_w + g.cells_w);
  ImGui::SetCursorPosX(x);

  const compute::MatrixSource source = session.head_matrix(head, matrix);
  HeatmapSpec spec;
  spec.source.device = source.device;
  spec.source.host = source.host;
  spec.source.version = source.version;
  spec.values = ui.view.show_numbers ? session.host_matrix(head, matrix) : nullptr;
  spec.row_labels = &problem.tokens;
  spec.col_labels = &problem.source_tokens;
  spec.cells_width = g.cells_w;
  spec.cells_height = g.cells_h;
  spec.row_label_width = g.label_w;
  spec.col_label_height = g.label_h;
  spec.zoom = &ui.view.head_zoom;
  spec.highlight_token = ui.view.hovered_token;
  spec.highlight_column = !problem.cross_attention;
  spec.pinned_row = ui.view.pinned_query.value_or(-1);
  spec.numbers = ui.view.show_numbers;
  spec.colormap = ui.view.scores_colormap;
  if (which == HeadView::Weights) {
    spec.colormap = ui.view.weights_colormap;
    spec.range_min = ranges_.weights.min;
    spec.range_max = ranges_.weights.max;
    spec.mask = &problem.mask;
    spec.log_scale = resolve(ui.view.weights_range, std::max(problem.n(), problem.m())) == WeightsRange::Log;
  } else if (which == HeadView::ScaledScores) {
    spec.value_scale = problem.scale;
    spec.range_min = ranges_.scaled.min;
    spec.range_max = ranges_.scaled.max;
    spec.mask = &problem.mask;
  } else {
    spec.range_min = ranges_.raw.min;
    spec.range_max = ranges_.raw.max;
  }
  const HeatmapHover hover = ui.heatmaps.draw(id, spec);
  ImGui::SetCursorPosX(x + g.label_w);
  ui.heatmaps.colorbar(spec.colormap, spec.range_min, spec.range_max, g.cells_w,
                       which == HeadView::Weights ? "weight" : nullptr, spec.log_scale);
  handle_hover(ui, hover, head);
  export_ui::heatmap_hover_actions(ui, export_ui::quantity_for(which), hover.hovered);  // Ctrl+C: copy as CSV
}

void HeatmapsPanel::handle_hover(UiContext& ui, const HeatmapHover& hover, int head) {
  if (hover.hovered && hover.row >= 0 && hover.col >= 0) tooltip(ui, head, hover.row, hover.col);
  if (!hover.hovered && hover.row >= 0) ui.view.hovered_token_next = hover.row;  // a row label
  if (!hover.hovered && hover.col >= 0 && !ui.session.problem().cross_attention) ui.view.hovered_token_next = hover.col;
  if (hover.clicked && hover.row >= 0) {
    if (ui.view.pinned_query == hover.row) ui.view.pinned_query.reset();
    else ui.view.pinned_query = hover.row;
  }
}

void HeatmapsPanel::tooltip(const UiContext& ui, int head, int row, int col) const {
  const compute::ComputeSession& session = ui.session;
  const Problem& problem = session.problem();
  const Matrix* scores = session.host_matrix(head, HeadMatrix::Scores);
  const Matrix* weights = session.host_matrix(head, HeadMatrix::Weights);
  if (scores == nullptr || weights == nullptr || row >= scores->rows || col >= scores->cols) return;
  const bool visible = session.shown_result().mask.at(row, col);
  ImGui::BeginTooltip();
  ImGui::Text("query  %s  (row %d)", token_text(problem.tokens, row), row);
  ImGui::Text("key    %s  (column %d)", token_text(problem.source_tokens, col), col);
  ImGui::Separator();
  const float raw = scores->at(row, col);
  ImGui::Text("raw score  q·k = %.5g", static_cast<double>(raw));
  ImGui::Text("scaled score  × %.4g = %.5g", static_cast<double>(problem.scale), static_cast<double>(raw * problem.scale));
  if (visible) {
    ImGui::Text("weight = %.5g", static_cast<double>(weights->at(row, col)));
  } else {
    ImGui::TextColored(ImVec4(0.55f, 0.1f, 0.1f, 1.0f), "masked: this query cannot see this key (weight 0)");
  }
  ImGui::EndTooltip();
}

// The context heatmap in width × height, title and colorbar included.
HeatmapGeometry HeatmapsPanel::context_geometry(const UiContext& ui, float width, float height) const {
  const Problem& problem = ui.session.problem();
  HeatmapGeometry g;
  g.label_w = heatmap::HeatmapWidget::row_label_width(problem.tokens, 100.0f * ui.ui_scale);
  g.label_h = ImGui::GetFontSize() + 8.0f;
  g.cells_h = std::floor(std::max(height - title_height() - g.label_h - colorbar_height(), 30.0f));
  const float row_px = g.cells_h / static_cast<float>(problem.n());
  g.cells_w = std::floor(std::clamp(row_px * static_cast<float>(problem.d_v), 40.0f * ui.ui_scale,
                                    std::max(width - g.label_w, 40.0f * ui.ui_scale)));
  return g;
}

void HeatmapsPanel::draw_context(UiContext& ui, int head, const HeatmapGeometry& g) {
  const compute::ComputeSession& session = ui.session;
  const Problem& problem = session.problem();
  if (static_cast<int>(dims_.size()) != problem.d_v) {
    dims_.clear();
    for (int i = 0; i < problem.d_v; ++i) dims_.push_back(std::to_string(i));
  }
  const float x = ImGui::GetCursorPosX();
  ImGui::SetCursorPosX(x + g.label_w);
  heading("Context", "C = A·V", g.cells_w + 8.0f * ui.ui_scale - export_ui::export_button_room());
  export_ui::heatmap_export_button(ui, exporting::Quantity::Context, x + g.label_w + g.cells_w);
  ImGui::SetCursorPosX(x);
  const compute::MatrixSource source = session.head_matrix(head, HeadMatrix::Context);
  HeatmapSpec spec;
  spec.source.device = source.device;
  spec.source.host = source.host;
  spec.source.version = source.version;
  spec.values = ui.view.show_numbers ? session.host_matrix(head, HeadMatrix::Context) : nullptr;
  spec.colormap = ui.view.scores_colormap;
  spec.range_min = ranges_.context.min;
  spec.range_max = ranges_.context.max;
  spec.row_labels = &problem.tokens;
  spec.col_labels = &dims_;
  spec.cells_width = g.cells_w;
  spec.cells_height = g.cells_h;
  spec.row_label_width = g.label_w;
  spec.col_label_height = g.label_h;
  spec.zoom = &ui.view.head_zoom;
  spec.zoom_columns = false;
  spec.highlight_token = ui.view.hovered_token;
  spec.pinned_row = ui.view.pinned_query.value_or(-1);
  spec.numbers = ui.view.show_numbers;
  const HeatmapHover hover = ui.heatmaps.draw("##context", spec);
  ImGui::SetCursorPosX(x + g.label_w);
  ui.heatmaps.colorbar(spec.colormap, spec.range_min, spec.range_max, g.cells_w, nullptr);
  const Matrix* values = session.host_matrix(head, HeadMatrix::Context);
  if (hover.hovered && values != nullptr && hover.row < values->rows && hover.col < values->cols) {
    ImGui::BeginTooltip();
    ImGui::Text("context of  %s  (row %d)", token_text(problem.tokens, hover.row), hover.row);
    ImGui::Text("component %d = %.5g", hover.col, static_cast<double>(values->at(hover.row, hover.col)));
    ImGui::EndTooltip();
  }
  export_ui::heatmap_hover_actions(ui, exporting::Quantity::Context, hover.hovered);  // Ctrl+C: copy as CSV
  if (!hover.hovered && hover.row >= 0) ui.view.hovered_token_next = hover.row;
  if (hover.clicked && hover.row >= 0) ui.view.pinned_query = hover.row;
}

// Small sentences: raw scores → scaled and masked → weights side by side, and below them the
// context, the all-heads grid and the pinned query.
void HeatmapsPanel::draw_all_three(UiContext& ui, int head) {
  const float gap = 18.0f * ui.ui_scale;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const HeatmapGeometry g = fit(ui, avail.x, avail.y * 0.64f, 3);
  const float y = ImGui::GetCursorPosY();
  float x = ImGui::GetCursorPosX();
  const HeadView steps[3] = {HeadView::RawScores, HeadView::ScaledScores, HeadView::Weights};
  const char* ids[3] = {"##raw", "##scaled", "##weights"};
  for (int i = 0; i < 3; ++i) {
    ImGui::SetCursorPos(ImVec2(x, y));
    ImGui::BeginGroup();
    draw_step(ui, ids[i], steps[i], head, g);
    ImGui::EndGroup();
    x += g.label_w + g.cells_w + gap;
  }
  ImGui::SetCursorPos(ImVec2(ImGui::GetCursorStartPos().x, y + title_height() + g.label_h + g.cells_h + colorbar_height()));

  ImGui::Separator();
  const ImVec2 rest = ImGui::GetContentRegionAvail();
  const float context_w = std::floor(rest.x * 0.24f);
  const float grid_w = std::floor(std::min(rest.x * 0.28f, std::max(rest.y * 1.4f, 200.0f * ui.ui_scale)));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
  ImGui::BeginChild("##context_area", ImVec2(context_w, rest.y), false, flags);
  draw_context(ui, head, context_geometry(ui, context_w, rest.y));
  ImGui::EndChild();
  ImGui::SameLine(0.0f, 24.0f * ui.ui_scale);
  ImGui::BeginChild("##heads", ImVec2(grid_w, rest.y), false, flags);
  draw_head_grid(ui, grid_w, rest.y);
  ImGui::EndChild();
  ImGui::SameLine(0.0f, 24.0f * ui.ui_scale);
  const float pinned_w = ImGui::GetContentRegionAvail().x;
  ImGui::BeginChild("##pinned", ImVec2(pinned_w, rest.y), false);  // scrolls when the UI is scaled up
  draw_pinned_query(ui, head, pinned_w - 8.0f * ui.ui_scale, rest.y);
  ImGui::EndChild();
}

// Long sentences (or by choice): one step large with the context beside it (rows aligned),
// and a column with the all-heads grid and the pinned query.
void HeatmapsPanel::draw_focus(UiContext& ui, int head, HeadView which) {
  const Problem& problem = ui.session.problem();
  const float gap = 18.0f * ui.ui_scale;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float side_w = std::floor(std::clamp(avail.x * 0.3f, 240.0f * ui.ui_scale, 520.0f * ui.ui_scale));
  const float main_w = avail.x - side_w - gap;
  const float context_share = std::clamp(0.012f * static_cast<float>(problem.d_v), 0.06f, 0.16f);
  HeatmapGeometry g = fit(ui, main_w * (1.0f - context_share) - gap, avail.y, 1);
  HeatmapGeometry c = g;
  c.label_w = 0.0f;
  c.cells_w = std::floor(std::clamp(g.cells_w / static_cast<float>(problem.m()) * static_cast<float>(problem.d_v),
                                    40.0f * ui.ui_scale, main_w * context_share));

  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
  ImGui::BeginChild("##focus", ImVec2(main_w, avail.y), false, flags);
  ImGui::BeginGroup();
  draw_step(ui, "##focused", which, head, g);
  ImGui::EndGroup();
  ImGui::SameLine(0.0f, gap);
  ImGui::BeginGroup();
  draw_context(ui, head, c);
  ImGui::EndGroup();
  ImGui::EndChild();
  ImGui::SameLine(0.0f, gap);
  ImGui::BeginChild("##side", ImVec2(side_w, avail.y), false, flags);
  const float grid_h = std::floor(avail.y * 0.45f);
  ImGui::BeginChild("##heads", ImVec2(side_w, grid_h), false, flags);
  draw_head_grid(ui, side_w, grid_h);
  ImGui::EndChild();
  ImGui::Separator();
  draw_pinned_query(ui, head, side_w - 8.0f * ui.ui_scale, ImGui::GetContentRegionAvail().y);
  ImGui::EndChild();
}

void HeatmapsPanel::draw(UiContext& ui) {
  const compute::ComputeSession& session = ui.session;
  if (!session.has_result()) {
    ImGui::TextWrapped("Nothing to show yet%s%s", session.error().empty() ? "." : ": ", session.error().c_str());
    return;
  }
  const Problem& problem = session.problem();
  ui.view.selected_head = std::clamp(ui.view.selected_head, 0, problem.num_heads - 1);
  if (ui.view.pinned_query && *ui.view.pinned_query >= problem.n()) ui.view.pinned_query.reset();
  const int head = ui.view.selected_head;
  update_ranges(ui, head);

  draw_toolbar(ui, problem.num_heads);
  if (!session.error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.7f, 0.1f, 0.1f, 1.0f));
    ImGui::TextWrapped("Showing the last result that could be computed. %s", session.error().c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Spacing();
  HeadView view = ui.view.head_view;
  if (view == HeadView::Auto) {
    view = std::max(problem.n(), problem.m()) <= kAllThreeUpTo ? HeadView::AllThree : HeadView::Weights;
  }
  if (view == HeadView::AllThree) draw_all_three(ui, head);
  else draw_focus(ui, head, view);
}

}  // namespace

std::unique_ptr<Panel> make_heatmaps_panel() { return std::make_unique<HeatmapsPanel>(); }

}  // namespace attnviz::ui
