#pragma once
// The language the window speaks, chosen at start and switched live (View ▸ Language).
//
// The window follows the desktop: LANGUAGE, then LC_ALL, LC_MESSAGES, LANG (a ko_KR.UTF-8
// desktop gets Korean); ATTNVIZ_LANGUAGE (en, ko, pseudo) or a choice remembered from the View
// menu comes before them. "pseudo" is the layout check's catalogue: every string bracketed and
// 40 % longer (po/pseudo_locale.py), built beside the real ones.

#include <functional>
#include <optional>
#include <string_view>

namespace attnviz::i18n {

inline constexpr const char* kDomain = "attnviz";

enum class Language {
  Desktop,  // whatever the environment says (not a catalogue of its own)
  English,
  Korean,
  Pseudo,
};

// "en", "ko", "pseudo"; "" for Desktop. The remembered choice and ATTNVIZ_LANGUAGE use these.
[[nodiscard]] const char* language_code(Language language);
[[nodiscard]] std::optional<Language> language_from_code(std::string_view code);

// The language the environment asks for (English unless it names Korean or the pseudo-locale);
// `lookup` is getenv, or a test's table.
using EnvironmentLookup = std::function<const char*(const char*)>;
[[nodiscard]] Language language_from_environment(const EnvironmentLookup& lookup);

// Once, before the first frame: finds the catalogues and speaks `chosen` (Desktop: the
// environment's, read now, before this process sets LANGUAGE itself).
void start_translation(Language chosen);
// Switches every later tr() to `chosen`, live.
void use_language(Language chosen);
// What the user chose (Desktop included), and what that means now (never Desktop).
[[nodiscard]] Language chosen_language();
[[nodiscard]] Language shown_language();

}  // namespace attnviz::i18n
