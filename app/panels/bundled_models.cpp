#include "app/panels/bundled_models.h"

#include <imgui.h>

#include <string>
#include <vector>

#include "app/compute/model_session.h"
#include "app/i18n/language.h"
#include "app/i18n/translate.h"
#include "app/panels/panels.h"
#include "app/ui/classroom_state.h"
#include "app/ui/panel.h"
#include "app/ui/view_state.h"
#include "core/model/bundled.h"

namespace attnviz::panels {
namespace {

// The folder is read once: what the package installed does not change while the window runs.
const std::vector<model::BundledModel>& installed() {
  static const std::vector<model::BundledModel> models = model::bundled_models();
  return models;
}

// As File > Open model opens one (and on top of Open Recent), on its sample text.
void open(ui::UiContext& ui, const model::BundledModel& bundled) {
  open_model(ui, bundled.folder.string(), bundled.sample_text);
}

// What the model is, in the window's language where its folder says it in that language.
const char* description(const model::BundledModel& bundled) {
  const bool korean = i18n::shown_language() == i18n::Language::Korean && !bundled.description_ko.empty();
  return korean ? bundled.description_ko.c_str() : bundled.description.c_str();
}

}  // namespace

void draw_bundled_model_buttons(ui::UiContext& ui) {
  if (installed().empty()) return;
  ImGui::Spacing();
  ImGui::TextUnformatted(i18n::tr("Or open a small model that comes with attnviz, trained by attnviz itself:"));
  for (const model::BundledModel& bundled : installed()) {
    const std::string label = i18n::format(i18n::tr("Open %s"), bundled.name.c_str()) + "###bundled-" + bundled.name;
    if (ImGui::Button(label.c_str())) {
      open(ui, bundled);
      ui.view.select_main_tab = ui::kModelViewTitle;  // asked for here: shown here
    }
    ImGui::SameLine();
    ImGui::TextDisabled("%s", description(bundled));
  }
}

void draw_bundled_models_menu(ui::UiContext& ui) {
  if (installed().empty()) return;
  if (!ImGui::BeginMenu(i18n::tr_label("Bundled models", "Bundled models").c_str())) return;
  for (const model::BundledModel& bundled : installed()) {
    if (ImGui::MenuItem((bundled.name + "###bundled-menu-" + bundled.name).c_str())) open(ui, bundled);
    if (ImGui::IsItemHovered() && !bundled.description.empty()) ImGui::SetTooltip("%s", description(bundled));
  }
  ImGui::EndMenu();
}

}  // namespace attnviz::panels
