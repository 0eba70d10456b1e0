#pragma once
// The calls every user-visible string of the window goes through (GNU gettext, domain
// "attnviz"). xgettext finds them by name (po/CMakeLists.txt lists the keywords), so the
// English text is written where it is used, as a literal:
//
//   ImGui::MenuItem(i18n::tr("Next head"), "H")
//   i18n::format(i18n::trn("%d token", "%d tokens", n), n)
//   ImGui::BeginMenu(i18n::tr_label("View").c_str())   // shown translated, ID "###View"
//
// A string chosen in one place and shown in another (a table of shortcuts, a panel's title) is
// marked with N_("...") where it is written and translated with tr() where it is shown.

#include <string>

#include "core/common/wording.h"

namespace attnviz::i18n {

// The translation of `msgid` in the chosen language, or `msgid` itself.
[[nodiscard]] const char* tr(const char* msgid);
// The form for `n` of a counted phrase (Korean has one form, English two).
[[nodiscard]] const char* trn(const char* singular, const char* plural, unsigned long n);
// `msgid` in a context, for an English word with two meanings ("Open" a file, a mask "open").
[[nodiscard]] const char* trc(const char* context, const char* msgid);

// A Dear ImGui label shown translated whose ID is the English text ("보기###View"): a widget
// keeps its identity, its open state and the tests' path to it in every language.
[[nodiscard]] std::string tr_label(const char* msgid);
// The same with an ID of its own, for a label whose English text is not unique.
[[nodiscard]] std::string tr_label(const char* msgid, const char* id);

// These calls as the Wording core's sentences go through (core/lesson's pages, the scaling
// verdict): a copy translates in whichever language is chosen when it is called, so a switch
// reaches the next page built with it.
[[nodiscard]] Wording wording();

// printf into a string, for a translated format ("%s tokens"): the translation decides the order
// of the words, the arguments stay numbers and token labels.
[[nodiscard]] std::string format(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace attnviz::i18n

// Marks a literal for extraction only; it is translated where it is shown (i18n::tr).
#ifndef N_
#define N_(text) text
#endif
