#pragma once
// Text for exported images: a Hangul-capable TrueType font found at run time (the window's
// font, NanumGothic, first), measured and rasterised with stb_truetype. Layout measures with
// the same font the PNG is drawn with, so labels never overlap.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::exporting {

// An 8-bit coverage image of one line of text; the baseline is at row `baseline`.
struct TextBitmap {
  int width = 0;
  int height = 0;
  int baseline = 0;
  std::vector<std::uint8_t> coverage;  // row-major, width × height
};

class Font {
 public:
  // `fallbacks` lend the glyphs `file` lacks, the first that has one; the line's ascent and
  // descent stay `file`'s. Throws std::runtime_error naming the file when one cannot be read or
  // parsed.
  explicit Font(const std::filesystem::path& file, const std::vector<std::filesystem::path>& fallbacks = {});
  ~Font();
  Font(const Font&) = delete;
  Font& operator=(const Font&) = delete;

  [[nodiscard]] const std::filesystem::path& file() const { return file_; }
  // The family name from the font's name table ("NanumGothic"), for the SVG's font-family.
  [[nodiscard]] const std::string& family() const;
  // The family names of `file` and of its fallbacks, in the order glyphs are looked up.
  [[nodiscard]] std::vector<std::string> families() const;
  // `pixel_size` is always the em in pixels, as CSS's font-size (SVG draws the same text).
  // Advance width of the UTF-8 text at `pixel_size`.
  [[nodiscard]] float measure(std::string_view utf8, float pixel_size) const;
  [[nodiscard]] float ascent(float pixel_size) const;   // above the baseline, > 0
  [[nodiscard]] float descent(float pixel_size) const;  // below the baseline, > 0
  // Whether the code point can be drawn: the font or a fallback has its glyph or a plain
  // stand-in (a hyphen for the minus sign U+2212).
  [[nodiscard]] bool has_glyph(char32_t code_point) const;
  [[nodiscard]] TextBitmap rasterize(std::string_view utf8, float pixel_size) const;

 private:
  struct Impl;
  std::filesystem::path file_;
  std::unique_ptr<Impl> impl_;
};

// The regular and bold faces used for exported images.
struct FontPair {
  std::shared_ptr<const Font> regular;
  std::shared_ptr<const Font> bold;  // the regular face when no bold one is found
  // What the reader should know about the choice, e.g. that $ATTNVIZ_HANGUL_FONT names no file
  // and which font was used instead.
  std::vector<std::string> warnings;
};

// $ATTNVIZ_HANGUL_FONT when set, else NanumGothic, then Noto Sans CJK and other Hangul fonts
// at their usual paths, each with DejaVu Sans (where installed) lending the signs it lacks. Loaded once per process. When $ATTNVIZ_HANGUL_FONT is set but is no
// readable font, the next candidate is used and FontPair::warnings says so. Throws
// std::runtime_error listing the paths tried (and how to install fonts-nanum) when none exists.
const FontPair& export_fonts();

std::vector<std::filesystem::path> hangul_font_candidates();

// The bold face installed beside a regular one, by the naming of the packages that ship them
// (NanumGothic.ttf → NanumGothicBold.ttf, NotoSansCJK-Regular.ttc → NotoSansCJK-Bold.ttc);
// nullopt when there is none. The exported titles and the window's headings use it.
std::optional<std::filesystem::path> bold_sibling(const std::filesystem::path& regular);

// UTF-8 decoding for measuring and drawing; invalid bytes decode as U+FFFD.
std::vector<char32_t> decode_utf8(std::string_view text);

}  // namespace attnviz::exporting
