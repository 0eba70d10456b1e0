// File > Open model…: a path field with the folder's sub-folders and model files (.gguf,
// .safetensors, config.json) to pick from, and the text to run the model on. The model opens
// off the window's thread (app/compute/model_session.h); the Heatmaps view shows its progress
// with Cancel, and whatever goes wrong is said there and in a notice, the current work kept.

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "app/document/recent_files.h"
#include "app/i18n/translate.h"
#include "app/compute/model_session.h"
#include "app/panels/panels.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"

namespace attnviz::panels {
namespace {

namespace fs = std::filesystem;

// The dialog's title, shown translated; its ID "###open-model" in every language.
std::string title() { return i18n::tr_label("Open a model", "open-model"); }
// English, as the models it suits read (GPT-2 and the like): not translated.
constexpr const char* kDefaultText = "The cat sat on the mat because it was tired";  // not translated
constexpr std::size_t kMostEntries = 2000;  // a folder of thousands of files lists its first ones

struct Entry {
  std::string name;
  fs::path path;
  bool folder = false;
  bool model_folder = false;  // holds a config.json
};

bool is_model_file(const fs::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".gguf" || ext == ".safetensors" || path.filename() == "config.json";
}

std::vector<Entry> list(const fs::path& folder, std::string& error) {
  std::vector<Entry> entries;
  std::error_code ec;
  fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    error = folder.string() + ": " + ec.message();
    return entries;
  }
  for (; it != fs::directory_iterator() && entries.size() < kMostEntries; it.increment(ec)) {
    if (ec) break;
    const fs::path path = it->path();
    const std::string name = path.filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code kind;
    if (it->is_directory(kind)) {
      entries.push_back({name, path, true, fs::exists(path / "config.json", kind)});
    } else if (is_model_file(path)) {
      entries.push_back({name, path, false, false});
    }
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.folder != b.folder ? a.folder : a.name < b.name; });
  return entries;
}

