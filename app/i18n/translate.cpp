#include "app/i18n/translate.h"

#include <libintl.h>

#include <cstdarg>
#include <cstdio>

#include "app/i18n/language.h"

namespace attnviz::i18n {

const char* tr(const char* msgid) { return dgettext(kDomain, msgid); }

const char* trn(const char* singular, const char* plural, unsigned long n) {
  return dngettext(kDomain, singular, plural, n);
}

// pgettext's convention (gettext.h): the context and the text joined by EOT, as xgettext
// writes msgctxt entries into the catalogue.
const char* trc(const char* context, const char* msgid) {
  std::string key = context;
  key += '\004';
  key += msgid;
  const char* found = dgettext(kDomain, key.c_str());
  return found == key.c_str() ? msgid : found;
}

std::string tr_label(const char* msgid) { return tr_label(msgid, msgid); }

std::string tr_label(const char* msgid, const char* id) {
  std::string label = tr(msgid);
  label += "###";
  label += id;
  return label;
}

Wording wording() {
  return Wording(
      [](const char* msgid) { return std::string(tr(msgid)); },
      [](const char* singular, const char* plural, unsigned long n) { return std::string(trn(singular, plural, n)); });
}

std::string format(const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list again;
  va_copy(again, args);
  const int length = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string text(length > 0 ? static_cast<std::size_t>(length) : 0, '\0');
  if (length > 0) std::vsnprintf(text.data(), text.size() + 1, format, again);
  va_end(again);
  return text;
}

}  // namespace attnviz::i18n
