// The overview's Export button and popup (export_ui.h: OverviewExport): the overview shown, in
// the format chosen, written and reported by run_overview_export (export_runner.h) into the
// folder the Export dialog proposes, which it then remembers as that dialog does.

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdlib>

#include "app/document/document.h"
#include "app/export_ui/export_folder.h"
#include "app/export_ui/export_runner.h"
#include "app/export_ui/export_ui.h"
#include "app/ui/palette.h"
#include "app/ui/view_state.h"

namespace attnviz::export_ui {
namespace {

constexpr const char* kPopup = "Export the overview##overview_export";
constexpr exporting::ExportFormat kFormats[] = {exporting::ExportFormat::Png, exporting::ExportFormat::Svg,
                                                exporting::ExportFormat::Npy};

const char* environment_variable(const char* name) { return std::getenv(name); }

}  // namespace

void OverviewExport::draw(ui::UiContext& ui, const overview::Overview& shown, const Problem& problem) {
  if (ImGui::Button("Export\xE2\x80\xA6##overview")) {
    if (out_.empty()) {
      folder_ = default_export_folder(read_last_folder(export_folder_memory(ui)), environment_variable);
      out_ = folder_.string();
    }
    error_.clear();
    ImGui::OpenPopup(kPopup);
  }
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(ImGui::GetFontSize() * 40.0f, display.x * 0.95f), 0.0f), ImGuiCond_Always);
  if (!ImGui::BeginPopupModal(kPopup, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
  ImGui::TextWrapped("The overview as it is shown: its head, window, pooling and quantity, one image pixel per pixel "
                     "block (PNG, SVG), or its values as float32 with NaN where the mask hides a whole block (NPY).");
  ImGui::RadioButton("PNG##overview_export", &format_, 0);
  ImGui::SameLine();
  ImGui::RadioButton("SVG##overview_export", &format_, 1);
  ImGui::SameLine();
  ImGui::RadioButton("NPY##overview_export", &format_, 2);
  ImGui::TextUnformatted("Save to");
  ImGui::SetNextItemWidth(-1.0f);
  const bool entered = ImGui::InputText("##overview_out", &out_, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::TextDisabled("A folder (the file is named like overview_weights_max_head0.png) or a file name");
  const std::filesystem::path resolved = resolve_export_path(out_, folder_, environment_variable);
  if (!out_.empty() && resolved.string() != out_) ImGui::TextDisabled("that is %s", resolved.string().c_str());
  if (!error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::kErrorText);
    ImGui::TextWrapped("%s", error_.c_str());
    ImGui::PopStyleColor();
  }
  const float w = ImGui::GetFontSize() * 6.0f;
  if (ImGui::Button("Export##overview_export", ImVec2(w, 0.0f)) || entered) finish(ui, shown, problem);
  ImGui::SameLine();
  if (ImGui::Button("Cancel##overview_export", ImVec2(w, 0.0f)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

void OverviewExport::finish(ui::UiContext& ui, const overview::Overview& shown, const Problem& problem) {
  if (out_.empty()) {
    error_ = "Type a folder or a file name under Save to.";
    return;
  }
  const ExportOutcome outcome = run_overview_export(shown, ui.document.scenario(), problem, kFormats[format_],
                                                    resolve_export_path(out_, folder_, environment_variable), ui.notices);
  if (!outcome.ok) {
    error_ = outcome.message;
    return;
  }
  // The next export starts in this one's folder (never over its file), as the dialog's does.
  if (!outcome.written.empty()) {
    folder_ = outcome.written.front().parent_path();
    out_ = folder_.string();
    write_last_folder(export_folder_memory(ui), folder_);
  }
  error_.clear();
  ImGui::CloseCurrentPopup();
}

}  // namespace attnviz::export_ui
