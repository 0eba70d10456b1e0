// Heatmaps: for the selected head the raw scores, the scaled and masked scores, the weights and
// the context vectors side by side (rows aligned, one shared zoom), the all-heads grid of
// weight thumbnails, and the pinned query's weights and context vector as bars.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app/i18n/translate.h"
#include "app/compute/compute_session.h"
#include "app/compute/model_session.h"
#include "app/document/document.h"
#include "app/export_ui/export_ui.h"
#include "app/heatmap/axis_math.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/heatmap/value_range.h"
#include "app/panels/heatmaps_layout.h"
#include "app/panels/heatmaps_parts.h"
#include "app/panels/model_parts.h"
#include "app/panels/overview_view.h"
#include "app/panels/panels.h"
#include "app/ui/keys.h"
#include "app/heatmap/heatmap_overlay.h"
#include "app/ui/classroom_state.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/scenario/positions.h"

namespace attnviz::panels {
namespace {

using compute::HeadMatrix;
using heatmap::Colormap;
using heatmap::HeatmapHover;
using heatmap::HeatmapSpec;
using heatmap::ValueRange;

struct Ranges {
  ValueRange raw, scaled, weights, context;
};

constexpr float kStepsShare = 0.64f;  // of the panel's height: the three steps, above the rest

const char* step_title(ui::HeadView which) {
  switch (which) {
    case ui::HeadView::RawScores: return i18n::tr("Raw scores");
    case ui::HeadView::ScaledScores: return i18n::tr("Scaled + masked");
    default: return i18n::tr("Weights");
  }
}

// "× 0.354 = 1/√8", "× 1 (no scaling)", "× 0.5".
std::string scale_caption(const Problem& problem, const ScaleSetting& setting) {
  char text[96];
  const auto scale = static_cast<double>(problem.scale);
  switch (setting.kind) {
    case ScaleSetting::Kind::InvSqrtDk: std::snprintf(text, sizeof text, "× %.3g = 1/√%d", scale, problem.d_k); break;
    case ScaleSetting::Kind::None: std::snprintf(text, sizeof text, "%s", i18n::tr("× 1 (not scaled)")); break;
    case ScaleSetting::Kind::Value: std::snprintf(text, sizeof text, "× %.3g", scale); break;
  }
  return text;
}

class HeatmapsPanel final : public ui::Panel {
 public:
  [[nodiscard]] const char* title() const override { return N_("Heatmaps"); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Main; }
  void draw(ui::UiContext& ui) override;

 private:
  void update_ranges(const ui::UiContext& ui, int head);
  [[nodiscard]] HeatmapMetrics metrics(const ui::UiContext& ui, int title_lines) const;
  [[nodiscard]] StepsLayout steps_layout(const ui::UiContext& ui, float width, float height, int& lines) const;
  [[nodiscard]] ui::HeadView automatic_view(const ui::UiContext& ui, ImVec2 area) const;
  [[nodiscard]] float lower_row_min(const ui::UiContext& ui) const;
  void draw_all_three(ui::UiContext& ui, int head, ImVec2 area);
  void draw_focus(ui::UiContext& ui, int head, ui::HeadView which, ImVec2 area);
  void draw_step(ui::UiContext& ui, const char* id, ui::HeadView which, int head, const HeatmapBox& g, int lines);
  void draw_context(ui::UiContext& ui, int head, const HeatmapBox& g, int lines);
  void handle_hover(ui::UiContext& ui, const HeatmapHover& hover, int head);
  // The pinned query's bars in the colours of the weights and context heatmaps.
  [[nodiscard]] heatmap::BarColours weight_bars(const ui::UiContext& ui) const;
  [[nodiscard]] heatmap::BarColours context_bars(const ui::UiContext& ui) const;
  void tooltip(const ui::UiContext& ui, int head, int row, int col) const;
  // Weights that barely vary are one flat colour on 0..1: a note under their colorbar says so
  // and stretches the colours to 0..largest in one click (and back).
  [[nodiscard]] bool weights_note_shown(const ui::UiContext& ui) const;
  [[nodiscard]] static float weights_note_height();
  void draw_weights_note(ui::UiContext& ui, float width);

