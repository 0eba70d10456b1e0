// The Save view as image dialog: where to put the PNG of the view on screen. It proposes a
// name in the Export dialog's folder, resolves what is typed the same way, and leaves the
// capture itself to the frame loop (ViewState::view_image_request): the image is taken from
// the next frame, without this dialog on it.

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "app/document/autosave.h"
#include "app/export_ui/export_folder.h"
#include "app/export_ui/export_ui.h"
#include "app/export_ui/view_image.h"
#include "app/i18n/translate.h"
#include "app/ui/classroom_state.h"
#include "app/ui/keys.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/common/error.h"

namespace attnviz::export_ui {
namespace {

// The dialog's title, translated (as heads_export.cpp's: a window is named by its whole title).
std::string popup_title() { return i18n::tr("Save view as image") + std::string("##view_image"); }

const char* environment_variable(const char* name) { return std::getenv(name); }

// Beside the autosave, shared with the Export dialog: both start where the last export went.
std::filesystem::path folder_memory(const ui::UiContext& ui) {
  return ui.autosave.file().parent_path() / "export-folder";
}

class ViewImageDialog final : public ui::Dialog {
 public:
  void update(ui::UiContext& ui) override {
    if (ui::keys::ctrl_pressed(ui::keys::kE, true)) ui.view.view_image_dialog_requested = true;
    if (std::exchange(ui.view.view_image_dialog_requested, false)) open(ui);
    draw(ui);
  }

 private:
  void open(const ui::UiContext& ui) {
    folder_ = default_export_folder(read_last_folder(folder_memory(ui)), environment_variable);
    view_ = ui::tab_title(ui.classroom.shown);  // a msgid, shown translated
    name_ = proposed_view_image_name(view_image_stem(ui.classroom), folder_);
    error_.clear();
    open_requested_ = true;
  }

  void save(ui::UiContext& ui) {
    try {
      const std::filesystem::path path = view_image_path(name_, folder_, environment_variable);
      ui.view.view_image_request = ui::ViewImageRequest{path, folder_memory(ui)};
      ImGui::CloseCurrentPopup();
    } catch (const InputError& error) {
      error_ = error.what();
    }
  }

  void draw(ui::UiContext& ui) {
    if (open_requested_) {
      ImGui::OpenPopup(popup_title().c_str());
      open_requested_ = false;
    }
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(ImGui::GetFontSize() * 40.0f, display.x * 0.95f), 0.0f), ImGuiCond_Always);
    if (!ImGui::BeginPopupModal(popup_title().c_str(), nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    ui::text_wrapped(i18n::tr("The %s view as it is on screen, into a PNG image (the window's menus, notices and "
                              "this dialog stay out of it)."),
                     i18n::tr(view_.c_str()));
    ImGui::Spacing();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(i18n::tr("Save as"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool entered = ImGui::InputText("##view-image-name", &name_, ImGuiInputTextFlags_EnterReturnsTrue);
    std::filesystem::path resolved;
    try {
      resolved = view_image_path(name_, folder_, environment_variable);
    } catch (const InputError&) {
      // said when Save is pressed
    }
    if (!resolved.empty()) ImGui::TextDisabled(i18n::tr("that is %s"), resolved.string().c_str());
    if (!error_.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
      ui::text_lines(error_);
      ImGui::PopStyleColor();
    }
    const float w = ImGui::GetFontSize() * 6.0f;
    if (ImGui::Button(i18n::tr_label("Save").c_str(), ImVec2(w, 0.0f)) || entered) save(ui);
    ImGui::SameLine();
    if (ImGui::Button(i18n::tr_label("Cancel").c_str(), ImVec2(w, 0.0f)) ||
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
      ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }

  bool open_requested_ = false;
  std::filesystem::path folder_;
  std::string view_;
  std::string name_;
  std::string error_;
};

}  // namespace

void open_view_image(ui::UiContext& ui) { ui.view.view_image_dialog_requested = true; }

std::unique_ptr<ui::Dialog> make_view_image_dialog() { return std::make_unique<ViewImageDialog>(); }

}  // namespace attnviz::export_ui
