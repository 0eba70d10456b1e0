// Help menu: the keyboard shortcuts (F1, the Classroom menu's window), where the manual and the
// guides are, and About: attnviz's version and every library and font it is built from, with
// their licences.

#include <imgui.h>

#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "app/i18n/translate.h"
#include "app/panels/panels.h"
#include "app/ui/classroom_state.h"
#include "app/window/window_components.h"
#include "core/about/components.h"
#include "core/common/binary_dir.h"

namespace attnviz::panels {
namespace {

namespace fs = std::filesystem;

// The guides: installed beside the binary (PREFIX/share/doc/attnviz/docs), else the source
// tree's (a build run from where it was built).
std::optional<fs::path> docs_dir() {
  std::error_code error;
  std::vector<fs::path> candidates;
  if (const fs::path here = binary_dir(); !here.empty())
    candidates.push_back(here.parent_path() / "share" / "doc" / "attnviz" / "docs");
  candidates.emplace_back(ATTNVIZ_INSTALL_DOCS);
  candidates.emplace_back(ATTNVIZ_SOURCE_DOCS);
  for (const fs::path& dir : candidates)
    if (fs::is_regular_file(dir / "gui.md", error)) return dir.lexically_normal();
  return std::nullopt;
}

// A Help window opens in the middle of the window, `width` wide and as tall as its content.
void place_next_window(float width) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_Appearing);
}

// A row of the About table: name, version, licence; the home page in its tooltip.
void component_row(const about::Component& component) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(component.name.c_str());
  if (ImGui::IsItemHovered() && !component.home.empty()) ImGui::SetTooltip("%s", component.home.c_str());
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(component.version.c_str());
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(component.licence.c_str());
}

// The core's libraries, then the window's (Dear ImGui, GLFW, the fonts it draws with).
std::vector<about::Component> every_component() {
  std::vector<about::Component> out = about::core_components();
  for (about::Component& c : window::window_components()) out.push_back(std::move(c));
  return out;
}

class HelpMenu final : public ui::Menu {
 public:
  [[nodiscard]] const char* label() const override { return N_("Help"); }

  void draw_items(ui::UiContext& ui) override {
    if (ImGui::MenuItem(i18n::tr_label("Keyboard shortcuts").c_str(), "F1", ui.classroom.help_open))
      ui.classroom.help_open = !ui.classroom.help_open;
    if (ImGui::MenuItem(i18n::tr_label("Manual and guides").c_str())) {
      docs_ = docs_dir();  // looked for when the window opens, not every frame
      docs_open_ = true;
    }
    ImGui::Separator();
    if (ImGui::MenuItem(i18n::tr_label("About attnviz").c_str())) {
      components_ = every_component();  // made when About opens, not every frame
      about_open_ = true;
    }
  }

  void update(ui::UiContext& ui) override {
    if (docs_open_) draw_docs(ui);
    if (about_open_) draw_about(ui);
  }

 private:
  void draw_docs(const ui::UiContext& ui) {
    place_next_window(620.0f * ui.ui_scale);
    const std::string title = i18n::tr_label("Manual and guides");
    if (ImGui::Begin(title.c_str(), &docs_open_, ImGuiWindowFlags_NoCollapse)) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextUnformatted(i18n::tr("The manual, with every option of the window and of each command:"));
      ImGui::BulletText("man attnviz");             // not translated: a command
      ImGui::BulletText("attnviz --help");          // not translated: a command
      ImGui::BulletText("attnviz COMMAND --help");  // not translated: a command
      ImGui::Spacing();
      if (docs_) {
        ImGui::TextUnformatted(i18n::format(i18n::tr("The guides, in %s:"), docs_->string().c_str()).c_str());
        ImGui::BulletText("%s", i18n::tr("gui.md: the window, its panels and views"));
        ImGui::BulletText("%s", i18n::tr("classroom.md: the classroom views, presentation mode and the lessons"));
        ImGui::BulletText("%s", i18n::tr("design.md: scenario and model files, the commands' output"));
      } else {
        ImGui::TextUnformatted(
            i18n::tr("The guides (gui.md, classroom.md, design.md) are not installed here: they "
                     "are in the docs folder of attnviz's source."));
      }
      ImGui::PopTextWrapPos();
    }
    ImGui::End();
  }

  void draw_about(const ui::UiContext& ui) {
    place_next_window(640.0f * ui.ui_scale);
    const std::string title = i18n::tr_label("About attnviz");
    if (ImGui::Begin(title.c_str(), &about_open_, ImGuiWindowFlags_NoCollapse)) {
      ImGui::TextUnformatted(("attnviz " + about::attnviz_version()).c_str());  // not translated: name and number
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextUnformatted(
          i18n::tr("See how transformer attention is computed: every number of it, on the CPU and "
                   "the GPU, for a sentence you type or a model you open."));
      ImGui::Spacing();
      ImGui::TextUnformatted(i18n::tr("Built with (hover a name for its home page):"));
      ImGui::PopTextWrapPos();
      if (ImGui::BeginTable("##components", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn(i18n::tr_label("Library or font").c_str());
        ImGui::TableSetupColumn(i18n::tr_label("Version").c_str());
        ImGui::TableSetupColumn(i18n::tr_label("Licence").c_str());
        ImGui::TableHeadersRow();
        for (const about::Component& c : components_) component_row(c);
        ImGui::EndTable();
      }
    }
    ImGui::End();
    if (!about_open_) components_.clear();
  }

  bool docs_open_ = false;
  std::optional<fs::path> docs_;  // where the guides are (docs_dir), found when the window opened
  bool about_open_ = false;
  std::vector<about::Component> components_;
};

}  // namespace

std::unique_ptr<ui::Menu> make_help_menu() { return std::make_unique<HelpMenu>(); }

}  // namespace attnviz::panels