  std::uint64_t ranges_generation_ = 0;
  int ranges_head_ = -1;
  ui::WeightsRange ranges_mode_ = ui::WeightsRange::ZeroToOne;
  Ranges ranges_;
  std::optional<ValueRange> uniform_;                              // the weights' own range when nearly uniform on 0..1
  ui::WeightsRange before_stretch_ = ui::WeightsRange::Automatic;  // where "Back to 0-1" returns
  std::vector<std::string> dims_;                                  // "0", "1", ...: the context's column labels
  OverviewView overview_;                                          // past 4,096 tokens: the exact overview instead
  ModelHeatmaps model_heatmaps_;                                   // a pretrained model's layer and head instead
};

// Presentation mode keeps the numbers of matrices up to kNumberedWhilePresenting tokens.
bool numbers_kept(const ui::UiContext& ui) {
  const Problem& problem = ui.session.problem();
  return ui.classroom.presenting && ui.view.show_numbers &&
         std::max(problem.n(), problem.m()) <= ui::ClassroomState::kNumberedWhilePresenting;
}

// The readable minimum of a cell: row labels at their smallest size (heatmap_labels.cpp
// shrinks them to 62% of the text before thinning them). A context column fits its label.
float min_cell(float font) { return std::ceil(0.62f * font); }
// A context column fits its label ("7", "15") with some air.
float context_col_min(float font, int d_v) {
  return std::ceil(ImGui::CalcTextSize(std::to_string(std::max(d_v - 1, 0)).c_str()).x + 0.5f * font);
}
float context_col_max(float font) { return std::round(3.2f * font); }

// The formula beside each step's title ("S × 0.354 = 1/√8").
std::string step_formula(const ui::UiContext& ui, ui::HeadView which) {
  const Problem& problem = ui.session.problem();
  if (which == ui::HeadView::RawScores)
    return problem.positional == PositionalKind::Rope ? i18n::tr("S = Q·Kᵀ (RoPE'd)") : "S = Q·Kᵀ";
  if (which == ui::HeadView::ScaledScores) {
    const std::string scaled = "S " + scale_caption(problem, ui.document.scenario().scale);
    return problem.positional == PositionalKind::Alibi ? scaled + " − m·|i − j|" : scaled;
  }
  return problem.dropout ? i18n::tr("A = softmax, then dropout") : i18n::tr("A = softmax of each row");
}

// The line between the three steps and the row below them.
float separator_height() { return ImGui::GetStyle().ItemSpacing.y * 2.0f + 1.0f; }

// The three steps' height in a panel `height` tall: their share, less what the row below
// needs at least (the context at its readable minimum).
float steps_budget(float height, float lower_min) {
  return std::max(height - std::max(lower_min, height * (1.0f - kStepsShare)) - separator_height(), 0.0f);
}

// Room for a step's title: its cells' width less the Export button at the line's end.
float title_room(float cells_w) { return cells_w - export_ui::export_button_room(); }

// The three steps' titles over `box` (heatmaps_layout.h).
TitlePlace title_place(const HeatmapBox& box) {
  float widest = 0.0f;
  for (ui::HeadView which : {ui::HeadView::RawScores, ui::HeadView::ScaledScores, ui::HeadView::Weights}) {
    widest = std::max(widest, heading_width(step_title(which)));
  }
  return place_titles(box, widest, export_ui::export_button_room());
}

// Scrolling areas of the panel: the wheel scrolls them (over a heatmap it zooms instead).
bool begin_body(const char* id, ImVec2 size, ImVec2 content) {
  ImGui::SetNextWindowContentSize(content);
  return ImGui::BeginChild(id, size, false, ImGuiWindowFlags_HorizontalScrollbar);
}

void HeatmapsPanel::update_ranges(const ui::UiContext& ui, int head) {
  const compute::ComputeSession& session = ui.session;
  if (ranges_generation_ == session.generation() && ranges_head_ == head && ranges_mode_ == ui.view.weights_range)
    return;
  ranges_generation_ = session.generation();
  ranges_head_ = head;
  ranges_mode_ = ui.view.weights_range;
  const MaskMatrix& mask = session.mask_matrix(head);  // the result itself stays on the device
  const Matrix* scores = session.host_matrix(head, HeadMatrix::Scores);
  const Matrix* weights = session.host_matrix(head, HeadMatrix::Weights);
  const Matrix* context = session.host_matrix(head, HeadMatrix::Context);
  if (scores != nullptr) {
    ranges_.raw = heatmap::symmetric_range(*scores);
    ranges_.scaled = heatmap::symmetric_range(*scores, session.problem().scale, &mask,
                                              head_slopes(session.problem()).at(static_cast<std::size_t>(head)));
  }
  const ui::WeightsRange mode =
      ui::resolve(ui.view.weights_range, std::max(session.problem().n(), session.problem().m()));
  ranges_.weights = mode == ui::WeightsRange::Log ? heatmap::kLogWeights : heatmap::ValueRange{0.0f, 1.0f};
  if (weights != nullptr && mode == ui::WeightsRange::Auto) ranges_.weights = heatmap::zero_to_max(*weights);
  if (context != nullptr) ranges_.context = heatmap::symmetric_range(*context);
  uniform_.reset();
  if (weights != nullptr && mode != ui::WeightsRange::Log)
    uniform_ = heatmap::nearly_uniform(*weights, &mask, {0.0f, 1.0f});
}

bool HeatmapsPanel::weights_note_shown(const ui::UiContext& ui) const {
  const Problem& problem = ui.session.problem();
  const ui::WeightsRange mode = ui::resolve(ui.view.weights_range, std::max(problem.n(), problem.m()));
  return uniform_.has_value() && (mode == ui::WeightsRange::ZeroToOne || mode == ui::WeightsRange::Auto);
}

float HeatmapsPanel::weights_note_height() {
  return ImGui::GetTextLineHeightWithSpacing() + ImGui::GetFrameHeightWithSpacing();
}

void HeatmapsPanel::draw_weights_note(ui::UiContext& ui, float width) {
  const Problem& problem = ui.session.problem();
  const bool stretched =
      ui::resolve(ui.view.weights_range, std::max(problem.n(), problem.m())) == ui::WeightsRange::Auto;
  char low[16];
  char high[16];
  std::snprintf(low, sizeof low, "%.3f", static_cast<double>(uniform_->min));
  std::snprintf(high, sizeof high, "%.3f", static_cast<double>(uniform_->max));
  const std::string text = stretched
                               ? i18n::format(i18n::tr("Colours stretched to 0–%s (on 0–1: one flat colour)"), high)
                               : i18n::format(i18n::tr("Nearly uniform: %s–%s"), low, high);
  const std::string shown = heatmap::ellipsize(ImGui::GetFont(), ImGui::GetFontSize(), text, std::max(width, 1.0f));
  ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::warning_text());
  ImGui::TextUnformatted(shown.c_str());
  ImGui::PopStyleColor();
  if (shown != text && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
  if (stretched) {
    if (ImGui::SmallButton(i18n::tr_label("Back to 0–1", "Back to 0–1##weights_note").c_str()))
      ui.view.weights_range = before_stretch_;
    return;
  }
  const std::string label =
      i18n::format(i18n::tr("Stretch colours to 0–%s"), high) + "###Stretch colours##weights_note";  // an ID
  if (ImGui::SmallButton(label.c_str())) {
    before_stretch_ = ui.view.weights_range;
    ui.view.weights_range = ui::WeightsRange::Auto;
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", i18n::tr("Colours from 0 to the largest weight (View > Weights scale), so small "
                                     "differences show.\nThe numbers in the cells stay the same."));
  }
}

