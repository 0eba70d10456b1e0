// The overview view's controls and status (overview_view.h): head, quantity and pooling, the
// Whole matrix, Export… and (in a narrow panel) Find… buttons, the progress bar with Cancel,
// why an overview cannot be computed with the one-click fixes, and the status bar's summary.

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <span>

#include "app/i18n/translate.h"
#include "app/document/document.h"
#include "app/edits/mask_edits.h"
#include "app/edits/position_edits.h"
#include "app/panels/overview_view.h"
#include "app/ui/keys.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/common/number_text.h"

namespace attnviz::panels {

void OverviewView::draw_controls(ui::UiContext& ui) {
  find_beside_ = column_reserved(image_width(ImGui::GetContentRegionAvail().x)) > 0.0f;
  const int heads = std::max(session_.heads(), ui.document.scenario().num_heads);
  ui.view.selected_head = std::clamp(ui.view.selected_head, 0, std::max(heads - 1, 0));
  ask_.head = ui.view.selected_head;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  const std::string head_label = i18n::format(i18n::tr("head %d"), ask_.head);
  if (ImGui::BeginCombo("##overview_head", head_label.c_str())) {
    for (int h = 0; h < heads; ++h) {
      // Shown translated; the ID the head's number.
      const std::string item = i18n::format(i18n::tr("head %d"), h) + "###" + std::to_string(h);
      if (ImGui::Selectable(item.c_str(), h == ask_.head)) ui.view.selected_head = h;
    }
    ImGui::EndCombo();
  }
  // Each group of controls goes on the line before where it fits, else on a line of its own
  // (an 800-pixel window must still reach Max and Mean). Widths are the labels', so the lines
  // are the same every frame; the buttons are decided whether or not Whole matrix is shown:
  // the image below must not move when it comes and goes (another size would compute the
  // overview again).
  const ImGuiStyle& style = ImGui::GetStyle();
  const float group_gap = ImGui::GetFontSize() * 1.5f;
  const float line_end = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const auto fits = [&](float gap, float width) { return ImGui::GetItemRectMax().x + gap + width <= line_end; };
  const auto radio_w = [&](const char* label) {
    return ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
  };
  // In the enums' order: a radio button's index is its value.
  // Shown translated, their IDs the English words ("Weights##overview").
  const std::string quantity_labels[] = {i18n::tr_label("Weights", "Weights##overview"),
                                         i18n::tr_label("Raw scores", "Raw scores##overview"),
                                         i18n::tr_label("Scaled scores", "Scaled scores##overview")};
  const std::string pooling_labels[] = {i18n::tr_label("Max", "Max##overview"),
                                        i18n::tr_label("Mean", "Mean##overview")};
  const char* const quantities[] = {quantity_labels[0].c_str(), quantity_labels[1].c_str(), quantity_labels[2].c_str()};
  const char* const poolings[] = {pooling_labels[0].c_str(), pooling_labels[1].c_str()};
  static_assert(static_cast<int>(overview::Quantity::ScaledScores) == 2 &&
                static_cast<int>(overview::Pooling::Mean) == 1);
  const auto group_w = [&](std::span<const char* const> labels) {
    float width = 0.0f;
    for (const char* label : labels) width += radio_w(label);
    return width + style.ItemSpacing.x * static_cast<float>(labels.size() - 1);
  };
  if (fits(style.ItemSpacing.x, group_w(quantities))) ImGui::SameLine();
  int quantity = static_cast<int>(ask_.quantity);
  for (int i = 0; i < 3; ++i) {
    if (i > 0) ImGui::SameLine();
    ImGui::RadioButton(quantities[i], &quantity, i);
  }
  ask_.quantity = static_cast<overview::Quantity>(quantity);
  if (fits(group_gap, group_w(poolings))) ImGui::SameLine(0.0f, group_gap);
  int pooling = static_cast<int>(ask_.pooling);
  for (int i = 0; i < 2; ++i) {
    if (i > 0) ImGui::SameLine();
    ImGui::RadioButton(poolings[i], &pooling, i);
  }
  ask_.pooling = static_cast<overview::Pooling>(pooling);
  const float button_gap = group_gap;
  const auto button_w = [&](const char* label) { return ImGui::CalcTextSize(label).x + 2.0f * style.FramePadding.x; };
  const float buttons = 2.0f * button_gap + button_w(i18n::tr("Whole matrix")) +
                        button_w(i18n::tr("Export\xe2\x80\xa6")) +
                        (find_beside_ ? 0.0f : button_gap + button_w(i18n::tr("Find\xe2\x80\xa6")));
  const bool one_row = fits(0.0f, buttons);
  const auto next_button = [&](bool first) {
    if (one_row || !first) ImGui::SameLine(0.0f, button_gap);
  };
  bool first_button = true;
  // Home shows the whole matrix, as on every other heatmap.
  const ImGuiIO& io = ImGui::GetIO();
  ui::keys::claim_from_navigation(ui::keys::kHome);
  if (ui::keys::plain_keys_free() && !io.KeyCtrl && !io.KeyAlt && !io.KeyShift &&
      ImGui::IsKeyPressed(ui::keys::kHome, false)) {
    ask_.window = {};
  }
  if (ask_.window.rows() > 0) {
    next_button(first_button);
    first_button = false;
    if (ImGui::Button(i18n::tr_label("Whole matrix", "Whole matrix##overview").c_str())) ask_.window = {};
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", i18n::tr("Show the whole matrix again (Home, or a double click on the image)"));
  }
  const std::shared_ptr<const overview::Overview> shown = session_.shown();
  const std::shared_ptr<const Problem> problem = session_.shown_problem();
  if (shown && problem && !shown->heads.empty()) {
    next_button(first_button);
    first_button = false;
    export_.draw(ui, *shown, *problem, session_.shown_ask());
  }
  if (!find_beside_) {
    next_button(first_button);
    first_button = false;
    draw_find_popup(ui);
  } else if (!one_row && first_button) {
    ImGui::Dummy(ImVec2(1.0f, ImGui::GetFrameHeight()));  // the buttons' line, as high while there are none
  }
}

// Where the panel leaves no room for the side column (an 800-pixel window), Find comes from a
// button, or Ctrl+F, as a small window over the image.
void OverviewView::draw_find_popup(ui::UiContext& ui) {
  if (ImGui::Button(i18n::tr_label("Find\xe2\x80\xa6", "Find\xe2\x80\xa6##overview").c_str()) || find_popup_wanted_) {
    ImGui::OpenPopup("##overview_find_popup");
    find_.focus();
    find_popup_wanted_ = false;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr("Find a word, a phrase or a token's number (Ctrl+F)"));
  // Under the button, as far right as the panel allows: over the caption, not the image.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float width = ImGui::GetFontSize() * 20.0f;
  const float outer = width + 2.0f * style.WindowPadding.x;
  const float panel_right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  ImGui::SetNextWindowPos(
      ImVec2(std::max(std::min(ImGui::GetItemRectMin().x, panel_right - outer), ImGui::GetWindowPos().x),
             ImGui::GetItemRectMax().y + style.ItemSpacing.y));
  ImGui::SetNextWindowSize(ImVec2(outer, 0.0f));
  if (!ImGui::BeginPopup("##overview_find_popup")) return;
  const int n = session_.rows();
  const int m = session_.cols();
  if (const std::optional<overview::CellWindow> asked = find_.draw(ui, n, m, width)) {
    ask_.window = *asked == overview::whole(n, m) ? overview::CellWindow{} : *asked;
  }
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

void OverviewView::draw_status(ui::UiContext& ui) {
  // The line keeps one height whatever it shows: were the image below to grow when the
  // progress bar goes, its pixel count would change and the overview be computed again.
  const float top = ImGui::GetCursorPosY();
  draw_status_line(ui);
  ImGui::SetCursorPosY(std::max(ImGui::GetCursorPosY(), top + ImGui::GetFrameHeightWithSpacing()));
}

void OverviewView::draw_status_line(ui::UiContext& ui) {
  if (session_.running()) {
    const std::string label =
        session_.started() ? i18n::format(i18n::tr("computing the overview: %.0f%%"), 100.0 * session_.progress())
                           : std::string(i18n::tr("preparing the mask\xe2\x80\xa6"));
    ImGui::ProgressBar(static_cast<float>(session_.progress()), ImVec2(ImGui::GetFontSize() * 18.0f, 0.0f),
                       label.c_str());
    ImGui::SameLine();
    if (ImGui::Button(i18n::tr_label("Cancel", "Cancel##overview").c_str())) session_.cancel();
    return;
  }
  const std::string error = session_.error();
  if (error == "cancelled") {  // not translated: the session's word for it
    ImGui::TextDisabled("%s", i18n::tr("Cancelled: the image shows the last overview computed."));
    ImGui::SameLine();
    if (ImGui::SmallButton(i18n::tr_label("Compute again", "Compute again##overview").c_str()))
      session_.request_again();
  } else if (!error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
    ui::text_wrapped(i18n::tr("The overview cannot be computed: %s"), error.c_str());
    ImGui::PopStyleColor();
    // The core's English error says which part of the scenario it is about (not translated).
    if (error.find("/mask/expression: ") != std::string::npos) offer_pattern_for_length(ui);  // not translated
    if (error.find("dropout") != std::string::npos) offer_dropout_off(ui);
  }
}

// Dropout is shown up to 4,096 tokens; past them the overview needs it off (the Model panel's
// checkbox, here beside the reason).
void OverviewView::offer_dropout_off(ui::UiContext& ui) {
  const Scenario& scenario = ui.document.scenario();
  if (!scenario.dropout) return;
  if (ImGui::Button(i18n::tr_label("Turn dropout off", "Turn dropout off##overview_dropout").c_str())) {
    ui.document.apply(edits::set_dropout(scenario, std::nullopt), i18n::tr("Dropout off"));
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", i18n::tr("Dropout off for this text (Edit > Undo turns it on again); up to 4,096 tokens "
                                     "the heatmaps draw it."));
}

// A pattern whose parameters suited a short sentence (the strided preset's stride of 4) can
// leave a long text with more runs than a mask holds: one click gives it this length's.
void OverviewView::offer_pattern_for_length(ui::UiContext& ui) {
  const MaskSetting& mask = ui.document.scenario().mask;
  const std::optional<edits::NamedPattern> pattern = edits::pattern_for_length(mask.expression, tokens_);
  if (!pattern) return;
  const std::string label =
      i18n::format(i18n::trn("Use %s (for %s token)", "Use %s (for %s tokens)", static_cast<unsigned long>(tokens_)),
                   pattern->name.c_str(), format_grouped(tokens_).c_str()) +
      "###overview_pattern";
  if (ImGui::Button(label.c_str())) {
    Scenario next = ui.document.scenario();
    next.mask = edits::apply_pattern(mask, *pattern, {});
    ui.document.apply(std::move(next), i18n::format(i18n::tr("Mask pattern: %s"), pattern->name.c_str()));
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", pattern->expression.c_str(), pattern->description.c_str());
}

ui::OverviewStatus OverviewView::status_for_the_bar(std::uint64_t revision, long long tokens) const {
  ui::OverviewStatus status;
  status.revision = revision;
  status.summary =
      i18n::format(i18n::trn("overview of %s token", "overview of %s tokens", static_cast<unsigned long>(tokens)),
                   format_grouped(tokens).c_str());
  if (session_.running()) {
    status.summary += i18n::format(i18n::tr(": computing %.0f%%"), 100.0 * session_.progress());
  } else if (const std::shared_ptr<const overview::Overview> shown = session_.shown()) {
    // A zoomed-in window takes milliseconds: "0.00 s" would read as if nothing had run.
    const double ms = shown->timing.total_ms;
    const bool vulkan = shown->backend == "vulkan";                     // not translated: a name
    const char* backend = vulkan ? "Vulkan" : i18n::tr("Eigen (CPU)");  // not translated: a name
    const char* format = ms < 1000.0 ? ": %s %.0f ms" : ": %s %.2f s";  // not translated: units
    char text[96];
    std::snprintf(text, sizeof text, format, backend, ms < 1000.0 ? std::max(ms, 1.0) : ms / 1000.0);
    status.summary += text;
  }
  const std::string error = session_.error();
  if (!error.empty() && error != "cancelled")
    status.problem = i18n::tr("the overview cannot be computed (see Heatmaps)");
  return status;
}

}  // namespace attnviz::panels
