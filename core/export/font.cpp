#include "core/export/font.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <stdexcept>

// The one stb_truetype implementation of attnviz, private to this file (STBTT_STATIC), so it
// cannot clash with a copy inside another library.
#define STBTT_STATIC
#define STB_TRUETYPE_IMPLEMENTATION
#include <stb/stb_truetype.h>

namespace attnviz::exporting {

// One font file, parsed.
struct Face {
  std::vector<unsigned char> bytes;
  stbtt_fontinfo info{};
  std::string family;

  // Font units → pixels for an em of `pixel_size`: the meaning CSS gives font-size, so the SVG's
  // <text font-size> draws exactly what the layout measured. (stbtt_ScaleForPixelHeight would
  // fit ascent + descent, about 1.15 em for NanumGothic, into the size instead.)
  [[nodiscard]] float scale(float pixel_size) const { return stbtt_ScaleForMappingEmToPixels(&info, pixel_size); }
};

// A glyph of one of the font's faces; glyph 0 is the primary face's "missing" box.
struct GlyphRef {
  const Face* face = nullptr;
  int glyph = 0;
};

struct Font::Impl {
  // The primary face first (its ascent and descent set the line), then the faces that lend it
  // the glyphs it lacks, in order.
  std::vector<std::unique_ptr<Face>> faces;
  int ascent = 0;
  int descent = 0;  // negative, the primary face's units

  [[nodiscard]] const Face& primary() const { return *faces.front(); }
  [[nodiscard]] GlyphRef find(char32_t code) const;
};

namespace {

std::vector<unsigned char> read_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the font " + file.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool is_file(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error);
}

// A plain stand-in for a code point no face has (U+2212 → '-'), 0 when there is none.
int stand_in_glyph(const stbtt_fontinfo& info, char32_t code) {
  switch (code) {
    case 0x2212: return stbtt_FindGlyphIndex(&info, '-');  // minus sign
    case 0x1D40: return stbtt_FindGlyphIndex(&info, 'T');  // superscript T
    case 0x202F:
    case 0x2009:
      return stbtt_FindGlyphIndex(&info, ' ');  // thin spaces
    // The signs pretrained models' token labels use (core/tokenizers/token_label.h).
    case 0x2423: return stbtt_FindGlyphIndex(&info, '_');     // ␣ a space
    case 0x21B5: return stbtt_FindGlyphIndex(&info, 0x00B6);  // ↵ a line break, as ¶
    case 0x21E5: return stbtt_FindGlyphIndex(&info, 0x2192);  // ⇥ a tab, as →
    default:
      // A cut character's byte numbers (안₁₂) as plain digits.
      if (code >= 0x2080 && code <= 0x2089) return stbtt_FindGlyphIndex(&info, static_cast<int>('0' + (code - 0x2080)));
      return 0;
  }
}

// The family name (name ID 1) from the font's name table, in English where there is a choice;
// "" when the font has none that decodes.
std::string family_name(const stbtt_fontinfo& info) {
  int length = 0;
  // Windows/Unicode BMP (UTF-16BE), US English; then Mac Roman, English (one byte per character).
  if (const char* name = stbtt_GetFontNameString(&info, &length, STBTT_PLATFORM_ID_MICROSOFT, STBTT_MS_EID_UNICODE_BMP,
                                                 STBTT_MS_LANG_ENGLISH, 1)) {
    std::string text;
    for (int i = 0; i + 1 < length; i += 2) {
      const auto code =
          static_cast<unsigned>((static_cast<unsigned char>(name[i]) << 8) | static_cast<unsigned char>(name[i + 1]));
      if (code >= 0x20 && code < 0x7F) text += static_cast<char>(code);  // family names in English are ASCII
    }
    if (!text.empty()) return text;
  }
  if (const char* name = stbtt_GetFontNameString(&info, &length, STBTT_PLATFORM_ID_MAC, STBTT_MAC_EID_ROMAN,
                                                 STBTT_MAC_LANG_ENGLISH, 1)) {
    std::string text;
    for (int i = 0; i < length; ++i) {
      if (name[i] >= 0x20 && name[i] < 0x7F) text += name[i];
    }
    return text;
  }
  return "";
}

std::unique_ptr<Face> load_face(const std::filesystem::path& file) {
  auto face = std::make_unique<Face>();
  face->bytes = read_bytes(file);
  const int offset = stbtt_GetFontOffsetForIndex(face->bytes.data(), 0);
  if (offset < 0 || stbtt_InitFont(&face->info, face->bytes.data(), offset) == 0) {
    throw std::runtime_error("cannot parse the font " + file.string() + " (not a TrueType/OpenType file?)");
  }
  face->family = family_name(face->info);
  return face;
}

float kern(const GlyphRef& previous, const GlyphRef& next, float pixel_size) {
  if (previous.face != next.face || previous.glyph == 0) return 0.0f;
  return next.face->scale(pixel_size) *
         static_cast<float>(stbtt_GetGlyphKernAdvance(&next.face->info, previous.glyph, next.glyph));
}

float advance(const GlyphRef& ref, float pixel_size) {
  int advance_units = 0;
  int bearing = 0;
  stbtt_GetGlyphHMetrics(&ref.face->info, ref.glyph, &advance_units, &bearing);
  return ref.face->scale(pixel_size) * static_cast<float>(advance_units);
}

}  // namespace