HeatmapMetrics HeatmapsPanel::metrics(const ui::UiContext& ui, int title_lines) const {
  const Problem& problem = ui.session.problem();
  const float s = ui.ui_scale;
  const float font = ImGui::GetFontSize();
  HeatmapMetrics m;
  m.rows = problem.n();
  m.cols = problem.m();
  m.label_w = heatmap::HeatmapWidget::row_label_width(problem.tokens, 150.0f * s);
  m.decorations =
      title_height(title_lines) + colorbar_height() + (weights_note_shown(ui) ? weights_note_height() : 0.0f);
  m.gap = 18.0f * s;
  m.overhang = heatmap::HeatmapWidget::label_overhang();
  m.min_cell = min_cell(font);
  // Presenting, small matrices keep their numbers: cells as wide as a number (the panel scrolls).
  if (numbers_kept(ui)) {
    const bool signed_values =
        ui.view.head_view == ui::HeadView::RawScores || ui.view.head_view == ui::HeadView::ScaledScores;
    m.min_cell = std::max(m.min_cell, heatmap::number_cell(signed_values ? "-0.00" : "0.00"));
  }
  m.min_side = 6.0f * font;
  const std::vector<std::string>* labels = &problem.source_tokens;
  m.col_label_h = [labels, s](float cell_px) {
    return heatmap::HeatmapWidget::col_label_height(*labels, cell_px, 90.0f * s);
  };
  return m;
}

