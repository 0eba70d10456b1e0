#include "app/classroom/scaling_lesson.h"

#include <imgui.h>

#include <cmath>
#include <string>

#include "app/classroom/classroom_edits.h"
#include "app/classroom/draw_helpers.h"
#include "app/compute/compute_session.h"
#include "app/document/document.h"
#include "app/edits/model_edits.h"
#include "core/common/number_text.h"

namespace attnviz::classroom {
namespace {

void set_scale(ui::UiContext& ui, ScaleSetting scale, const char* label, const char* merge_key = "") {
  Scenario next = ui.document.scenario();
  if (next.scale == scale) return;
  next.scale = scale;
  ui.document.apply(std::move(next), label, merge_key);
}

}  // namespace

// Two numbers per row, "3.00   0.13", under the header "bits   max": narrow enough to leave the
// heatmap its cells on a projector.
float row_stats_column_width() {
  return std::max(ImGui::CalcTextSize("0.00   0.00").x, ImGui::CalcTextSize("entropy   max").x) +
         ImGui::GetStyle().ItemSpacing.x;
}

void draw_row_stats_column(const std::vector<lesson::RowStats>& rows, float left, float cells_top, float cells_height) {
  if (rows.empty()) return;
  ImDrawList* list = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  const float row_h = cells_height / static_cast<float>(rows.size());
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 caption = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const float max_x = left + ImGui::CalcTextSize("0.00   ").x;
  list->AddText(ImVec2(left, cells_top - font * 2.3f), caption, "entropy");
  list->AddText(ImVec2(left, cells_top - font * 1.2f), caption, "(bits)");
  list->AddText(ImVec2(max_x, cells_top - font * 1.2f), caption, "max");
  if (row_h < font * 0.9f) return;  // too many rows for one line each: the summary says it
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const lesson::RowStats& s = rows[r];
    const float y = std::round(cells_top + row_h * (static_cast<float>(r) + 0.5f) - font * 0.5f);
    if (s.visible_keys == 0) {
      list->AddText(ImVec2(left, y), caption, "(no key)");
      continue;
    }
    list->AddText(ImVec2(left, y), text, format_number(s.entropy_bits, 2).c_str());
    list->AddText(ImVec2(max_x, y), text, format_number(s.max_weight, 2).c_str());
  }
}

void draw_row_stats_summary(const std::vector<lesson::RowStats>& rows, int head, float width) {
  const lesson::RowStatsSummary summary = lesson::summarize(rows);
  const std::string whose = head >= 0 ? "Rows of head " + std::to_string(head) : std::string("Rows");
  text_wrapped_at_spaces(whose + ": mean entropy " + format_number(summary.mean_entropy_bits, 2) + " of " +
                             format_number(summary.mean_uniform_entropy_bits, 2) + " bits, mean max weight " +
                             format_number(summary.mean_max_weight, 2) + "   (S: scaling on/off)",
                         width, false);  // "0.13" never split at its point
}

void draw_scaling_controls(ui::UiContext& ui, const Problem& problem, const Result& result, int head, float width,
                           bool editable) {
  const Matrix& scores = result.heads[static_cast<std::size_t>(head)].scores;
  const std::vector<lesson::ScaleCase> cases =
      lesson::scaling_contrast(scores, result.mask, problem.d_k, problem.scale);
  const float right = ImGui::GetCursorPosX() + width;

  const std::string whose = problem.num_heads > 1 ? " of head " + std::to_string(head) : std::string();
  text_wrapped_at_spaces("How peaked are the rows" + whose +
                             "? Mean entropy of a row (0 bits = all weight on one key; "
                             "the most = uniform) and its mean largest weight; highlighted: the scale in force.",
                         width, false);
  // Short cells, no wrapping: the row of the scale in force is highlighted.
  if (ImGui::BeginTable("##scaling", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("scale");
    ImGui::TableSetupColumn("entropy (bits)");
    ImGui::TableSetupColumn("max");
    ImGui::TableHeadersRow();
    for (const lesson::ScaleCase& c : cases) {
      ImGui::TableNextRow();
      if (static_cast<float>(c.scale) == problem.scale)
        ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, ImGui::GetColorU32(ImGuiCol_ButtonHovered));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(c.label.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%s / %s", format_number(c.summary.mean_entropy_bits, 2).c_str(),
                  format_number(c.summary.mean_uniform_entropy_bits, 2).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(format_number(c.summary.mean_max_weight, 2).c_str());
    }
    ImGui::EndTable();
  }
  // What these numbers show for this sentence: a saturation only when there is one.
  text_wrapped_at_spaces(lesson::scaling_verdict(cases, problem.d_k), width, false);
  if (!editable) return;  // a pretrained model's scale is its own

  const ScaleSetting& scale = ui.document.scenario().scale;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Scale:");
  const float radio = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
  same_line_if_fits(radio + ImGui::CalcTextSize("1/\xe2\x88\x9a"
                                                "d_k")
                                .x,
                    right);
  if (ImGui::RadioButton("1/\xe2\x88\x9a"
                         "d_k",
                         scale.kind == ScaleSetting::Kind::InvSqrtDk))
    set_scale(ui, {ScaleSetting::Kind::InvSqrtDk, 1.0},
              "Scale: 1/\xe2\x88\x9a"
              "d_k");
  same_line_if_fits(radio + ImGui::CalcTextSize("none (the mistake)").x, right);
  if (ImGui::RadioButton("none (the mistake)", scale.kind == ScaleSetting::Kind::None))
    set_scale(ui, {ScaleSetting::Kind::None, 1.0}, "Scale: none");
  // The Model panel's temperature: T, scores × 1/T (one wording for one setting).
  const float slider_w = ImGui::GetFontSize() * 11.0f;
  same_line_if_fits(slider_w + ImGui::CalcTextSize("temperature").x + ImGui::GetStyle().ItemInnerSpacing.x, right);
  float temperature = static_cast<float>(edits::temperature_from_scale(problem.scale));
  ImGui::SetNextItemWidth(slider_w);
  if (ImGui::SliderFloat("temperature", &temperature, static_cast<float>(kMinTemperature),
                         static_cast<float>(kMaxTemperature), "T = %.3g  (scale 1/T)", ImGuiSliderFlags_Logarithmic) &&
      std::isfinite(temperature) && temperature > 0.0f)
    set_scale(ui, {ScaleSetting::Kind::Value, edits::scale_from_temperature(static_cast<double>(temperature))},
              "Temperature", "classroom:temperature");
  if (ImGui::IsItemDeactivatedAfterEdit()) ui.document.end_merge();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Low T sharpens the weights towards the largest score; high T flattens them. T = \xe2\x88\x9a"
        "d_k = %s is "
        "the standard scale. Keys: T / Shift+T.",
        format_significant(std::sqrt(static_cast<double>(problem.d_k))).c_str());
}

}  // namespace attnviz::classroom