GlyphRef Font::Impl::find(char32_t code) const {
  for (const auto& face : faces) {
    if (const int glyph = stbtt_FindGlyphIndex(&face->info, static_cast<int>(code)); glyph != 0)
      return {face.get(), glyph};
  }
  for (const auto& face : faces) {
    if (const int glyph = stand_in_glyph(face->info, code); glyph != 0) return {face.get(), glyph};
  }
  return {faces.front().get(), 0};
}

std::vector<char32_t> decode_utf8(std::string_view text) {
  std::vector<char32_t> out;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    // Continuation bytes after the lead byte: 0 (ASCII), 1, 2 or 3; -1 for a stray byte.
    const int extra = lead < 0x80 ? 0 : (lead >> 5) == 0x6 ? 1 : (lead >> 4) == 0xE ? 2 : (lead >> 3) == 0x1E ? 3 : -1;
    const bool truncated = extra > 0 && i + static_cast<std::size_t>(extra) >= text.size();
    if (extra < 0 || truncated) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    char32_t code = extra == 0 ? lead : lead & (0x3Fu >> extra);
    bool valid = true;
    for (int k = 1; k <= extra; ++k) {
      const auto next = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
      if ((next & 0xC0u) != 0x80u) valid = false;
      code = (code << 6) | (next & 0x3Fu);
    }
    out.push_back(valid ? code : 0xFFFD);
    i += valid ? static_cast<std::size_t>(extra) + 1 : 1;
  }
  return out;
}

Font::Font(const std::filesystem::path& file, const std::vector<std::filesystem::path>& fallbacks)
    : file_(file), impl_(std::make_unique<Impl>()) {
  impl_->faces.push_back(load_face(file));
  for (const auto& fallback : fallbacks) impl_->faces.push_back(load_face(fallback));
  int line_gap = 0;
  stbtt_GetFontVMetrics(&impl_->primary().info, &impl_->ascent, &impl_->descent, &line_gap);
}

const std::string& Font::family() const { return impl_->primary().family; }

std::vector<std::string> Font::families() const {
  std::vector<std::string> names;
  for (const auto& face : impl_->faces) {
    if (!face->family.empty()) names.push_back(face->family);
  }
  return names;
}

Font::~Font() = default;

float Font::ascent(float pixel_size) const {
  return static_cast<float>(impl_->ascent) * impl_->primary().scale(pixel_size);
}

float Font::descent(float pixel_size) const {
  return -static_cast<float>(impl_->descent) * impl_->primary().scale(pixel_size);
}

bool Font::has_glyph(char32_t code_point) const { return impl_->find(code_point).glyph != 0; }

float Font::measure(std::string_view utf8, float pixel_size) const {
  float width = 0.0f;
  GlyphRef previous;
  for (const char32_t code : decode_utf8(utf8)) {
    const GlyphRef glyph = impl_->find(code);
    width += kern(previous, glyph, pixel_size) + advance(glyph, pixel_size);
    previous = glyph;
  }
  return width;
}

TextBitmap Font::rasterize(std::string_view utf8, float pixel_size) const {
  TextBitmap bitmap;
  bitmap.baseline = static_cast<int>(std::ceil(ascent(pixel_size)));
  bitmap.width = static_cast<int>(std::ceil(measure(utf8, pixel_size))) + 2;
  bitmap.height = bitmap.baseline + static_cast<int>(std::ceil(descent(pixel_size))) + 1;
  bitmap.coverage.assign(static_cast<std::size_t>(bitmap.width) * static_cast<std::size_t>(bitmap.height), 0);

  float pen = 0.0f;
  GlyphRef previous;
  std::vector<unsigned char> glyph_pixels;
  for (const char32_t code : decode_utf8(utf8)) {
    const GlyphRef ref = impl_->find(code);
    const stbtt_fontinfo& info = ref.face->info;
    const float scale = ref.face->scale(pixel_size);
    pen += kern(previous, ref, pixel_size);
    const float shift = pen - std::floor(pen);
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    stbtt_GetGlyphBitmapBoxSubpixel(&info, ref.glyph, scale, scale, shift, 0.0f, &x0, &y0, &x1, &y1);
    const int w = x1 - x0;
    const int h = y1 - y0;
    if (w > 0 && h > 0) {
      glyph_pixels.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
      stbtt_MakeGlyphBitmapSubpixel(&info, glyph_pixels.data(), w, h, w, scale, scale, shift, 0.0f, ref.glyph);
      const int left = static_cast<int>(std::floor(pen)) + x0;
      const int top = bitmap.baseline + y0;
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          const int bx = left + x;
          const int by = top + y;
          if (bx < 0 || by < 0 || bx >= bitmap.width || by >= bitmap.height) continue;
          std::uint8_t& target = bitmap.coverage[static_cast<std::size_t>(by) * static_cast<std::size_t>(bitmap.width) +
                                                 static_cast<std::size_t>(bx)];
          const int sum =
              target +
              glyph_pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)];
          target = static_cast<std::uint8_t>(sum > 255 ? 255 : sum);
        }
      }
    }
    pen += advance(ref, pixel_size);
    previous = ref;
  }
  return bitmap;
}