// The three steps in width × height, with one title line each or, when any formula does not
// fit beside its title, two lines for all three (so their rows stay aligned).
StepsLayout HeatmapsPanel::steps_layout(const ui::UiContext& ui, float width, float height, int& lines) const {
  lines = 1;
  StepsLayout layout = fit_steps(metrics(ui, 1), 3, width, height);
  for (ui::HeadView which : {ui::HeadView::RawScores, ui::HeadView::ScaledScores, ui::HeadView::Weights}) {
    const std::string formula = step_formula(ui, which);
    lines = std::max(lines, title_lines(step_title(which), formula.c_str(), title_place(layout.box).room));
  }
  if (lines > 1) layout = fit_steps(metrics(ui, lines), 3, width, height);
  return layout;
}

// The row under the three steps at its smallest: the context at its readable minimum.
float HeatmapsPanel::lower_row_min(const ui::UiContext& ui) const {
  const HeatmapMetrics m = metrics(ui, 1);
  const float rows = static_cast<float>(std::min(ui.session.problem().n(), ui::kLongSentence));
  return title_height(1) + ImGui::GetFontSize() + 8.0f + std::max(rows * m.min_cell, m.min_side) + colorbar_height();
}

// Auto: the three steps side by side while they fit at a readable size (not for a long
// sentence), else the weights alone, large.
ui::HeadView HeatmapsPanel::automatic_view(const ui::UiContext& ui, ImVec2 area) const {
  const Problem& problem = ui.session.problem();
  if (ui::is_long_sentence(std::max(problem.n(), problem.m()))) return ui::HeadView::Weights;
  int lines = 1;
  const float budget = steps_budget(area.y, lower_row_min(ui));
  return steps_layout(ui, area.x, budget, lines).fits(area.x, budget) ? ui::HeadView::AllThree : ui::HeadView::Weights;
}

// One step of the selected head, its title above and its colorbar below.
void HeatmapsPanel::draw_step(ui::UiContext& ui, const char* id, ui::HeadView which, int head, const HeatmapBox& g,
                              int lines) {
  const compute::ComputeSession& session = ui.session;
  const Problem& problem = session.problem();
  const HeadMatrix matrix = which == ui::HeadView::Weights ? HeadMatrix::Weights : HeadMatrix::Scores;
  const float x = ImGui::GetCursorPosX();
  const float y = ImGui::GetCursorPosY();
  const std::string formula = step_formula(ui, which);
  const TitlePlace place = title_place(g);
  const bool below = lines > 1;  // the three formulas in one line under their titles, as the rows are
  ImGui::SetCursorPosX(x + place.offset);
  title_line(step_title(which), formula.c_str(), place.room, below);
  export_ui::heatmap_export_button(ui, export_ui::quantity_for(which), x + g.label_w + g.cells_w);
  if (below) {
    ImGui::SetCursorPosX(x + place.offset);
    formula_line(formula.c_str(), g.width() - place.offset);
  }
  ImGui::SetCursorPos(ImVec2(x, y + title_height(lines)));

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
  if (which == ui::HeadView::Weights) {
    spec.colormap = ui.view.weights_colormap;
    spec.range_min = ranges_.weights.min;
    spec.range_max = ranges_.weights.max;
    spec.mask = &problem.mask;
    spec.log_scale = ui::resolve(ui.view.weights_range, std::max(problem.n(), problem.m())) == ui::WeightsRange::Log;
    const compute::MatrixSource kept = session.kept_matrix(head);  // dropout: dropped weights hatched
    spec.kept = {kept.device, kept.host, kept.version};
  } else if (which == ui::HeadView::ScaledScores) {
    spec.value_scale = problem.scale;
    spec.distance_bias = head_slopes(problem).at(static_cast<std::size_t>(head));  // ALiBi: what the softmax sees
    spec.range_min = ranges_.scaled.min;
    spec.range_max = ranges_.scaled.max;
    spec.mask = &problem.mask;
  } else {
    spec.range_min = ranges_.raw.min;
    spec.range_max = ranges_.raw.max;
  }
  spec.mask_head = head;  // a mask expression using h: this head's mask
  spec.mask_heads = problem.num_heads;
  const HeatmapHover hover = ui.heatmaps.draw(id, spec);
  ImGui::SetCursorPosX(x + g.label_w);
  ui.heatmaps.colorbar(spec.colormap, spec.range_min, spec.range_max, g.cells_w,
                       which == ui::HeadView::Weights ? i18n::tr("weight") : nullptr, spec.log_scale);
  if (which == ui::HeadView::Weights && weights_note_shown(ui)) {
    ImGui::SetCursorPosX(x);
    draw_weights_note(ui, g.cells_w + g.label_w);
  }
  handle_hover(ui, hover, head);
  export_ui::heatmap_hover_actions(ui, export_ui::quantity_for(which), hover.hovered);  // Ctrl+C: copy as CSV
}

