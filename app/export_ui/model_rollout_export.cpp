// The Model view's rollout export (export_ui.h: RolloutExport): the rollout the view shows, in
// its colours and range, written by core's model::render_rollout as the command line writes it,
// into the folder the Export dialog proposes.

#include <imgui.h>

#include <string>
#include <vector>

#include "app/compute/model_session.h"
#include "app/export_ui/export_popup.h"
#include "app/export_ui/export_runner.h"
#include "app/export_ui/export_ui.h"
#include "app/i18n/translate.h"
#include "app/ui/notices.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/common/number_text.h"
#include "core/model/rollout_export.h"

namespace attnviz::export_ui {
namespace {

// The popup's title, translated (as heads_export.cpp's: a window is named by its whole title).
std::string popup_title() { return i18n::tr("Export the rollout") + std::string("##rollout_export"); }
constexpr exporting::ExportFormat kFormats[] = {exporting::ExportFormat::Png, exporting::ExportFormat::Svg,
                                                exporting::ExportFormat::Csv, exporting::ExportFormat::Npy};

bool has_rollout(const ui::UiContext& ui) {
  return ui.model.model() != nullptr && ui.model.result() != nullptr && !ui.model.result()->layers.empty() &&
         !ui.model.rollout().empty();
}

std::vector<exporting::ExportedFile> render_shown_rollout(const ui::UiContext& ui,
                                                          const exporting::ExportRequest& request) {
  const model::ForwardResult& result = *ui.model.result();
  const int last_layer = static_cast<int>(result.layers.size()) - 1;
  return model::render_rollout(ui.model.rollout(), result, ui.model.model()->config(), ui.model.text(), last_layer,
                               request);
}

}  // namespace

void RolloutExport::draw(ui::UiContext& ui, float line_end, std::pair<float, float> range) {
  if (!has_rollout(ui)) return;
  const GlyphButton button = export_glyph_button(ui, "rollout", line_end);
  if (button.hovered)
    ImGui::SetTooltip(
        "%s",
        i18n::tr("Export the rollout as shown (its colours and range):\nPNG, SVG, CSV or NPY; or copy it as CSV"));
  if (button.clicked) {
    save_to_.propose(export_folder_memory(ui));
    error_.clear();
    ImGui::OpenPopup(popup_title().c_str());
  }
  if (!begin_export_popup(popup_title().c_str())) return;
  const int layers = static_cast<int>(ui.model.result()->layers.size());
  ui::text_wrapped(i18n::trn("The attention rollout through all %s layer, as shown: its colours, from 0 to its "
                             "largest value (PNG, SVG); or its values, one row per token (CSV, NPY).",
                             "The attention rollout through all %s layers, as shown: its colours, from 0 to its "
                             "largest value (PNG, SVG); or its values, one row per token (CSV, NPY).",
                             static_cast<unsigned long>(layers)),
                   format_grouped(layers).c_str());
  draw_format_choice("rollout_export", kFormats, &format_);
  const std::string example = std::string("rollout.") + exporting::format_name(kFormats[format_]);
  const bool entered = draw_save_to(save_to_, "##rollout_out", example.c_str(), error_);
  const PopupButtons pressed = draw_popup_buttons("rollout_export", true);
  if (pressed.export_pressed || entered) finish(ui, range);
  if (pressed.cancel_pressed) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

void RolloutExport::finish(ui::UiContext& ui, std::pair<float, float> range) {
  exporting::ExportRequest request;
  request.format = kFormats[format_];
  request.colormap = shown_colormap(Quantity::Weights, ui.view);
  request.range = range;
  request.scale = exporting::ColourScale::Linear;
  request.values = ui.view.show_numbers ? exporting::ValuesMode::Auto : exporting::ValuesMode::Off;
  request.origin = i18n::tr("Export");
  request.wording = i18n::wording();
  export_from_popup(save_to_, export_folder_memory(ui), error_, [&](const std::filesystem::path& out) {
    return run_rendered_export([&] { return render_shown_rollout(ui, request); }, out, ui.notices);
  });
}

void RolloutExport::hover_actions(ui::UiContext& ui, bool hovered) {
  ctrl_c_copies(ui, hovered && has_rollout(ui), i18n::tr("the rollout"), [&] {
    exporting::ExportRequest request;
    request.format = exporting::ExportFormat::Csv;
    request.origin = i18n::tr("Copy");
    ImGui::SetClipboardText(render_shown_rollout(ui, request).front().bytes.c_str());
    ui.notices.post(ui::NoticeLevel::Info, i18n::tr("Copied the rollout as CSV"));
  });
}

}  // namespace attnviz::export_ui
