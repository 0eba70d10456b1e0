#pragma once
// The words core writes for people (the classroom's lesson pages, the Compare view's labels,
// the scaling verdict) in the language of whoever shows them. core links no translation
// library (docs/architecture.md): the window passes its gettext lookup in, the command line and
// the tests keep the default, English as written.
//
// Every sentence is written where it is made, as a literal inside tr() or trn(), the names
// xgettext extracts (po/CMakeLists.txt), so the window's catalogue holds core's sentences too:
//
//   wording.tr("Scaling the scores")
//   wording.tr("%1$s sees %2$s of %3$s keys", {label, seen, keys})
//   wording.trn("%1$s more key", "%1$s more keys", count, {format_grouped(count)})
//
// Numbers, formulas and token labels are arguments, never part of a message: a translation
// moves the numbered arguments where its word order wants them and cannot change them.

#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>

namespace attnviz {

class Wording {
 public:
  using Lookup = std::function<std::string(const char* msgid)>;
  using PluralLookup = std::function<std::string(const char* singular, const char* plural, unsigned long n)>;

  Wording() = default;  // English: every message as written
  Wording(Lookup lookup, PluralLookup plural_lookup);

  [[nodiscard]] std::string tr(const char* msgid) const;
  // The translation of `msgid` with its %1$s … %9$s replaced by `args`.
  [[nodiscard]] std::string tr(const char* msgid, std::initializer_list<std::string_view> args) const;
  // The form for `n` of a counted message (English: singular for 1), its arguments filled in.
  [[nodiscard]] std::string trn(const char* singular, const char* plural, unsigned long n,
                                std::initializer_list<std::string_view> args) const;

 private:
  Lookup lookup_;
  PluralLookup plural_lookup_;
};

// `pattern` with each %N$s (N = 1 … 9) replaced by args[N − 1] and "%%" by "%"; a placeholder
// without an argument stays as written, so a bad translation shows its mistake instead of crashing.
[[nodiscard]] std::string fill_arguments(std::string_view pattern, std::initializer_list<std::string_view> args);

}  // namespace attnviz

// Marks a literal for extraction only, for a word chosen in one place and worded in another
// (a step's name): Wording::tr() translates it where it is shown. The same as app/i18n's.
#ifndef N_
#define N_(text) text
#endif