heatmap::BarColours HeatmapsPanel::weight_bars(const ui::UiContext& ui) const {
  const Problem& problem = ui.session.problem();
  const bool log = ui::resolve(ui.view.weights_range, std::max(problem.n(), problem.m())) == ui::WeightsRange::Log;
  return {ui.view.weights_colormap, ranges_.weights.min, ranges_.weights.max, log};
}

heatmap::BarColours HeatmapsPanel::context_bars(const ui::UiContext& ui) const {
  return {ui.view.scores_colormap, ranges_.context.min, ranges_.context.max, false};
}

void HeatmapsPanel::handle_hover(ui::UiContext& ui, const HeatmapHover& hover, int head) {
  if (hover.hovered && hover.row >= 0 && hover.col >= 0) tooltip(ui, head, hover.row, hover.col);
  if (!hover.hovered && hover.row >= 0) ui.view.hovered_token_next = hover.row;  // a row label
  if (!hover.hovered && hover.col >= 0 && !ui.session.problem().cross_attention) ui.view.hovered_token_next = hover.col;
  if (hover.clicked && hover.row >= 0) ui::toggle_pinned(ui.view.pinned_query, hover.row);
}

void HeatmapsPanel::tooltip(const ui::UiContext& ui, int head, int row, int col) const {
  const compute::ComputeSession& session = ui.session;
  const Problem& problem = session.problem();
  const Matrix* scores = session.host_matrix(head, HeadMatrix::Scores);
  const Matrix* weights = session.host_matrix(head, HeadMatrix::Weights);
  if (scores == nullptr || weights == nullptr || row >= scores->rows || col >= scores->cols) return;
  const HeadResult* shown_head = session.head_result(head);  // Vulkan reads back this head alone
  if (shown_head == nullptr) return;
  const HeadResult& head_result = *shown_head;
  const bool visible = session.mask_matrix(head).at(row, col);
  ImGui::BeginTooltip();
  ImGui::Text(i18n::tr("query  %s  (row %d)"), token_text(problem.tokens, row).c_str(), row);
  ImGui::Text(i18n::tr("key    %s  (column %d)"), token_text(problem.source_tokens, col).c_str(), col);
  ImGui::Separator();
  const float raw = scores->at(row, col);
  ImGui::Text(i18n::tr("raw score  q·k = %.5g"), static_cast<double>(raw));
  const float slope = head_slopes(problem).at(static_cast<std::size_t>(head));
  if (slope != 0.0f) {
    ImGui::Text(i18n::tr("scaled score  × %.4g − %.4g·|%d − %d| = %.5g"), static_cast<double>(problem.scale),
                static_cast<double>(slope), row, col,
                static_cast<double>(scaled_score(raw, problem.scale, slope, row, col)));
  } else {
    ImGui::Text(i18n::tr("scaled score  × %.4g = %.5g"), static_cast<double>(problem.scale),
                static_cast<double>(raw * problem.scale));
  }
  const bool dropped = !head_result.kept.visible.empty() && !head_result.kept.at(row, col);
  if (visible && dropped) {
    ImGui::Text(i18n::tr("weight %.5g, dropped by dropout: 0"),
                static_cast<double>(head_result.weights_before_dropout.at(row, col)));
  } else if (visible && !head_result.weights_before_dropout.empty()) {
    ImGui::Text(i18n::tr("weight %.5g × 1/(1 − p) = %.5g after dropout"),
                static_cast<double>(head_result.weights_before_dropout.at(row, col)),
                static_cast<double>(weights->at(row, col)));
  } else if (visible) {
    ImGui::Text(i18n::tr("weight = %.5g"), static_cast<double>(weights->at(row, col)));
  } else {
    ImGui::TextColored(ui::palette::vec4(ui::palette::error_text()), "%s",
                       i18n::tr("masked: this query cannot see this key (weight 0)"));
  }
  ImGui::EndTooltip();
}

