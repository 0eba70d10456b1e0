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
#include "app/heatmap/axis_math.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/heatmap/query_bars.h"
#include "app/heatmap/value_range.h"
#include "app/panels/panels.h"
#include "app/platform/fonts.h"
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

// Sizes of the top row, from the space available (all in pixels).
struct TopRowGeometry {
  float label_w = 0;     // row labels of each score/weight heatmap
  float label_h = 0;     // column labels
  float cells_w = 0;     // one score/weight heatmap's cells
  float cells_h = 0;
  float title_h = 0;
  float colorbar_h = 0;
};

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

const char* token_text(const std::vector<std::string>& tokens, int i) {
  return i >= 0 && i < static_cast<int>(tokens.size()) ? tokens[static_cast<std::size_t>(i)].c_str() : "?";
}

void heading(const char* title, const char* formula) {
  ImFont* font = platform::fonts().heading;
  if (font != nullptr) ImGui::PushFont(font);
  ImGui::TextUnformatted(title);
  if (font != nullptr) ImGui::PopFont();
  if (formula != nullptr && *formula != '\0') {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", formula);
  }
}

class HeatmapsPanel final : public Panel {
 public:
  [[nodiscard]] const char* title() const override { return "Heatmaps"; }
  [[nodiscard]] PanelArea area() const override { return PanelArea::Main; }
  void draw(UiContext& ui) override;

 private:
  void update_ranges(const UiContext& ui, int head);
  void draw_toolbar(UiContext& ui, int head_count);
  TopRowGeometry top_row_geometry(const UiContext& ui, float width, float height) const;
  void draw_top_row(UiContext& ui, int head, const TopRowGeometry& g);
  HeatmapHover draw_matrix(UiContext& ui, const char* id, HeadMatrix which, int head, const TopRowGeometry& g, bool scaled);
  void draw_context(UiContext& ui, int head, float width, float height);
  void handle_hover(UiContext& ui, const HeatmapHover& hover, int head);
  void tooltip(const UiContext& ui, int head, int row, int col) const;
  void draw_head_grid(UiContext& ui, float width, float height);
  void draw_pinned(UiContext& ui, int head, float width, float height);

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
  ranges_.weights = {0.0f, 1.0f};
  if (weights != nullptr && ui.view.weights_range == WeightsRange::Auto) ranges_.weights = heatmap::zero_to_max(*weights);
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
  const Problem& problem = ui.session.problem();
  ImGui::SameLine(0.0f, 18.0f * ui.ui_scale);
  ImGui::TextDisabled("of %d  ·  %d × %d  ·  d_k %d, d_v %d%s", head_count, problem.n(), problem.m(), problem.d_k,
                      problem.d_v, problem.num_kv_heads != problem.num_heads ? "  ·  grouped K/V" : "");
  if (ui.view.pinned_query) {
    ImGui::SameLine(0.0f, 18.0f * ui.ui_scale);
    if (ImGui::SmallButton("Unpin query")) ui.view.pinned_query.reset();
  }
  const char* hint = "hover a cell for its numbers · click pins a query · wheel zooms · drag pans · double-click resets";
  const float w = ImGui::CalcTextSize(hint).x;
  if (ImGui::GetContentRegionAvail().x > w + 20.0f) {
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - w);
    ImGui::TextDisabled("%s", hint);
  }
}

TopRowGeometry HeatmapsPanel::top_row_geometry(const UiContext& ui, float width, float height) const {
  const Problem& problem = ui.session.problem();
  const float s = ui.ui_scale;
  const float font = ImGui::GetFontSize();
  const float gap = 18.0f * s;
  TopRowGeometry g;
  g.title_h = font * 1.15f + ImGui::GetStyle().ItemSpacing.y + 2.0f;
  g.colorbar_h = std::round(font * 0.6f) + 2.0f + font + ImGui::GetStyle().ItemSpacing.y * 2.0f;
  g.label_w = heatmap::HeatmapWidget::row_label_width(problem.tokens, 120.0f * s);
  float cells_w = std::max((width - 3.0f * g.label_w - 2.0f * gap) / 3.0f, 40.0f * s);
  g.label_h = heatmap::HeatmapWidget::col_label_height(problem.source_tokens, cells_w / static_cast<float>(problem.m()),
                                                        110.0f * s);
  const float max_h = std::max(height - g.title_h - g.label_h - g.colorbar_h, 40.0f * s);
  // Cells keep their aspect ratio until one side hits its limit.
  const float aspect = static_cast<float>(problem.n()) / static_cast<float>(problem.m());
  float cells_h = cells_w * aspect;
  if (cells_h > max_h) {
    cells_h = max_h;
    cells_w = std::min(cells_w, std::max(cells_h / aspect, cells_w * 0.5f));
  }
  g.cells_w = std::floor(cells_w);
  g.cells_h = std::floor(cells_h);
  return g;
}

