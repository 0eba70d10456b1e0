#include "app/classroom/scaling_lesson.h"

#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "app/compute/compute_session.h"
#include "app/state/document.h"
#include "core/lesson/number_text.h"

namespace attnviz::classroom {
namespace {

void set_scale(ui::UiContext& ui, ScaleSetting scale, const char* label, const char* merge_key = "") {
  Scenario next = ui.document.scenario();
  if (next.scale == scale) return;
  next.scale = scale;
  ui.document.apply(std::move(next), label, merge_key);
}

}  // namespace

float row_stats_column_width() { return ImGui::CalcTextSize("0.00 bits   0.00").x + ImGui::GetStyle().ItemSpacing.x * 2.0f; }

void draw_row_stats_column(const std::vector<lesson::RowStats>& rows, float left, float cells_top, float cells_height) {
  if (rows.empty()) return;
  ImDrawList* list = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  const float row_h = cells_height / static_cast<float>(rows.size());
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 caption = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  list->AddText(ImVec2(left, cells_top - font * 1.2f), caption, "entropy    max");
  if (row_h < font * 0.9f) return;  // too many rows for one line each: the summary says it
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const lesson::RowStats& s = rows[r];
    const std::string line = s.visible_keys == 0
                                 ? std::string("(no key)")
                                 : lesson::format_number(s.entropy_bits, 2) + " bits   " + lesson::format_number(s.max_weight, 2);
    const float y = cells_top + row_h * (static_cast<float>(r) + 0.5f) - font * 0.5f;
    list->AddText(ImVec2(left, std::round(y)), text, line.c_str());
  }
}

void draw_row_stats_summary(const std::vector<lesson::RowStats>& rows) {
  const lesson::RowStatsSummary summary = lesson::summarize(rows);
  ImGui::Text("Rows: mean entropy %s of %s bits, mean max weight %s   (S: scaling on/off)",
              lesson::format_number(summary.mean_entropy_bits, 2).c_str(),
              lesson::format_number(summary.mean_uniform_entropy_bits, 2).c_str(),
              lesson::format_number(summary.mean_max_weight, 2).c_str());
}

void draw_scaling_controls(ui::UiContext& ui, int head) {
  const compute::ComputeSession& session = ui.session;
  const Problem& problem = session.problem();
  const Result& result = session.shown_result();
  const Matrix& scores = result.heads[static_cast<std::size_t>(head)].scores;
  const std::vector<lesson::ScaleCase> cases = lesson::scaling_contrast(scores, result.mask, problem.d_k, problem.scale);

  ImGui::TextUnformatted("How peaked is each row? (entropy in bits: 0 = all weight on one key)");
  if (ImGui::BeginTable("##scaling", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("scale");
    ImGui::TableSetupColumn("mean entropy");
    ImGui::TableSetupColumn("mean max weight");
    ImGui::TableHeadersRow();
    for (const lesson::ScaleCase& c : cases) {
      const bool current = static_cast<float>(c.scale) == problem.scale;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%s%s", c.label.c_str(), current ? "  \xe2\x86\x90 now" : "");
      ImGui::TableNextColumn();
      ImGui::Text("%s of %s bits", lesson::format_number(c.summary.mean_entropy_bits, 2).c_str(),
                  lesson::format_number(c.summary.mean_uniform_entropy_bits, 2).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(lesson::format_number(c.summary.mean_max_weight, 3).c_str());
    }
    ImGui::EndTable();
  }

  const ScaleSetting& scale = ui.document.scenario().scale;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Scale:");
  ImGui::SameLine();
  if (ImGui::RadioButton("1/\xe2\x88\x9a" "d_k", scale.kind == ScaleSetting::Kind::InvSqrtDk))
    set_scale(ui, {ScaleSetting::Kind::InvSqrtDk, 1.0}, "Scale: 1/\xe2\x88\x9a" "d_k");
  ImGui::SameLine();
  if (ImGui::RadioButton("none (the mistake)", scale.kind == ScaleSetting::Kind::None))
    set_scale(ui, {ScaleSetting::Kind::None, 1.0}, "Scale: none");
  ImGui::SameLine();
  float value = problem.scale;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
  if (ImGui::SliderFloat("factor", &value, 0.05f, 4.0f, "%.3f", ImGuiSliderFlags_Logarithmic))
    set_scale(ui, {ScaleSetting::Kind::Value, static_cast<double>(value)}, "Scale factor", "classroom:scale");
  if (ImGui::IsItemDeactivatedAfterEdit()) ui.document.end_merge();
}

}  // namespace attnviz::classroom