void HeatmapsPanel::draw_context(ui::UiContext& ui, int head, const HeatmapBox& g, int lines) {
  const compute::ComputeSession& session = ui.session;
  const Problem& problem = session.problem();
  if (static_cast<int>(dims_.size()) != problem.d_v) {
    dims_.clear();
    for (int i = 0; i < problem.d_v; ++i) dims_.push_back(std::to_string(i));
  }
  const float x = ImGui::GetCursorPosX();
  const float y = ImGui::GetCursorPosY();
  const char* formula = "C = A·V";
  const float room = title_room(g.cells_w + g.label_w);
  const bool below = lines > 1 && title_lines(i18n::tr("Context"), formula, room) > 1;
  title_line(i18n::tr("Context"), formula, room, below);
  export_ui::heatmap_export_button(ui, exporting::Quantity::Context, x + g.label_w + g.cells_w);
  if (below) {
    ImGui::SetCursorPosX(x);
    formula_line(formula, g.label_w + g.cells_w);
  }
  ImGui::SetCursorPos(ImVec2(x, y + title_height(lines)));
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
    ImGui::Text(i18n::tr("context of  %s  (row %d)"), token_text(problem.tokens, hover.row).c_str(), hover.row);
    ImGui::Text(i18n::tr("component %d = %.5g"), hover.col, static_cast<double>(values->at(hover.row, hover.col)));
    ImGui::EndTooltip();
  }
  export_ui::heatmap_hover_actions(ui, exporting::Quantity::Context, hover.hovered);  // Ctrl+C: copy as CSV
  if (!hover.hovered && hover.row >= 0) ui.view.hovered_token_next = hover.row;
  if (hover.clicked && hover.row >= 0) ui.view.pinned_query = hover.row;
}

