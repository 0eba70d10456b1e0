#include "app/window/fonts.h"

#include <imgui.h>

#include <cstdlib>
#include <system_error>
#include <vector>

#include "core/export/font.h"

namespace attnviz::window {
namespace {

FontSet g_fonts;
std::vector<ImWchar> g_translated_ranges;  // [first, last] pairs, 0-terminated; read by the atlas build

bool is_file(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error);
}

std::optional<std::filesystem::path> first_existing(const std::vector<std::filesystem::path>& candidates) {
  for (const auto& path : candidates) {
    if (is_file(path)) return path;
  }
  return std::nullopt;
}

// Latin-1, Latin Extended-A, Greek, general punctuation, super/subscripts, arrows, maths,
// control pictures, geometric shapes: what labels such as "softmax(QKᵀ/√dₖ)", "×", "≤", "→",
// "▲" and a pretrained model's tokens ("␣cat": GPT-2's leading space, core/tokenizers) need.
const ImWchar kLatinRanges[] = {0x0020, 0x017F, 0x0370, 0x03FF, 0x1D00, 0x1DBF, 0x2000, 0x209F,
                                0x2190, 0x22FF, 0x2420, 0x243F, 0x2500, 0x25FF, 0};
// Hangul Jamo, compatibility Jamo, CJK punctuation, Hangul syllables, half/full-width forms.
const ImWchar kHangulRanges[] = {0x1100, 0x11FF, 0x3000, 0x303F, 0x3130, 0x318F, 0xAC00, 0xD7A3, 0xFF00, 0xFFEF, 0};

ImFont* add_font(const std::string& latin, const std::string& latin_bold, const std::string& hangul,
                 const ImWchar* hangul_ranges, float size, bool bold) {
  ImGuiIO& io = ImGui::GetIO();
  ImFontConfig config;
  config.OversampleH = 2;
  config.OversampleV = 1;
  const std::string& file = bold && !latin_bold.empty() ? latin_bold : latin;
  ImFont* font = nullptr;
  if (!file.empty()) font = io.Fonts->AddFontFromFileTTF(file.c_str(), size, &config, kLatinRanges);
  if (font == nullptr) {
    ImFontConfig fallback;
    fallback.SizePixels = size;
    font = io.Fonts->AddFontDefault(&fallback);
  }
  if (!hangul.empty() && hangul_ranges != nullptr) {
    ImFontConfig merge;
    merge.MergeMode = true;
    merge.OversampleH = 1;  // 11,172 syllables: keep the atlas small
    merge.OversampleV = 1;
    merge.PixelSnapH = true;
    io.Fonts->AddFontFromFileTTF(hangul.c_str(), size, &merge, hangul_ranges);
  }
  return font;
}

}  // namespace

std::optional<std::filesystem::path> find_hangul_font() {
  if (const char* chosen = std::getenv("ATTNVIZ_HANGUL_FONT"); chosen != nullptr && *chosen != '\0') {
    if (is_file(chosen)) return std::filesystem::path(chosen);
  }
  return first_existing({
      "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
      "/usr/share/fonts/truetype/nanum/NanumBarunGothic.ttf",
      "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
      "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
      "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
      "/usr/share/fonts/truetype/unfonts-core/UnDotum.ttf",
      "/usr/share/fonts/truetype/baekmuk/gulim.ttf",
      "/usr/share/fonts/nanum/NanumGothic.ttf",
      "/Library/Fonts/AppleGothic.ttf",
      "/System/Library/Fonts/AppleSDGothicNeo.ttc",
  });
}

std::optional<std::filesystem::path> find_latin_font() {
  return first_existing({
      "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
      "/usr/share/fonts/dejavu/DejaVuSans.ttf",
      "/usr/share/fonts/TTF/DejaVuSans.ttf",
  });
}

void set_translated_characters(const std::vector<char32_t>& characters) {
  g_translated_ranges.clear();
  for (const char32_t c : characters) {
    const bool hangul = (c >= 0x1100 && c <= 0x11FF) || (c >= 0x3130 && c <= 0x318F) || (c >= 0xAC00 && c <= 0xD7A3);
    if (!hangul) continue;  // the rest (arrows, ×, ·) is in the Latin font's ranges
    g_translated_ranges.push_back(static_cast<ImWchar>(c));
    g_translated_ranges.push_back(static_cast<ImWchar>(c));
  }
  g_translated_ranges.push_back(0);
}

FontSet load_fonts(float pixel_size) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  FontSet set;
  if (auto latin = find_latin_font()) set.latin_file = latin->string();
  if (auto hangul = find_hangul_font()) {
    set.hangul_file = hangul->string();
    set.hangul_bold_file = exporting::bold_sibling(*hangul).value_or(*hangul).string();
  }
  std::string bold;
  if (!set.latin_file.empty()) {
    const auto candidate = std::filesystem::path(set.latin_file).parent_path() / "DejaVuSans-Bold.ttf";
    if (is_file(candidate)) bold = candidate.string();
  }
  // Without a Latin font the Hangul one carries Latin too (NanumGothic has it).
  const std::string& latin = set.latin_file.empty() ? set.hangul_file : set.latin_file;
  set.body = add_font(latin, bold, set.hangul_file, kHangulRanges, pixel_size, false);
  const ImWchar* translated = g_translated_ranges.size() > 1 ? g_translated_ranges.data() : nullptr;
  // Bold Latin beside regular Hangul made a Korean heading look like two fonts.
  set.heading = add_font(latin, bold, set.hangul_bold_file, translated, pixel_size * 1.15f, true);
  set.small = add_font(latin, bold, set.hangul_file, translated, pixel_size * 0.85f, false);
  io.FontDefault = set.body;
  g_fonts = set;
  return set;
}

const FontSet& fonts() { return g_fonts; }

}  // namespace attnviz::window