std::optional<std::filesystem::path> bold_sibling(const std::filesystem::path& regular) {
  const std::string stem = regular.stem().string();
  std::vector<std::string> names = {stem + "Bold" + regular.extension().string(),
                                    stem + "-Bold" + regular.extension().string()};
  if (const auto dash = stem.rfind("-Regular"); dash != std::string::npos) {
    names.push_back(stem.substr(0, dash) + "-Bold" + regular.extension().string());
  }
  for (const std::string& name : names) {
    if (is_file(regular.parent_path() / name)) return regular.parent_path() / name;
  }
  return std::nullopt;
}

std::vector<std::filesystem::path> hangul_font_candidates() {
  std::vector<std::filesystem::path> paths;
  if (const char* chosen = std::getenv("ATTNVIZ_HANGUL_FONT"); chosen != nullptr && *chosen != '\0') {
    paths.emplace_back(chosen);
  }
  for (const char* path :
       {"/usr/share/fonts/truetype/nanum/NanumGothic.ttf", "/usr/share/fonts/truetype/nanum/NanumBarunGothic.ttf",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/truetype/unfonts-core/UnDotum.ttf", "/usr/share/fonts/nanum/NanumGothic.ttf",
        "/Library/Fonts/AppleGothic.ttf"}) {
    paths.emplace_back(path);
  }
  return paths;
}

namespace {

// The faces that lend the Hangul font the signs it lacks (NanumGothic has no ᵀ, ₖ or −):
// DejaVu Sans, the window's Latin font, where it is installed.
struct GlyphLenders {
  std::vector<std::filesystem::path> regular;
  std::vector<std::filesystem::path> bold;
};

GlyphLenders glyph_lenders() {
  GlyphLenders lenders;
  for (const char* folder : {"/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF"}) {
    const std::filesystem::path regular = std::filesystem::path(folder) / "DejaVuSans.ttf";
    if (!is_file(regular)) continue;
    lenders.regular.push_back(regular);
    const std::filesystem::path bold = std::filesystem::path(folder) / "DejaVuSans-Bold.ttf";
    lenders.bold.push_back(is_file(bold) ? bold : regular);
    break;
  }
  return lenders;
}

}  // namespace

const FontPair& export_fonts() {
  static std::mutex mutex;
  static std::optional<FontPair> fonts;
  const std::lock_guard lock(mutex);
  if (fonts) return *fonts;
  const char* chosen = std::getenv("ATTNVIZ_HANGUL_FONT");
  const bool has_choice = chosen != nullptr && *chosen != '\0';
  std::string tried;
  std::string rejected;  // why $ATTNVIZ_HANGUL_FONT was not used
  for (const std::filesystem::path& candidate : hangul_font_candidates()) {
    const bool is_choice = has_choice && candidate == std::filesystem::path(chosen);
    if (!is_file(candidate)) {
      tried += "\n  " + candidate.string();
      if (is_choice && rejected.empty()) rejected = "ATTNVIZ_HANGUL_FONT=" + candidate.string() + " is not a file";
      continue;
    }
    FontPair pair;
    const auto lenders = glyph_lenders();
    try {
      pair.regular = std::make_shared<const Font>(candidate, lenders.regular);
    } catch (const std::runtime_error& error) {
      // A font file that does not parse: the user's choice falls back (with a warning); a
      // broken system font is reported as the error it is.
      if (!is_choice) throw;
      tried += "\n  " + candidate.string() + " (" + error.what() + ")";
      rejected = std::string("ATTNVIZ_HANGUL_FONT: ") + error.what();
      continue;
    }
    const auto bold = bold_sibling(candidate);
    pair.bold = bold ? std::make_shared<const Font>(*bold, lenders.bold) : pair.regular;
    if (!rejected.empty()) pair.warnings.push_back(rejected + "; using " + candidate.string() + " instead");
    fonts = std::move(pair);
    return *fonts;
  }
  throw std::runtime_error(
      "no font with Hangul found for image export; tried:" + tried +
      "\ninstall one (Debian/Ubuntu: apt install fonts-nanum) or set ATTNVIZ_HANGUL_FONT to a .ttf/.ttc file");
}

}  // namespace attnviz::exporting