// Small sentences: raw scores → scaled and masked → weights side by side, and below them the
// context, the all-heads grid and the pinned query. Smaller than readable, it scrolls.
void HeatmapsPanel::draw_all_three(ui::UiContext& ui, int head, ImVec2 area) {
  const Problem& problem = ui.session.problem();
  const float s = ui.ui_scale;
  const float font = ImGui::GetFontSize();
  const float gap = 18.0f * s;
  const float row_gap = 24.0f * s;
  const bool with_grid = problem.num_heads > 1;  // one head: nothing to choose between
  const float pinned_min = 260.0f * s;

  // The lower row needs the context at its readable minimum; the steps take the rest.
  HeatmapMetrics lower = metrics(ui, 1);
  const float context_label_h = font + 8.0f;
  const float lower_min = lower_row_min(ui);
  const float separator = separator_height();
  int lines = 1;
  StepsLayout steps = steps_layout(ui, area.x, steps_budget(area.y, lower_min), lines);
  float lower_h = std::max(area.y - steps.height - separator, lower_min);
  HeatmapBox context = fit_context(lower, problem.d_v, context_label_h, context_col_min(font, problem.d_v),
                                   context_col_max(font), area.x * 0.3f, lower_h);
  float lower_w = context.width() + lower.overhang + row_gap + pinned_min;
  float grid_w = 0.0f;
  if (with_grid) {
    grid_w = std::floor(std::clamp(area.x * 0.28f, 160.0f * s, std::max(lower_h * 1.4f, 200.0f * s)));
    lower_w += grid_w + row_gap;
  }
  // Scrollbars take room from the other direction: lay out once more without it.
  ImVec2 content(std::max({area.x, steps.width, lower_w}), steps.height + separator + lower_h);
  const float bar = ImGui::GetStyle().ScrollbarSize;
  if (content.x > area.x + 0.5f) lower_h = std::max(lower_h - bar, lower_min);
  if (content.y > area.y + 0.5f && content.x <= area.x + 0.5f) {
    steps = steps_layout(ui, area.x - bar, steps_budget(area.y, lower_min), lines);
  }
  content = ImVec2(std::max({area.x - bar, steps.width, lower_w}), steps.height + separator + lower_h);

  if (begin_body("##steps_body", area, content)) {
    const float y = ImGui::GetCursorPosY();
    float x = ImGui::GetCursorPosX();
    const ui::HeadView views[3] = {ui::HeadView::RawScores, ui::HeadView::ScaledScores, ui::HeadView::Weights};
    const char* ids[3] = {"##raw", "##scaled", "##weights"};
    for (int i = 0; i < 3; ++i) {
      ImGui::SetCursorPos(ImVec2(x, y));
      ImGui::BeginGroup();
      draw_step(ui, ids[i], views[i], head, steps.box, lines);
      ImGui::EndGroup();
      x += steps.box.width() + gap;
    }
    ImGui::SetCursorPos(ImVec2(ImGui::GetCursorStartPos().x, y + steps.height));
    ImGui::Separator();
    const float pinned_w = std::max(
        content.x - context.width() - lower.overhang - row_gap - (with_grid ? grid_w + row_gap : 0.0f), pinned_min);
    const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
    ImGui::BeginChild("##context_area", ImVec2(context.width() + lower.overhang, lower_h), false, fixed);
    draw_context(ui, head, context, 1);
    ImGui::EndChild();
    if (with_grid) {
      ImGui::SameLine(0.0f, row_gap);
      ImGui::BeginChild("##heads", ImVec2(grid_w, lower_h), false, fixed);
      draw_head_grid(ui, grid_w, lower_h, steps.box.cells_w);
      ImGui::EndChild();
    }
    ImGui::SameLine(0.0f, row_gap);
    ImGui::BeginChild("##pinned", ImVec2(pinned_w, lower_h), false);  // scrolls when the UI is scaled up
    draw_pinned_query(ui, head, pinned_w - 8.0f * s, lower_h, weight_bars(ui), context_bars(ui));
    ImGui::EndChild();
  }
  ImGui::EndChild();
}

// Long sentences (or by choice): one step large with the context beside it (rows aligned),
// and a column with the all-heads grid and the pinned query.
void HeatmapsPanel::draw_focus(ui::UiContext& ui, int head, ui::HeadView which, ImVec2 area) {
  const Problem& problem = ui.session.problem();
  const float s = ui.ui_scale;
  const float font = ImGui::GetFontSize();
  FocusInput in;
  in.d_v = problem.d_v;
  in.context_col_min = context_col_min(font, problem.d_v);
  in.context_col_max = context_col_max(font);
  in.side_min = 240.0f * s;
  in.side_max = 520.0f * s;
  in.below_min_h = 320.0f * s;
  // Presenting with numbers, the width is the heatmaps': all heads and the pinned query go below.
  in.side_below = numbers_kept(ui);
  // ... and the context beside the numbered heatmap takes the width left, down to columns as
  // narrow as their labels (its own numbers come back with a wider window).
  if (in.side_below) {
    in.context_col_min =
        std::ceil(ImGui::CalcTextSize(std::to_string(std::max(problem.d_v - 1, 0)).c_str()).x + 0.25f * font);
  }
  // The step's title and the context's may need a second line; both get the same, so their
  // rows stay aligned.
  FocusLayout layout = fit_focus(metrics(ui, 1), in, area.x, area.y);
  const std::string formula = step_formula(ui, which);
  const int lines = std::max(title_lines(step_title(which), formula.c_str(), title_place(layout.main).room),
                             title_lines(i18n::tr("Context"), "C = A·V", title_room(layout.context_w)));
  if (lines > 1) layout = fit_focus(metrics(ui, lines), in, area.x, area.y);
  const float bar = ImGui::GetStyle().ScrollbarSize;
  if (layout.height > area.y + 0.5f && layout.width <= area.x + 0.5f)
    layout = fit_focus(metrics(ui, lines), in, area.x - bar, area.y);
  const ImVec2 content(std::max(layout.width, area.x - bar), std::max(layout.height, area.y - bar));

  if (begin_body("##focus_body", area, content)) {
    const float gap = 18.0f * s;
    HeatmapBox context = layout.main;
    context.label_w = 0.0f;
    context.cells_w = layout.context_w;
    ImGui::BeginGroup();
    draw_step(ui, "##focused", which, head, layout.main, lines);
    ImGui::EndGroup();
    ImGui::SameLine(0.0f, gap);
    ImGui::BeginGroup();
    draw_context(ui, head, context, lines);
    ImGui::EndGroup();
    const float side_h = layout.side_below ? layout.side_h : std::max(layout.side_h, area.y - bar);
    if (layout.side_below)
      ImGui::Separator();
    else
      ImGui::SameLine(0.0f, gap);
    const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
    ImGui::BeginChild("##side", ImVec2(layout.side_w, side_h), false, fixed);
    if (problem.num_heads > 1) {
      const float grid_h = std::floor(side_h * 0.45f);
      ImGui::BeginChild("##heads", ImVec2(layout.side_w, grid_h), false, fixed);
      draw_head_grid(ui, layout.side_w, grid_h, layout.main.cells_w * 0.5f);
      ImGui::EndChild();
      ImGui::Separator();
    }
    draw_pinned_query(ui, head, layout.side_w - 8.0f * s, ImGui::GetContentRegionAvail().y, weight_bars(ui),
                      context_bars(ui));
    ImGui::EndChild();
  }
  ImGui::EndChild();
}

