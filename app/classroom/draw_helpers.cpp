#include "app/classroom/draw_helpers.h"

#include <imgui.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "app/document/document.h"
#include "app/edits/text_edits.h"
#include "app/i18n/translate.h"
#include "app/ui/first_tokens_button.h"
#include "app/ui/long_text.h"
#include "app/ui/text_lines.h"
#include "app/ui/theme.h"
#include "app/ui/view_state.h"
#include "app/window/fonts.h"
#include "core/common/number_text.h"
#include "core/scenario/problem.h"

namespace attnviz::classroom {

ImFont* cell_font() {
  ImFont* font = window::fonts().small;
  return font != nullptr ? font : ImGui::GetFont();
}

void heading_text(const std::string& text) {
  ImFont* font = window::fonts().heading;
  if (font != nullptr) ImGui::PushFont(font);
  ui::text_lines(text);
  if (font != nullptr) ImGui::PopFont();
}

float heading_height(const std::string& text, float width) {
  ImFont* font = window::fonts().heading != nullptr ? window::fonts().heading : ImGui::GetFont();
  const float size = font->FontSize * ImGui::GetIO().FontGlobalScale;
  // Broken as heading_text breaks it (ui::text_lines leaves a pixel for rounding).
  const std::string lines = ui::break_at_spaces(text, width - 1.0f, [font, size](std::string_view run) {
    return font->CalcTextSizeA(size, 1e9f, 0.0f, run.data(), run.data() + run.size()).x;
  });
  return font->CalcTextSizeA(size, 1e9f, std::max(width, 1.0f), lines.c_str()).y + ImGui::GetStyle().ItemSpacing.y;
}

void same_line_if_fits(float width, float right) {
  ImGui::SameLine();
  if (ImGui::GetCursorPosX() + width > right) ImGui::NewLine();
}

float button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2.0f;
}

bool pill(const char* label, bool selected, float min_width) {
  if (selected) {
    ImGui::PushStyleColor(ImGuiCol_Button, ui::accent_colour());
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ui::accent_hover_colour());
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
  }
  const bool clicked = ImGui::Button(label, ImVec2(min_width, 0));
  if (selected) ImGui::PopStyleColor(3);
  return clicked;
}

void head_pills(int heads, int& selected, float group_gap, float right, int id_base) {
  if (heads <= 1) return;
  const float pill_gap = ImGui::GetStyle().ItemSpacing.x * 0.5f;
  const char* caption = i18n::tr("Head");
  float pills_w = ImGui::CalcTextSize(caption).x;
  for (int h = 0; h < heads; ++h) pills_w += button_width(std::to_string(h).c_str()) + pill_gap;
  ImGui::SameLine(0.0f, group_gap);
  if (ImGui::GetCursorPosX() + pills_w > right) ImGui::NewLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(caption);
  const int shown = std::clamp(selected, 0, heads - 1);
  for (int h = 0; h < heads; ++h) {
    ImGui::SameLine(0.0f, pill_gap);
    ImGui::PushID(id_base + h);
    if (pill(std::to_string(h).c_str(), h == shown)) selected = h;
    ImGui::PopID();
  }
}

int token_chips(const char* id, const std::string& caption, const std::vector<std::string>& tokens, int highlight) {
  ImGui::PushID(id);
  int clicked = -1;
  if (!caption.empty()) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(caption.c_str());
    ImGui::SameLine();
  }
  const float right = ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x;
  const float spacing = ImGui::GetStyle().ItemSpacing.x * 0.6f;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    const std::string label = ui::token_label(tokens[i]);
    const float width = ImGui::CalcTextSize(label.c_str()).x + ImGui::GetStyle().FramePadding.x * 2.0f;
    if (i > 0) {
      ImGui::SameLine(0.0f, spacing);
      if (ImGui::GetCursorScreenPos().x + width > right) ImGui::NewLine();
    }
    if (pill(label.c_str(), static_cast<int>(i) == highlight)) clicked = static_cast<int>(i);
    ImGui::PopID();
  }
  ImGui::PopID();
  return clicked;
}

std::vector<std::string> wrap_at_spaces(const std::string& text, float width, bool hanging) {
  const float indent = hanging ? ImGui::GetFontSize() : 0.0f;
  const std::string broken = ui::break_at_spaces(
      text, width, [](std::string_view run) { return ImGui::CalcTextSize(run.data(), run.data() + run.size()).x; },
      indent);
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end = broken.find('\n'); end != std::string::npos; start = end + 1, end = broken.find('\n', start)) {
    lines.push_back(broken.substr(start, end - start));
  }
  lines.push_back(broken.substr(start));
  return lines;
}

void text_wrapped_at_spaces(const std::string& line, float width, bool hanging) {
  if (width <= 0.0f) width = ImGui::GetContentRegionAvail().x;
  const float indent = ImGui::GetFontSize();
  const std::vector<std::string> lines = wrap_at_spaces(line, width, hanging);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const bool indented = hanging && i > 0;
    if (indented) ImGui::Indent(indent);
    ImGui::TextUnformatted(lines[i].c_str());
    if (indented) ImGui::Unindent(indent);
  }
}

std::uint64_t fresh_upload_version() {
  // Far above any document revision or session generation the window counts.
  static std::atomic<std::uint64_t> next{std::uint64_t{1} << 48};
  return next.fetch_add(1);
}

bool all_finite(const Matrix& values) {
  for (float v : values.data)
    if (!std::isfinite(v)) return false;
  return true;
}

Matrix finite_copy(const Matrix& values) {
  Matrix copy = values;
  for (float& v : copy.data)
    if (!std::isfinite(v)) v = 0.0f;
  return copy;
}

void nothing_to_show(ui::UiContext& ui, const char* lead) {
  if (ui.session.only_the_overview_shows()) {
    const int limit = ProblemLimits{}.max_tokens;
    const std::string most = format_grouped(limit);
    ui::text_wrapped("%s",
                     i18n::format(i18n::tr("This text has more than the %s tokens whose every matrix the window "
                                           "keeps, and this view shows every matrix, so it cannot show this text. "
                                           "The Heatmaps view shows its exact overview; its first %s tokens can be "
                                           "followed here (Ctrl+Z brings the whole text back)."),
                                  most.c_str(), most.c_str())
                         .c_str());
    if (ImGui::Button(i18n::tr_label("Show the overview", "Show the overview##only_the_overview").c_str()))
      ui.view.select_main_tab = "Heatmaps";  // not translated: the tab's ID
    if (edits::texts_can_be_cut(ui.document.scenario())) {
      ImGui::SameLine();
      ui::keep_first_tokens_button(ui, "##only_the_overview", limit);
    }
    return;
  }
  ui::text_wrapped("%s %s", lead, ui.session.error().c_str());
}

}  // namespace attnviz::classroom
