#include "app/panels/language_menu.h"

#include <imgui.h>

#include <cstdlib>

#include "app/i18n/language.h"
#include "app/i18n/translate.h"

namespace attnviz::panels {
namespace {

void language_item(const char* shown, i18n::Language language) {
  if (ImGui::MenuItem(shown, nullptr, i18n::chosen_language() == language)) i18n::use_language(language);
}

// The pseudo-locale is for people checking the layout, not for the classroom.
bool pseudo_offered() {
  const char* asked = std::getenv("ATTNVIZ_LANGUAGE");
  return (asked != nullptr && *asked != '\0') || i18n::chosen_language() == i18n::Language::Pseudo;
}

}  // namespace

void draw_language_menu() {
  if (!ImGui::BeginMenu(i18n::tr_label("Language").c_str())) return;
  language_item(i18n::tr_label("The desktop's language").c_str(), i18n::Language::Desktop);
  ImGui::Separator();
  // Each language by its own name, so that someone who cannot read the current one finds theirs.
  language_item("English###English", i18n::Language::English);                       // not translated: its own name
  language_item("한국어###Korean", i18n::Language::Korean);                          // not translated: its own name
  if (pseudo_offered()) language_item("[Þšéûðö]###Pseudo", i18n::Language::Pseudo);  // not translated: a test catalogue
  ImGui::EndMenu();
}

}  // namespace attnviz::panels