HeatmapHover HeatmapsPanel::draw_matrix(UiContext& ui, const char* id, HeadMatrix which, int head, const TopRowGeometry& g,
                                        bool scaled) {
  const compute::ComputeSession& session = ui.session;
  const Problem& problem = session.problem();
  const compute::MatrixSource source = session.head_matrix(head, which);
  HeatmapSpec spec;
  spec.source.device = source.device;
  spec.source.host = source.host;
  spec.source.version = source.version;
  spec.values = ui.view.show_numbers ? session.host_matrix(head, which) : nullptr;
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
  if (which == HeadMatrix::Weights) {
    spec.colormap = ui.view.weights_colormap;
    spec.range_min = ranges_.weights.min;
    spec.range_max = ranges_.weights.max;
    spec.mask = &problem.mask;
  } else if (scaled) {
    spec.colormap = ui.view.scores_colormap;
    spec.value_scale = problem.scale;
    spec.range_min = ranges_.scaled.min;
    spec.range_max = ranges_.scaled.max;
    spec.mask = &problem.mask;
  } else {
    spec.colormap = ui.view.scores_colormap;
    spec.range_min = ranges_.raw.min;
    spec.range_max = ranges_.raw.max;
  }
  const HeatmapHover hover = ui.heatmaps.draw(id, spec);
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + g.label_w);
  ui.heatmaps.colorbar(spec.colormap, spec.range_min, spec.range_max, g.cells_w,
                       which == HeadMatrix::Weights ? "weight" : nullptr);
  handle_hover(ui, hover, head);
  return hover;
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

void HeatmapsPanel::draw_context(UiContext& ui, int head, float width, float height) {
  const compute::ComputeSession& session = ui.session;
  const Problem& problem = session.problem();
  if (static_cast<int>(dims_.size()) != problem.d_v) {
    dims_.clear();
    for (int i = 0; i < problem.d_v; ++i) dims_.push_back(std::to_string(i));
  }
  heading("Context", "C = A·V, one row per query");
  const float font = ImGui::GetFontSize();
  const float label_w = heatmap::HeatmapWidget::row_label_width(problem.tokens, 100.0f * ui.ui_scale);
  const float label_h = font + 8.0f;
  const float colorbar_h = std::round(font * 0.6f) + 2.0f + font + ImGui::GetStyle().ItemSpacing.y;
  const float cells_h = std::floor(std::max(height - ImGui::GetFrameHeightWithSpacing() - label_h - colorbar_h, 30.0f));
  const float row_px = cells_h / static_cast<float>(problem.n());
  const float cells_w = std::floor(std::clamp(row_px * static_cast<float>(problem.d_v), 40.0f * ui.ui_scale, width - label_w));

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
  spec.cells_width = cells_w;
  spec.cells_height = cells_h;
  spec.row_label_width = label_w;
  spec.col_label_height = label_h;
  spec.zoom = &ui.view.head_zoom;
  spec.zoom_columns = false;
  spec.highlight_token = ui.view.hovered_token;
  spec.pinned_row = ui.view.pinned_query.value_or(-1);
  spec.numbers = ui.view.show_numbers;
  const HeatmapHover hover = ui.heatmaps.draw("##context", spec);
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label_w);
  ui.heatmaps.colorbar(spec.colormap, spec.range_min, spec.range_max, cells_w, nullptr);
  const Matrix* values = session.host_matrix(head, HeadMatrix::Context);
  if (hover.hovered && values != nullptr && hover.row < values->rows && hover.col < values->cols) {
    ImGui::BeginTooltip();
    ImGui::Text("context of  %s  (row %d)", token_text(problem.tokens, hover.row), hover.row);
    ImGui::Text("component %d = %.5g", hover.col, static_cast<double>(values->at(hover.row, hover.col)));
    ImGui::EndTooltip();
  }
  if (!hover.hovered && hover.row >= 0) ui.view.hovered_token_next = hover.row;
  if (hover.clicked && hover.row >= 0) ui.view.pinned_query = hover.row;
}