class OpenModelDialog final : public ui::Dialog {
 public:
  void update(ui::UiContext& ui) override {
    if (std::exchange(ui.view.open_model_dialog_requested, false)) start(ui);
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowSize(
        ImVec2(std::min(720.0f * ui.ui_scale, display.x * 0.9f), std::min(540.0f * ui.ui_scale, display.y * 0.85f)),
        ImGuiCond_Appearing);
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal(title().c_str(), nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    draw_folder_bar();
    draw_listing();
    draw_fields(ui);
    ImGui::EndPopup();
  }

 private:
  void start(ui::UiContext& ui) {
    if (folder_.empty()) {
      std::error_code ec;
      folder_ = fs::current_path(ec);
    }
    text_ = ui.model.requested_text().empty() ? kDefaultText : ui.model.requested_text();
    error_.clear();
    relist();
    ImGui::OpenPopup(title().c_str());
  }

  void relist() {
    listing_error_.clear();
    entries_ = list(folder_, listing_error_);
  }

  void go_to(const fs::path& folder) {
    folder_ = folder;
    relist();
  }

  void draw_folder_bar() {
    if (ImGui::Button(i18n::tr_label("Up", "Up##open-model").c_str()) && folder_.has_parent_path())
      go_to(folder_.parent_path());
    ImGui::SameLine();
    if (ImGui::Button(i18n::tr_label("Home", "Home##open-model").c_str())) {
      if (const char* home = std::getenv("HOME")) go_to(home);
    }
    ImGui::SameLine();
    ImGui::TextDisabled("%s", folder_.string().c_str());
  }

  void draw_listing() {
    const float footer = ImGui::GetFrameHeightWithSpacing() * 4.0f + ImGui::GetTextLineHeightWithSpacing() * 2.0f;
    if (ImGui::BeginChild("##model-listing", ImVec2(0.0f, -footer), true)) {
      if (!listing_error_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
        ui::text_lines(listing_error_);
        ImGui::PopStyleColor();
      }
      const Entry* chosen = nullptr;
      for (const Entry& entry : entries_) {
        const std::string label =
            entry.name + (entry.folder ? (entry.model_folder ? i18n::tr("/   (a model folder)") : "/") : "");
        if (ImGui::Selectable(label.c_str(), path_ == entry.path.string(), ImGuiSelectableFlags_AllowDoubleClick))
          chosen = &entry;
      }
      if (entries_.empty() && listing_error_.empty())
        ImGui::TextDisabled("%s", i18n::tr("(no folders or model files here)"));
      // The second click of a double click on a plain folder lands in the folder it opened, on
      // whatever is listed there under the pointer: it is no click of its own (it opened a
      // 1.1 GB model the user never chose).
      const bool second_click_of_entering = ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) &&
                                            ImGui::GetTime() - entered_at_ <= ImGui::GetIO().MouseDoubleClickTime;
      if (chosen != nullptr && !second_click_of_entering) {
        path_ = chosen->path.string();
        error_.clear();
        // A plain folder opens on one click; a model folder is chosen, and opens on a double click.
        if (chosen->folder && !chosen->model_folder) {
          const fs::path next = chosen->path;
          go_to(next);
          entered_at_ = ImGui::GetTime();
        } else if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
          open_requested_ = true;
        }
      }
    }
    ImGui::EndChild();
  }

  void draw_fields(ui::UiContext& ui) {
    const char* model_label = i18n::tr("Model");
    const char* text_label = i18n::tr("Text");
    const float label_w = std::max(ImGui::CalcTextSize(model_label).x, ImGui::CalcTextSize(text_label).x) +
                          ImGui::GetStyle().ItemSpacing.x * 2.0f;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(model_label);
    ImGui::SameLine(label_w);
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::InputTextWithHint("##model-path",
                                 i18n::tr("a model folder (config.json, *.safetensors) or a .gguf file"), &path_,
                                 ImGuiInputTextFlags_EnterReturnsTrue)) {
      open_requested_ = true;
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(text_label);
    ImGui::SameLine(label_w);
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::InputText("##model-dialog-text", &text_);
    if (!error_.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
      ui::text_lines(error_);
      ImGui::PopStyleColor();
    } else {
      ImGui::TextDisabled(
          "%s", i18n::tr("GPT-2, Llama, Mistral, Qwen2 or BERT; it opens in the background (Cancel stops it)."));
    }
    if (ImGui::Button(i18n::tr_label("Open", "Open##open-model-button").c_str())) open_requested_ = true;
    ImGui::SameLine();
    if (ImGui::Button(i18n::tr_label("Cancel", "Cancel##open-model-cancel").c_str()) ||
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
      ImGui::CloseCurrentPopup();
    }
    if (std::exchange(open_requested_, false)) open(ui);
  }

  void open(ui::UiContext& ui) {
    fs::path path = path_;
    if (path.is_relative()) path = folder_ / path;
    std::error_code ec;
    if (path_.empty()) {
      error_ = i18n::tr("Choose a model folder or a .gguf file first.");
    } else if (!fs::exists(path, ec)) {
      error_ = i18n::format(i18n::tr("%s: no such file or folder"), path.c_str());
    } else {
      open_model(ui, fs::absolute(path, ec).string(), text_);
      ImGui::CloseCurrentPopup();
    }
  }

  fs::path folder_;
  std::vector<Entry> entries_;
  std::string listing_error_;
  std::string path_;
  std::string text_;
  std::string error_;
  bool open_requested_ = false;
  double entered_at_ = -1e9;  // ImGui::GetTime() of the click that entered the listed folder
};

}  // namespace

std::unique_ptr<ui::Dialog> make_open_model_dialog() { return std::make_unique<OpenModelDialog>(); }

void open_model(ui::UiContext& ui, const std::string& path, const std::string& text) {
  const std::string& last = ui.model.requested_text();
  ui.model.open(path, !text.empty() ? text : !last.empty() ? last : kDefaultText);
  ui.view.heatmaps_show_scenario = false;
  ui.view.model_layer = 0;
  ui.view.model_head = 0;
  ui.view.select_main_tab = "Heatmaps";  // not translated: the tab's ID
  ui.recent.add(document::RecentFile{path, document::RecentKind::Model});
}

}  // namespace attnviz::panels
