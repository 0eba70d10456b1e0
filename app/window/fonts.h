#pragma once
// The UI fonts: a Latin font (DejaVu Sans: Latin, Greek, arrows, maths, sub/superscripts)
// with a Hangul font merged in (NanumGothic, or another Korean font), so Korean tokens show in
// every label. Without a Hangul font, Korean text shows as '?' and the window says so once.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

struct ImFont;

namespace attnviz::window {

// A font file with Hangul syllables: $ATTNVIZ_HANGUL_FONT, then well-known locations
// (fonts-nanum, Noto Sans CJK, UnFonts, Baekmuk). nullopt when none is installed.
// (core/export/font_files.h's find_hangul_font() should replace this once it lands.)
std::optional<std::filesystem::path> find_hangul_font();
std::optional<std::filesystem::path> find_latin_font();

struct FontSet {
  ImFont* body = nullptr;        // labels, panels, tooltips (with Hangul)
  ImFont* heading = nullptr;     // heatmap titles (larger, bold when available; translated Hangul)
  ImFont* small = nullptr;       // in-cell numbers, colorbar ticks (Latin; translated Hangul)
  std::string latin_file;        // "" when ImGui's built-in font was used
  std::string hangul_file;       // "" when no Hangul font was found
  std::string hangul_bold_file;  // the headings' Hangul: its bold sibling, else hangul_file
};

// The characters translated text uses (app/i18n/catalogue_characters.h), set before the fonts
// are loaded: the heading and small fonts get their Hangul (a few hundred syllables; the body
// font has all 11,172 for what people type, which would triple the atlas at every size).
void set_translated_characters(const std::vector<char32_t>& characters);

// Clears the ImGui font atlas and loads the fonts at `pixel_size` (already multiplied by the
// UI scale). The renderer must upload the atlas afterwards.
FontSet load_fonts(float pixel_size);

// The fonts the UI draws with (valid after load_fonts).
const FontSet& fonts();

}  // namespace attnviz::window