void HeatmapsPanel::draw(ui::UiContext& ui) {
  // A pretrained model, while one is open (app/panels/model_parts.cpp); the scenario on request.
  if (heatmaps_show_model(ui)) {
    model_heatmaps_.draw(ui);
    return;
  }
  if (ui.model.has_model() && ImGui::SmallButton(i18n::tr_label("Show the model").c_str()))
    ui.view.heatmaps_show_scenario = false;
  if (overview_.wanted(ui)) {
    overview_.draw(ui);
    return;
  }
  ui.view.overview_status = {};
  const compute::ComputeSession& session = ui.session;
  if (!session.has_result()) {
    if (session.error().empty())
      ui::text_wrapped("%s", i18n::tr("Nothing to show yet."));
    else
      ui::text_wrapped(i18n::tr("Nothing to show yet: %s"), session.error().c_str());
    return;
  }
  const Problem& problem = session.problem();
  ui.view.selected_head = std::clamp(ui.view.selected_head, 0, problem.num_heads - 1);
  if (ui.view.pinned_query && *ui.view.pinned_query >= problem.n()) ui.view.pinned_query.reset();
  // The zoom follows the matrix: one that showed everything still does after the sentence
  // grew, one left over from a larger matrix is clamped (axis_math.h: kept_window).
  ui.view.head_zoom = heatmap::kept_window(ui.view.head_zoom, problem.n(), problem.m());
  const ImGuiIO& io = ImGui::GetIO();
  ui::keys::claim_from_navigation(ui::keys::kHome);
  if (ui::keys::plain_keys_free() && !io.KeyCtrl && !io.KeyAlt && !io.KeyShift &&
      ImGui::IsKeyPressed(ui::keys::kHome, false)) {
    ui.view.head_zoom = {0.0f, 0.0f, 0.0f, 0.0f};  // Home: show the whole matrix
  }
  const int head = ui.view.selected_head;
  update_ranges(ui, head);

  draw_heatmaps_toolbar(ui, problem.num_heads);
  if (const std::string note = session.kernel_preparation_note(); !note.empty())
    ImGui::TextDisabled("%s", note.c_str());
  if (!session.error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
    ui::text_wrapped(i18n::tr("Showing the last result that could be computed. %s"), session.error().c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Spacing();
  const ImVec2 area = ImGui::GetContentRegionAvail();
  ui::HeadView view = ui.view.head_view;
  if (view == ui::HeadView::Auto) view = automatic_view(ui, area);
  if (view == ui::HeadView::AllThree)
    draw_all_three(ui, head, area);
  else
    draw_focus(ui, head, view, area);
}

}  // namespace

std::unique_ptr<ui::Panel> make_heatmaps_panel() { return std::make_unique<HeatmapsPanel>(); }

}  // namespace attnviz::panels
