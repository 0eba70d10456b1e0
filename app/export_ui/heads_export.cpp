// The Model view's analyses' export (export_ui.h: HeadsExport): the head roles, the logit lens,
// the attribution or the patching as shown, drawn by core/export/heads_figures.h as the command
// line draws them (PNG, SVG) or written as CSV or as the command line's JSON, into the folder
// the Export dialog proposes.

#include <imgui.h>

#include <string>
#include <vector>

#include "app/export_ui/export_popup.h"
#include "app/export_ui/export_runner.h"
#include "app/export_ui/export_ui.h"
#include "app/i18n/translate.h"
#include "app/ui/text_lines.h"
#include "core/export/heads_figures.h"

namespace attnviz::export_ui {
namespace {

constexpr exporting::ExportFormat kFormats[] = {exporting::ExportFormat::Png, exporting::ExportFormat::Svg,
                                                exporting::ExportFormat::Csv, exporting::ExportFormat::Json};

}  // namespace

void HeadsExport::draw(ui::UiContext& ui, const char* id, float line_end, const char* what,
                       const std::function<HeadsExportContent()>& content) {
  const std::string stem = id;
  const std::string popup = i18n::tr("Export") + std::string("##heads-popup-") + id;
  const GlyphButton button = export_glyph_button(ui, (std::string("heads-") + id).c_str(), line_end);
  if (button.hovered) ImGui::SetTooltip("%s", i18n::tr("Export as shown: PNG, SVG, CSV or JSON"));
  if (button.clicked) {
    save_to_.propose(export_folder_memory(ui));
    error_.clear();
    ImGui::OpenPopup(popup.c_str());
  }
  if (!begin_export_popup(popup.c_str())) return;
  ui::text_wrapped("%s", what);
  const std::string choice = std::string("heads-export-") + id;
  draw_format_choice(choice.c_str(), kFormats, &format_);
  const std::string example = stem + "." + exporting::format_name(kFormats[format_]);
  const bool entered = draw_save_to(save_to_, ("##" + choice + "-out").c_str(), example.c_str(), error_);
  const PopupButtons pressed = draw_popup_buttons(choice.c_str(), true);
  if (pressed.export_pressed || entered) {
    const exporting::ExportFormat format = kFormats[format_];
    export_from_popup(save_to_, export_folder_memory(ui), error_, [&](const std::filesystem::path& out) {
      return run_rendered_export(
          [&] {
            const HeadsExportContent made = content();
            exporting::ExportedFile file;
            file.name = stem + "." + exporting::format_name(format);
            if (format == exporting::ExportFormat::Json) {
              file.bytes = made.json;
            } else if (format == exporting::ExportFormat::Csv) {
              file.bytes = made.csv;
            } else {
              file.bytes = exporting::render_heads_figure(made.figure, format, &file.warnings);
            }
            return std::vector<exporting::ExportedFile>{file};
          },
          out, ui.notices);
    });
  }
  if (pressed.cancel_pressed) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

}  // namespace attnviz::export_ui
