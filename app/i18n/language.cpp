#include "app/i18n/language.h"

#include <libintl.h>

#include <clocale>
#include <cstdlib>
#include <string>

#include "app/i18n/catalogue_dir.h"

namespace attnviz::i18n {
namespace {

Language g_chosen = Language::English;
Language g_desktop = Language::English;

// "ko_KR.UTF-8", "ko", "ko:en" -> Korean; the first entry of a LANGUAGE list decides.
Language language_of_locale(std::string_view name) {
  if (name.starts_with("pseudo")) return Language::Pseudo;
  if (name.starts_with("ko")) return Language::Korean;
  return Language::English;
}

// gettext ignores LANGUAGE while LC_MESSAGES is "C": C.UTF-8 (glibc's built-in) lets it through
// without depending on which locales the machine generated. Only messages: numbers keep printing
// with a decimal point whatever the desktop's locale.
void let_language_through() {
  if (std::setlocale(LC_MESSAGES, "C.UTF-8") == nullptr) std::setlocale(LC_MESSAGES, "");
}

}  // namespace

const char* language_code(Language language) {
  switch (language) {
    case Language::Desktop: return "";
    case Language::English: return "en";
    case Language::Korean: return "ko";
    case Language::Pseudo: return "pseudo";
  }
  return "";
}

std::optional<Language> language_from_code(std::string_view code) {
  for (Language language : {Language::Desktop, Language::English, Language::Korean, Language::Pseudo}) {
    if (code == language_code(language)) return language;
  }
  return std::nullopt;
}

Language language_from_environment(const EnvironmentLookup& lookup) {
  for (const char* variable : {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"}) {
    const char* value = lookup(variable);
    if (value != nullptr && *value != '\0') return language_of_locale(value);
  }
  return Language::English;
}

void start_translation(Language chosen) {
  g_desktop = language_from_environment([](const char* name) { return std::getenv(name); });
  let_language_through();
  if (const auto directory = catalogue_dir()) bindtextdomain(kDomain, directory->c_str());
  bind_textdomain_codeset(kDomain, "UTF-8");
  use_language(chosen);
}

void use_language(Language chosen) {
  g_chosen = chosen;
  // Read on every lookup by gettext; set only from the UI thread, the one that translates.
  setenv("LANGUAGE", language_code(shown_language()), 1);
  // glibc caches translations per catalogue generation: textdomain() moves the generation on
  // (_nl_msg_cat_cntr), so the next lookup reads the new language's catalogue.
  textdomain(kDomain);
}

Language chosen_language() { return g_chosen; }

Language shown_language() { return g_chosen == Language::Desktop ? g_desktop : g_chosen; }

}  // namespace attnviz::i18n
