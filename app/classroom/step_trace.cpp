#include "app/classroom/step_trace.h"

#include "app/classroom/draw_helpers.h"
#include "app/i18n/translate.h"
#include "app/ui/text_lines.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace attnviz::classroom {
namespace {

// highlight: whether the selected cell's key gets a highlighted row (the Scores page, where
// the arithmetic check below is about that cell).
void draw_trace_table(const lesson::TraceTable& table, bool highlight_key) {
  const int columns = static_cast<int>(table.header.size());
  if (table.empty() || columns == 0) return;
  const ImGuiTableFlags flags =
      ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_BordersOuter | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("##trace-table", columns, flags)) return;
  for (const std::string& title : table.header) ImGui::TableSetupColumn(title.c_str());
  ImGui::TableHeadersRow();
  const ImU32 highlight = ImGui::GetColorU32(ImGuiCol_ButtonHovered);
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    ImGui::TableNextRow();
    if (highlight_key && static_cast<int>(r) == table.highlight_row)
      ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, highlight);
    for (const std::string& cell : table.rows[r]) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(cell.c_str());  // a value row broken by the page ("…,\n …") stays in its cell
    }
  }
  ImGui::EndTable();
  if (!table.more.empty()) ImGui::TextDisabled("%s", table.more.c_str());
}

void draw_lines(const std::vector<std::string>& lines) {
  for (const std::string& line : lines) {
    // The arithmetic check gets its own block (core/lesson's English line starts so).
    if (line.rfind("Check", 0) == 0) {  // not translated: core/lesson's text
      ImGui::Spacing();
      ImGui::Separator();
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      text_wrapped_at_spaces(line);
      ImGui::PopStyleColor();
      continue;
    }
    text_wrapped_at_spaces(line);
  }
}

}  // namespace

void draw_step_note(const lesson::StepPage& page) {
  ImGui::PushTextWrapPos(0.0f);
  ui::text_wrapped_disabled("%s", page.note.c_str());
  ImGui::PopTextWrapPos();
  ImGui::Separator();
}

void draw_step_trace(const lesson::StepPage& page) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_CheckMark));
  text_wrapped_at_spaces(page.trace_heading);
  ImGui::PopStyleColor();
  ImGui::Separator();
  draw_lines(page.trace);
  draw_trace_table(page.table, page.kind == lesson::StepKind::Scores);  // columns fit their numbers: no wrapping
  draw_lines(page.trace_after);
  if (page.kind == lesson::StepKind::Scores) {
    ImGui::PushTextWrapPos(0.0f);
    ui::text_wrapped_disabled("%s", i18n::tr("(click a cell of S to check another one)"));
    ImGui::PopTextWrapPos();
  }
}

TraceFit fit_trace(float width, float height, int vector_length) {
  TraceFit fit;
  // The table below the note and the trace heading, with up to ~14 lines of text around it
  // (the arithmetic check is the longest).
  const float row_h = ImGui::GetTextLineHeight() + ImGui::GetStyle().CellPadding.y * 2.0f;
  const float table_h = height - ImGui::GetTextLineHeightWithSpacing() * 14.0f;
  fit.rows = std::clamp(static_cast<int>(table_h / row_h), 8, 64);
  // The value column of the weighted-sum table: what is left after the key and weight columns.
  const float term_w = ImGui::CalcTextSize("\u22120.000, ").x;  // format_number writes U+2212
  // A sample of the key column's widest cell, as core/lesson writes it.
  const float left =
      width -
      ImGui::CalcTextSize("\xea\xb3\xa0\xed\x8c\x8c\xec\x84\x9c  0 (hidden)  (").x -  // not translated: a measure
      ImGui::GetStyle().CellPadding.x * 6.0f - ImGui::GetStyle().WindowPadding.x * 2.0f;
  const int terms = std::max(1, static_cast<int>(std::floor(left / term_w)));
  fit.vector_terms = terms >= vector_length ? 0 : terms;
  return fit;
}

}  // namespace attnviz::classroom