void HeatmapsPanel::draw_top_row(UiContext& ui, int head, const TopRowGeometry& g) {
  const Problem& problem = ui.session.problem();
  const float gap = 18.0f * ui.ui_scale;
  const std::string scaled_formula = "S " + scale_caption(problem, ui.document.scenario().scale);
  const float column_w = g.label_w + g.cells_w;
  const float y = ImGui::GetCursorPosY();
  float x = ImGui::GetCursorPosX();

  struct Column {
    const char* id;
    const char* title;
    std::string formula;
    HeadMatrix which;
    bool scaled;
  };
  const Column columns[3] = {
      {"##raw", "Raw scores", "S = Q·Kᵀ", HeadMatrix::Scores, false},
      {"##scaled", "Scaled + masked", scaled_formula, HeadMatrix::Scores, true},
      {"##weights", "Weights", "A = softmax(row)", HeadMatrix::Weights, false},
  };
  for (const Column& column : columns) {
    ImGui::SetCursorPos(ImVec2(x, y));
    ImGui::BeginGroup();
    ImGui::SetCursorPosX(x + g.label_w);
    heading(column.title, column.formula.c_str());
    ImGui::SetCursorPosX(x);
    draw_matrix(ui, column.id, column.which, head, g, column.scaled);
    ImGui::EndGroup();
    x += column_w + gap;
  }
  ImGui::SetCursorPos(ImVec2(ImGui::GetCursorStartPos().x, y + g.title_h + g.label_h + g.cells_h + g.colorbar_h));
}

void HeatmapsPanel::draw_head_grid(UiContext& ui, float width, float height) {
  const compute::ComputeSession& session = ui.session;
  const int heads = session.problem().num_heads;
  heading("All heads", "weights; click one to select it");
  const float font = ImGui::GetFontSize();
  const float label_h = font + 2.0f;
  const float spacing = 8.0f * ui.ui_scale;
  height -= ImGui::GetFrameHeightWithSpacing();
  // The largest square thumbnails that fit `heads` of them into width × height.
  float best = 0.0f;
  int best_cols = 1;
  for (int cols = 1; cols <= heads; ++cols) {
    const int rows = (heads + cols - 1) / cols;
    const float side = std::min((width - spacing * static_cast<float>(cols - 1)) / static_cast<float>(cols),
                                (height - (label_h + spacing) * static_cast<float>(rows)) / static_cast<float>(rows));
    if (side > best) {
      best = side;
      best_cols = cols;
    }
  }
  const float side = std::floor(std::clamp(best, 16.0f * ui.ui_scale, 170.0f * ui.ui_scale));
  const ImVec2 start = ImGui::GetCursorPos();
  for (int h = 0; h < heads; ++h) {
    const int r = h / best_cols;
    const int c = h % best_cols;
    ImGui::SetCursorPos(ImVec2(start.x + static_cast<float>(c) * (side + spacing),
                               start.y + static_cast<float>(r) * (side + label_h + spacing)));
    ImGui::BeginGroup();
    const bool selected = h == ui.view.selected_head;
    ImGui::TextColored(selected ? ImVec4(0.12f, 0.37f, 0.66f, 1.0f) : ImGui::GetStyleColorVec4(ImGuiCol_Text),
                       selected ? "head %d  (shown)" : "head %d", h);
    const compute::MatrixSource source = session.head_matrix(h, HeadMatrix::Weights);
    HeatmapSpec spec;
    spec.source.device = source.device;
    spec.source.host = source.host;
    spec.source.version = source.version;
    spec.colormap = ui.view.weights_colormap;
    spec.range_min = 0.0f;
    spec.range_max = 1.0f;
    spec.mask = &session.problem().mask;
    spec.cells_width = side;
    spec.cells_height = side;
    spec.numbers = false;
    const std::string id = "##head" + std::to_string(h);
    const HeatmapHover hover = ui.heatmaps.draw(id.c_str(), spec);
    if (selected) {
      const ImVec2 a = ImGui::GetItemRectMin();
      const ImVec2 b = ImGui::GetItemRectMax();
      ImGui::GetWindowDrawList()->AddRect(ImVec2(a.x - 3, a.y - 3), ImVec2(b.x + 3, b.y + 3), 0xffa85f1fu, 0.0f, 0,
                                          3.0f * ui.ui_scale);
    }
    if (hover.clicked) ui.view.selected_head = h;
    if (hover.hovered) ImGui::SetTooltip("head %d: click to show it above", h);
    ImGui::EndGroup();
  }
}

