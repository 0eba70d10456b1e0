#include "app/classroom/scaling_lesson.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/classroom/classroom_edits.h"
#include "app/classroom/draw_helpers.h"
#include "app/compute/compute_session.h"
#include "app/document/document.h"
#include "app/edits/model_edits.h"
#include "app/i18n/translate.h"
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
  // The header's words are the widest in some languages: "entropy" over the first number,
  // "max" over the second.
  const float max_x = ImGui::CalcTextSize("0.00   ").x;
  return std::max({ImGui::CalcTextSize("0.00   0.00").x, ImGui::CalcTextSize(i18n::tr("entropy")).x,
                   max_x + ImGui::CalcTextSize(i18n::tr("max")).x}) +
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
  list->AddText(ImVec2(left, cells_top - font * 2.3f), caption, i18n::tr("entropy"));
  list->AddText(ImVec2(left, cells_top - font * 1.2f), caption, i18n::tr("(bits)"));
  list->AddText(ImVec2(max_x, cells_top - font * 1.2f), caption, i18n::tr("max"));
  if (row_h < font * 0.9f) return;  // too many rows for one line each: the summary says it
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const lesson::RowStats& s = rows[r];
    const float y = std::round(cells_top + row_h * (static_cast<float>(r) + 0.5f) - font * 0.5f);
    if (s.visible_keys == 0) {
      list->AddText(ImVec2(left, y), caption, i18n::tr("(no key)"));
      continue;
    }
    list->AddText(ImVec2(left, y), text, format_number(s.entropy_bits, 2).c_str());
    list->AddText(ImVec2(max_x, y), text, format_number(s.max_weight, 2).c_str());
  }
}

void draw_row_stats_summary(const std::vector<lesson::RowStats>& rows, int head, float width) {
  const lesson::RowStatsSummary summary = lesson::summarize(rows);
  const std::string whose = head >= 0 ? i18n::format(i18n::tr("Rows of head %d"), head) : i18n::tr("Rows");
  const std::string entropy = format_number(summary.mean_entropy_bits, 2);
  const std::string most = format_number(summary.mean_uniform_entropy_bits, 2);
  const std::string max_weight = format_number(summary.mean_max_weight, 2);
  text_wrapped_at_spaces(
      i18n::format(i18n::tr("%s: mean entropy %s of %s bits, mean max weight %s   (S: scaling on/off)"), whose.c_str(),
                   entropy.c_str(), most.c_str(), max_weight.c_str()),
      width, false);  // "0.13" never split at its point
}

void draw_scaling_controls(ui::UiContext& ui, const Problem& problem, const Result& result, int head, float width,
                           bool editable) {
  const Matrix& scores = result.heads[static_cast<std::size_t>(head)].scores;
  const std::vector<lesson::ScaleCase> cases =
      lesson::scaling_contrast(scores, result.mask, problem.d_k, problem.scale, i18n::wording());
  const float right = ImGui::GetCursorPosX() + width;

  const std::string question =
      problem.num_heads > 1
          ? i18n::format(i18n::tr("How peaked are the rows of head %d? Mean entropy of a row (0 bits = all weight on "
                                  "one key; the most = uniform) and its mean largest weight; highlighted: the scale in "
                                  "force."),
                         head)
          : std::string(i18n::tr("How peaked are the rows? Mean entropy of a row (0 bits = all weight on one key; the "
                                 "most = uniform) and its mean largest weight; highlighted: the scale in force."));
  text_wrapped_at_spaces(question, width, false);
  // Short cells, no wrapping: the row of the scale in force is highlighted.
  if (ImGui::BeginTable("##scaling", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn(i18n::tr_label("scale").c_str());
    ImGui::TableSetupColumn(i18n::tr_label("entropy (bits)").c_str());
    ImGui::TableSetupColumn(i18n::tr_label("max").c_str());
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
  text_wrapped_at_spaces(lesson::scaling_verdict(cases, problem.d_k, i18n::wording()), width, false);
  if (!editable) return;  // a pretrained model's scale is its own

  const ScaleSetting& scale = ui.document.scenario().scale;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Scale:"));
  const float radio = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
  same_line_if_fits(radio + ImGui::CalcTextSize("1/\xe2\x88\x9a"
                                                "d_k")
                                .x,
                    right);
  if (ImGui::RadioButton("1/\xe2\x88\x9a"
                         "d_k",
                         scale.kind == ScaleSetting::Kind::InvSqrtDk))
    set_scale(ui, {ScaleSetting::Kind::InvSqrtDk, 1.0},
              i18n::tr("Scale: 1/\xe2\x88\x9a"
                       "d_k"));
  const std::string none = i18n::tr_label("none (the mistake)");
  same_line_if_fits(radio + ImGui::CalcTextSize(none.c_str(), nullptr, true).x, right);
  if (ImGui::RadioButton(none.c_str(), scale.kind == ScaleSetting::Kind::None))
    set_scale(ui, {ScaleSetting::Kind::None, 1.0}, i18n::tr("Scale: none"));
  // The Model panel's temperature: T, scores × 1/T (one wording for one setting).
  const float slider_w = ImGui::GetFontSize() * 11.0f;
  const std::string temperature_label = i18n::tr_label("temperature");
  same_line_if_fits(
      slider_w + ImGui::CalcTextSize(temperature_label.c_str(), nullptr, true).x + ImGui::GetStyle().ItemInnerSpacing.x,
      right);
  float temperature = static_cast<float>(edits::temperature_from_scale(problem.scale));
  ImGui::SetNextItemWidth(slider_w);
  if (ImGui::SliderFloat(temperature_label.c_str(), &temperature, static_cast<float>(kMinTemperature),
                         static_cast<float>(kMaxTemperature), i18n::tr("T = %.3g  (scale 1/T)"),
                         ImGuiSliderFlags_Logarithmic) &&
      std::isfinite(temperature) && temperature > 0.0f)
    set_scale(ui, {ScaleSetting::Kind::Value, edits::scale_from_temperature(static_cast<double>(temperature))},
              i18n::tr("Temperature"), "classroom:temperature");
  if (ImGui::IsItemDeactivatedAfterEdit()) ui.document.end_merge();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", i18n::format(i18n::tr("Low T sharpens the weights towards the largest score; high T "
                                                  "flattens them. T = \xe2\x88\x9a"
                                                  "d_k = %s is the standard scale. Keys: T / Shift+T."),
                                         format_significant(std::sqrt(static_cast<double>(problem.d_k))).c_str())
                                .c_str());
}

}  // namespace attnviz::classroom
