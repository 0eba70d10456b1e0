#include "app/export_ui/export_popup.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "app/export_ui/export_folder.h"
#include "app/i18n/translate.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"

namespace attnviz::export_ui {
namespace {

const char* environment_variable(const char* name) { return std::getenv(name); }

const char* format_label(exporting::ExportFormat format) {
  switch (format) {
    case exporting::ExportFormat::Png: return "PNG";
    case exporting::ExportFormat::Svg: return "SVG";
    case exporting::ExportFormat::Csv: return "CSV";
    case exporting::ExportFormat::Npy: return "NPY";
    case exporting::ExportFormat::Json: return "JSON";
  }
  return "?";
}

}  // namespace

void SaveTo::propose(const std::filesystem::path& memory) {
  if (!out.empty()) return;
  folder = default_export_folder(read_last_folder(memory), environment_variable);
  out = folder.string();
}

std::filesystem::path SaveTo::resolved() const { return resolve_export_path(out, folder, environment_variable); }

void SaveTo::remember(const std::filesystem::path& memory, const ExportOutcome& outcome) {
  const std::filesystem::path written =
      outcome.written.size() == 1 ? outcome.written.front().parent_path() : resolved();
  if (written.empty()) return;
  folder = written;
  out = written.string();
  write_last_folder(memory, written);
}

void export_from_popup(SaveTo& save_to, const std::filesystem::path& memory, std::string& error,
                       const std::function<ExportOutcome(const std::filesystem::path& out)>& run) {
  if (save_to.out.empty()) {
    error = i18n::tr(kEmptySaveTo);
    return;
  }
  const ExportOutcome outcome = run(save_to.resolved());
  if (!outcome.ok) {
    error = outcome.message;
    return;
  }
  save_to.remember(memory, outcome);
  error.clear();
  ImGui::CloseCurrentPopup();
}

bool begin_export_popup(const char* popup) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(ImGui::GetFontSize() * 40.0f, display.x * 0.95f), 0.0f), ImGuiCond_Always);
  return ImGui::BeginPopupModal(popup, nullptr, ImGuiWindowFlags_NoSavedSettings);
}

void draw_format_choice(const char* id, std::span<const exporting::ExportFormat> formats, int* chosen) {
  for (std::size_t i = 0; i < formats.size(); ++i) {
    if (i > 0) ImGui::SameLine();
    ImGui::RadioButton((std::string(format_label(formats[i])) + "##" + id).c_str(), chosen, static_cast<int>(i));
  }
}

bool draw_save_to(SaveTo& save_to, const char* id, const char* example_name, const std::string& error) {
  ImGui::TextUnformatted(i18n::tr("Save to"));
  ImGui::SetNextItemWidth(-1.0f);
  const bool entered = ImGui::InputText(id, &save_to.out, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::TextDisabled(i18n::tr("A folder (the file is named like %s) or a file name"), example_name);
  // A relative path or ~ is taken from the folder proposed, never from where attnviz was started.
  const std::filesystem::path resolved = save_to.resolved();
  if (!save_to.out.empty() && resolved.string() != save_to.out)
    ImGui::TextDisabled(i18n::tr("that is %s"), resolved.string().c_str());
  if (!error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
    ui::text_lines(error);
    ImGui::PopStyleColor();
  }
  return entered;
}

PopupButtons draw_popup_buttons(const char* id, bool export_enabled) {
  PopupButtons pressed;
  const float w = ImGui::GetFontSize() * 6.0f;
  // IDs are the English labels' ("Export##id"), the same in every language.
  const std::string suffix = std::string("##") + id;
  ImGui::BeginDisabled(!export_enabled);
  pressed.export_pressed =
      ImGui::Button(i18n::tr_label("Export", ("Export" + suffix).c_str()).c_str(), ImVec2(w, 0.0f));
  ImGui::EndDisabled();
  ImGui::SameLine();
  pressed.cancel_pressed =
      ImGui::Button(i18n::tr_label("Cancel", ("Cancel" + suffix).c_str()).c_str(), ImVec2(w, 0.0f)) ||
      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
  return pressed;
}

}  // namespace attnviz::export_ui
