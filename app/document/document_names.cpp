#include "app/document/document_names.h"

#include <algorithm>
#include <cctype>

#include "app/i18n/translate.h"
#include "core/scenario/preset_titles.h"

namespace attnviz::document {
namespace {

// UTF-8: the byte length of the code point starting at s[i].
std::size_t code_point_length(const std::string& s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  const std::size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  return std::min(n, s.size() - i);
}

// Lower-case ASCII letters and digits, anything else one '-': a name every file system and
// shell takes as it is ("Korean worked example — 어제…" → "korean-worked-example").
std::string slug(const std::string& title, std::size_t max_chars) {
  std::string name;
  for (const char c : title) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x80 && std::isalnum(u) != 0)
      name += static_cast<char>(std::tolower(u));
    else if (!name.empty() && name.back() != '-')
      name += '-';
  }
  if (name.size() > max_chars) {  // cut at a word's end when there is one
    name.resize(max_chars);
    const std::size_t dash = name.rfind('-');
    if (dash != std::string::npos && dash >= max_chars / 2) name.resize(dash);
  }
  while (!name.empty() && name.back() == '-') name.pop_back();
  return name;
}

constexpr std::size_t kMaxCaptionPart = 120;

}  // namespace

std::string shorten(const std::string& text, std::size_t max_chars) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); i += code_point_length(text, i)) ++chars;
  if (chars <= max_chars) return text;
  std::size_t bytes = 0;
  for (std::size_t kept = 0; kept + 1 < max_chars; ++kept) bytes += code_point_length(text, bytes);  // room for "…"
  return text.substr(0, bytes) + "\u2026";
}

Caption caption_of(const Document& document) {
  Caption caption;
  caption.unsaved = document.modified();
  // A preset's title in the window's language (core/scenario/preset_titles.h).
  const std::string title = worded_title(document.scenario().title, i18n::wording());
  const bool titled = document.title_matches() && !title.empty();
  // A title or name may be as long as the user likes: the bar shows a line's worth of it.
  if (document.path()) {
    caption.parts.push_back(shorten(document.path()->filename().string(), kMaxCaptionPart));
    if (titled) caption.parts.push_back(shorten(title, kMaxCaptionPart));
  } else if (titled) {
    caption.parts.push_back(shorten(title, kMaxCaptionPart));
  } else {
    caption.parts.emplace_back(i18n::tr("Untitled"));
    // TRANSLATORS: the menu bar and window title name an unsaved scenario edited from a titled one.
    if (!title.empty())
      caption.parts.push_back(i18n::format(i18n::tr("edited from \u201C%s\u201D"), shorten(title, 36).c_str()));
  }
  return caption;
}

std::string join_caption(const Caption& caption, std::size_t count, std::size_t first_chars) {
  std::string text;
  for (std::size_t i = 0; i < count && i < caption.parts.size(); ++i) {
    if (i > 0) text += "  \u2014  ";
    text += i == 0 && first_chars > 0 ? shorten(caption.parts[i], first_chars) : caption.parts[i];
  }
  if (caption.unsaved) text += "  \u2022";
  return text;
}

std::string default_file_name(const Document& document) {
  if (document.path()) return document.path()->filename().string();
  std::string name = slug(document.scenario().title, 40);
  if (name.empty()) return "scenario.json";
  if (!document.title_matches()) name += "-edited";
  return name + ".json";
}

}  // namespace attnviz::document