void HeatmapsPanel::draw_pinned(UiContext& ui, int head, float width, float height) {
  const compute::ComputeSession& session = ui.session;
  const Problem& problem = session.problem();
  if (!ui.view.pinned_query || *ui.view.pinned_query >= problem.n()) {
    heading("Pinned query", "");
    ImGui::TextDisabled("Click a row of a heatmap to pin that query:\nits weights appear here as bars, with its context vector.");
    return;
  }
  const int row = *ui.view.pinned_query;
  const Matrix* weights = session.host_matrix(head, HeadMatrix::Weights);
  const Matrix* context = session.host_matrix(head, HeadMatrix::Context);
  if (weights == nullptr || context == nullptr) return;
  const std::string title = std::string("Query  ") + token_text(problem.tokens, row);
  heading(title.c_str(), "attends to each key with weight");
  const MaskMatrix& mask = session.shown_result().mask;
  const float font = ImGui::GetFontSize();
  const bool labelled = problem.m() <= 64;
  const float label_h = labelled ? std::min(90.0f * ui.ui_scale, font * 5.0f) : 0.0f;
  const float avail_h = height - ImGui::GetFrameHeightWithSpacing() * 2.0f - font * 1.2f;
  heatmap::BarChart bars;
  bars.values = weights->row(row);
  bars.count = weights->cols;
  bars.labels = &problem.source_tokens;
  bars.visible = &mask.visible[static_cast<std::size_t>(row) * static_cast<std::size_t>(mask.cols)];
  bars.range_min = 0.0f;
  bars.range_max = ui.view.weights_range == WeightsRange::ZeroToOne ? 1.0f : std::max(heatmap::row_max_abs(*weights, row), 1e-6f);
  bars.width = width;
  bars.height = std::max(avail_h * 0.62f - label_h, 40.0f * ui.ui_scale);
  bars.label_height = label_h;
  bars.highlight = ui.view.hovered_token;
  const int hovered = heatmap::draw_bar_chart("##weights_bars", bars);
  if (hovered >= 0 && !problem.cross_attention) ui.view.hovered_token_next = hovered;

  heading("Context vector", "its row of C = A·V");
  heatmap::BarChart vector;
  vector.values = context->row(row);
  vector.count = context->cols;
  const float largest = std::max(heatmap::row_max_abs(*context, row), 1e-6f);
  vector.range_min = -largest;
  vector.range_max = largest;
  vector.width = std::min(width, static_cast<float>(context->cols) * 56.0f * ui.ui_scale);
  vector.height = std::max(avail_h * 0.38f, 30.0f * ui.ui_scale);
  heatmap::draw_bar_chart("##context_bars", vector);
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
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float top_share = 0.64f;
  const TopRowGeometry g = top_row_geometry(ui, avail.x, avail.y * top_share);
  draw_top_row(ui, head, g);

  ImGui::Separator();
  const ImVec2 rest = ImGui::GetContentRegionAvail();
  const float gap = 24.0f * ui.ui_scale;
  const float context_w = std::floor(rest.x * 0.24f);
  const float grid_w = std::floor(std::min(rest.x * 0.26f, std::max(rest.y * 1.4f, 200.0f * ui.ui_scale)));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
  ImGui::BeginChild("##context_area", ImVec2(context_w, rest.y), false, flags);
  draw_context(ui, head, context_w, rest.y);
  ImGui::EndChild();
  ImGui::SameLine(0.0f, gap);
  ImGui::BeginChild("##heads", ImVec2(grid_w, rest.y), false, flags);
  draw_head_grid(ui, grid_w, rest.y);
  ImGui::EndChild();
  ImGui::SameLine(0.0f, gap);
  const float pinned_w = ImGui::GetContentRegionAvail().x;
  ImGui::BeginChild("##pinned", ImVec2(pinned_w, rest.y), false, flags);
  draw_pinned(ui, head, pinned_w - 8.0f * ui.ui_scale, rest.y);
  ImGui::EndChild();
}

}  // namespace

std::unique_ptr<Panel> make_heatmaps_panel() { return std::make_unique<HeatmapsPanel>(); }

}  // namespace attnviz::ui
