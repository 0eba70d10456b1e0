// The Heatmaps panel's side pieces: the all-heads grid of weight thumbnails and the pinned
// query's weights and context vector as bars, plus the headings every part uses.

#include "app/i18n/translate.h"
#include "app/panels/heatmaps_parts.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/compute/compute_session.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/heatmap/query_bars.h"
#include "app/heatmap/value_range.h"
#include "app/ui/long_text.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "app/window/fonts.h"

namespace attnviz::panels {

using compute::HeadMatrix;
using heatmap::HeatmapHover;
using heatmap::HeatmapSpec;

std::string token_text(const std::vector<std::string>& tokens, int i) {
  return i >= 0 && i < static_cast<int>(tokens.size()) ? ui::token_label(tokens[static_cast<std::size_t>(i)]) : "?";
}

std::string in_quotes(std::string_view text) { return "\xe2\x80\x9c" + std::string(text) + "\xe2\x80\x9d"; }

void note_text(const std::string& text, bool problem) {
  ImGui::PushStyleColor(ImGuiCol_Text, problem ? ImGui::ColorConvertU32ToFloat4(ui::palette::error_text())
                                               : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ui::text_lines(text);
  ImGui::PopStyleColor();
}

float title_height(int lines) {
  const float line = ImGui::GetFontSize() * 1.15f;
  return line + static_cast<float>(std::max(lines, 1) - 1) * (line + ImGui::GetStyle().ItemSpacing.y) +
         ImGui::GetStyle().ItemSpacing.y + 2.0f;
}

float colorbar_height() {
  const float font = ImGui::GetFontSize();
  return std::round(font * 0.6f) + 2.0f + font + ImGui::GetStyle().ItemSpacing.y * 2.0f;
}

float heading_width(const char* title) {
  ImFont* font = window::fonts().heading;
  if (font != nullptr) ImGui::PushFont(font);
  const float w = ImGui::CalcTextSize(title).x;
  if (font != nullptr) ImGui::PopFont();
  return w;
}

int title_lines(const char* title, const char* formula, float width) {
  if (formula == nullptr || *formula == '\0') return 1;
  const float both = heading_width(title) + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(formula).x;
  return both <= width ? 1 : 2;
}

void title_line(const char* title, const char* formula, float width, bool formula_below) {
  ImFont* font = window::fonts().heading;
  if (font != nullptr) ImGui::PushFont(font);
  const std::string shown = heatmap::ellipsize(ImGui::GetFont(), ImGui::GetFontSize(), title, std::max(width, 1.0f));
  ImGui::TextUnformatted(shown.c_str());
  if (font != nullptr) ImGui::PopFont();
  if (shown != title && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", title);
  if (formula_below || formula == nullptr || *formula == '\0') return;
  ImGui::SameLine();
  ImGui::TextDisabled("%s", formula);
}

void formula_line(const char* formula, float width) {
  const std::string shown = heatmap::ellipsize(ImGui::GetFont(), ImGui::GetFontSize(), formula, std::max(width, 1.0f));
  ImGui::TextDisabled("%s", shown.c_str());
  if (shown != formula && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", formula);
}

// A bold title and, when it fits in `max_width` (default: the rest of the line), a grey formula.
void heading(const char* title, const char* formula, float max_width) {
  if (max_width <= 0.0f) max_width = ImGui::GetContentRegionAvail().x;
  title_line(title, formula, max_width, title_lines(title, formula, max_width) == 2);
}

void draw_head_grid(ui::UiContext& ui, float width, float height, float max_side) {
  const compute::ComputeSession& session = ui.session;
  const int heads = session.problem().num_heads;
  heading(i18n::tr("All heads"), i18n::tr("weights · click to select"));
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
  const float side = std::floor(std::clamp(best, 16.0f * ui.ui_scale, std::min(170.0f * ui.ui_scale, max_side)));
  // "head 12" over a thumbnail narrower than it would run into its neighbour's: "12" then.
  const bool short_captions =
      ImGui::CalcTextSize(i18n::format(i18n::tr("head %d"), heads - 1).c_str()).x > side + spacing * 0.5f;
  const ImVec2 start = ImGui::GetCursorPos();
  for (int h = 0; h < heads; ++h) {
    const int r = h / best_cols;
    const int c = h % best_cols;
    ImGui::SetCursorPos(ImVec2(start.x + static_cast<float>(c) * (side + spacing),
                               start.y + static_cast<float>(r) * (side + label_h + spacing)));
    ImGui::BeginGroup();
    const bool selected = h == ui.view.selected_head;
    ImGui::TextColored(
        selected ? ui::palette::vec4(ui::palette::selected_text()) : ImGui::GetStyleColorVec4(ImGuiCol_Text),
        short_captions ? "%d" : i18n::tr("head %d"), h);
    const compute::MatrixSource source = session.head_matrix(h, HeadMatrix::Weights);
    HeatmapSpec spec;
    spec.source.device = source.device;
    spec.source.host = source.host;
    spec.source.version = source.version;
    spec.colormap = ui.view.weights_colormap;
    const bool log = ui::resolve(ui.view.weights_range, std::max(session.problem().n(), session.problem().m())) ==
                     ui::WeightsRange::Log;
    spec.range_min = log ? heatmap::kLogWeights.min : 0.0f;
    spec.range_max = 1.0f;
    spec.log_scale = log;
    spec.mask = &session.problem().mask;
    spec.mask_head = h;
    spec.mask_heads = session.problem().num_heads;
    spec.cells_width = side;
    spec.cells_height = side;
    spec.numbers = false;
    spec.max_samples = 1;  // an overview: one read per pixel keeps long sentences fast
    const std::string id = "##head" + std::to_string(h);
    const HeatmapHover hover = ui.heatmaps.draw(id.c_str(), spec);
    if (selected) {
      const ImVec2 a = ImGui::GetItemRectMin();
      const ImVec2 b = ImGui::GetItemRectMax();
      ImGui::GetWindowDrawList()->AddRect(ImVec2(a.x - 3, a.y - 3), ImVec2(b.x + 3, b.y + 3),
                                          ui::palette::strong_blue(), 0.0f, 0, 3.0f * ui.ui_scale);
    }
    if (hover.clicked) ui.view.selected_head = h;
    if (hover.hovered) ImGui::SetTooltip(i18n::tr("head %d: click to show it above"), h);
    ImGui::EndGroup();
  }
}

void draw_pinned_query(ui::UiContext& ui, int head, float width, float height,
                       const heatmap::BarColours& weight_colours, const heatmap::BarColours& context_colours) {
  const compute::ComputeSession& session = ui.session;
  const Problem& problem = session.problem();
  if (!ui.view.pinned_query || *ui.view.pinned_query >= problem.n()) {
    heading(i18n::tr("Pinned query"), "");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ui::text_wrapped("%s", i18n::tr("Click a row of a heatmap to pin that query: its weights appear here as bars, with "
                                    "its context vector."));
    ImGui::PopStyleColor();
    return;
  }
  const int row = *ui.view.pinned_query;
  const Matrix* weights = session.host_matrix(head, HeadMatrix::Weights);
  const Matrix* context = session.host_matrix(head, HeadMatrix::Context);
  if (weights == nullptr || context == nullptr) return;
  // Bars keep the 0..1 scale while their values can be read off them; with many keys each
  // weight is small, so the bars scale to the largest one (and say so).
  const float row_max = std::max(heatmap::row_max_abs(*weights, row), 1e-6f);
  const bool unit_scale =
      ui::resolve(ui.view.weights_range, problem.m()) == ui::WeightsRange::ZeroToOne && problem.m() <= 24;
  const std::string scale_note = unit_scale
                                     ? std::string(i18n::tr("weights, 0 to 1"))
                                     : i18n::format(i18n::tr("weights; tallest %.3g"), static_cast<double>(row_max));
  heading(i18n::tr("Query"), "");
  ImGui::SameLine();
  ImGui::TextUnformatted(token_text(problem.tokens, row).c_str());  // the body font has Hangul
  ImGui::SameLine();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ui::text_wrapped(i18n::tr("(row %d) attends to each key:"), row);
  ImGui::TextUnformatted(scale_note.c_str());  // on its own line: a wrap must not split "0.0192"
  ImGui::PopStyleColor();
  const MaskMatrix& mask = session.mask_matrix(head);
  const float font = ImGui::GetFontSize();
  // Keys under the bars, every one while they fit, else every few with their index.
  const float label_h = std::min(90.0f * ui.ui_scale, font * 5.0f);
  const float avail_h = height - ImGui::GetFrameHeightWithSpacing() * 2.0f - font * 1.2f;
  heatmap::BarChart bars = heatmap::weights_row_chart(*weights, mask, row, &problem.source_tokens);
  bars.range_max = unit_scale ? 1.0f : row_max;
  bars.width = width;
  bars.height = std::max(avail_h * 0.62f - label_h, 40.0f * ui.ui_scale);
  bars.label_height = label_h;
  bars.highlight = ui.view.hovered_token;
  bars.colours = weight_colours;
  const int hovered = heatmap::draw_bar_chart("##weights_bars", bars);
  if (hovered >= 0 && !problem.cross_attention) ui.view.hovered_token_next = hovered;

  heading(i18n::tr("Context vector"), i18n::tr("its row of C = A·V"));
  heatmap::BarChart vector;
  vector.values = context->row(row);
  vector.count = context->cols;
  const float largest = std::max(heatmap::row_max_abs(*context, row), 1e-6f);
  vector.range_min = -largest;
  vector.range_max = largest;
  vector.width = std::min(width, static_cast<float>(context->cols) * 56.0f * ui.ui_scale);
  vector.height = std::max(avail_h * 0.38f, 30.0f * ui.ui_scale);
  vector.colours = context_colours;
  heatmap::draw_bar_chart("##context_bars", vector);
}

}  // namespace attnviz::panels
