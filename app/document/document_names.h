#pragma once
// How the window names the document: the caption at the right end of the menu bar and the
// file name the Save As dialog proposes. Plain strings (tests/app/document_names_test.cpp).

#include <cstddef>
#include <string>
#include <vector>

#include "app/document/document.h"

namespace attnviz::document {

// The caption's parts, most important first, and the unsaved-changes dot:
//   {"korean.json", "Korean worked example"}: a file, and a title that describes it;
//   {"korean.json"}: the content was edited since the title was written;
//   {"Korean worked example"}: a preset as it came;
//   {"Untitled", "edited from “Korean worked example…”"}: a preset, edited.
struct Caption {
  std::vector<std::string> parts;
  bool unsaved = false;
};
Caption caption_of(const Document& document);

// The parts joined with "  —  " and "  •" when unsaved, leaving parts out from the end until
// `width(text) <= max_width`; the first part alone is shortened with "…" if even it is too
// wide (the dot stays). "" when nothing fits.
template <class Width>
std::string fitted_caption(const Caption& caption, float max_width, Width&& width);

// The name Save As proposes: the current file's name, else the title as a plain ASCII slug
// ("Korean worked example — 배" → "korean-worked-example.json", at most 40 characters, ending
// "-edited" when the title no longer matches), else "scenario.json".
std::string default_file_name(const Document& document);

// `text` cut to at most `max_chars` code points, ending in "…" when cut.
std::string shorten(const std::string& text, std::size_t max_chars);

// --- the template's implementation ---

std::string join_caption(const Caption& caption, std::size_t count, std::size_t first_chars = 0);

template <class Width>
std::string fitted_caption(const Caption& caption, float max_width, Width&& width) {
  if (caption.parts.empty()) return "";
  for (std::size_t count = caption.parts.size(); count >= 1; --count) {
    const std::string text = join_caption(caption, count);
    if (width(text) <= max_width) return text;
  }
  for (std::size_t chars = 40; chars >= 4; chars -= 4) {
    const std::string text = join_caption(caption, 1, chars);
    if (width(text) <= max_width) return text;
  }
  return "";
}

}  // namespace attnviz::document
