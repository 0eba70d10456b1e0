// The export font: a Hangul face with DejaVu Sans lending the signs it lacks (ᵀ, ₖ), measured
// and drawn from the face that has each glyph.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "core/export/font.h"

namespace attnviz::exporting {
namespace {

const std::filesystem::path kNanum = "/usr/share/fonts/truetype/nanum/NanumGothic.ttf";
const std::filesystem::path kDejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

class LentGlyphs : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kNanum) || !std::filesystem::exists(kDejaVu)) {
      GTEST_SKIP() << "needs fonts-nanum and fonts-dejavu-core (scripts/install-deps.sh)";
    }
  }
};

// The lowest row with ink, counted from the bitmap's top.
int lowest_inked_row(const TextBitmap& bitmap) {
  for (int y = bitmap.height - 1; y >= 0; --y) {
    for (int x = 0; x < bitmap.width; ++x) {
      if (bitmap.coverage[static_cast<std::size_t>(y * bitmap.width + x)] > 64) return y;
    }
  }
  return -1;
}

TEST_F(LentGlyphs, ASuperscriptTTheHangulFontLacksComesFromTheLender) {
  const Font alone(kNanum);
  const Font lent(kNanum, {kDejaVu});
  const Font dejavu(kDejaVu);
  // Alone, NanumGothic stands in a plain T for ᵀ; lent, the glyph is DejaVu's own.
  EXPECT_FLOAT_EQ(alone.measure("ᵀ", 40.0f), alone.measure("T", 40.0f));
  EXPECT_FLOAT_EQ(lent.measure("ᵀ", 40.0f), dejavu.measure("ᵀ", 40.0f));
  EXPECT_FLOAT_EQ(lent.measure("Kₖ", 40.0f), alone.measure("K", 40.0f) + dejavu.measure("ₖ", 40.0f));
  // Drawn raised: a plain T stands on the baseline, the superscript's ink ends a third of an em
  // above it.
  const TextBitmap superscript = lent.rasterize("ᵀ", 40.0f);
  const TextBitmap plain = lent.rasterize("T", 40.0f);
  EXPECT_GE(lowest_inked_row(plain), plain.baseline - 1);
  EXPECT_LT(lowest_inked_row(superscript), superscript.baseline - 13);
}

TEST_F(LentGlyphs, TheLineStaysThePrimaryFacesAndItsGlyphsWin) {
  const Font alone(kNanum);
  const Font lent(kNanum, {kDejaVu});
  EXPECT_FLOAT_EQ(lent.ascent(30.0f), alone.ascent(30.0f));
  EXPECT_FLOAT_EQ(lent.descent(30.0f), alone.descent(30.0f));
  // Letters both faces have are NanumGothic's (DejaVu's are wider).
  EXPECT_FLOAT_EQ(lent.measure("attention 어텐션", 30.0f), alone.measure("attention 어텐션", 30.0f));
  EXPECT_EQ(lent.families(), (std::vector<std::string>{"NanumGothic", "DejaVu Sans"}));
  EXPECT_EQ(lent.family(), "NanumGothic");
}

TEST_F(LentGlyphs, ACodePointNoFaceHasIsStillMissing) {
  const Font lent(kNanum, {kDejaVu});
  EXPECT_FALSE(lent.has_glyph(U'\U0001F9EA'));  // 🧪
  EXPECT_TRUE(lent.has_glyph(U'\u2212'));       // −, DejaVu's own
}

TEST_F(LentGlyphs, AFallbackThatIsNoFontIsNamed) {
  const std::filesystem::path bogus = std::filesystem::temp_directory_path() / "attnviz_not_a_font.ttf";
  std::ofstream(bogus) << "not a font";
  try {
    const Font font(kNanum, {bogus});
    FAIL() << "a text file was accepted as a font";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(bogus.string()), std::string::npos) << error.what();
  }
  std::filesystem::remove(bogus);
}

TEST_F(LentGlyphs, ExportFontsDrawTheFiguresSigns) {
  for (const char32_t sign : {U'\u1D40', U'\u2096', U'\u221A', U'\u2248'}) {  // ᵀ ₖ √ ≈
    EXPECT_TRUE(export_fonts().regular->has_glyph(sign)) << static_cast<unsigned>(sign);
    EXPECT_TRUE(export_fonts().bold->has_glyph(sign)) << static_cast<unsigned>(sign);
  }
}

// The bold face beside a regular one: the exported titles' and the window's headings' Hangul is
// bold like their Latin (issue 49: a Korean heading looked like two fonts).
TEST(BoldSibling, NanumAndNotoNamesFindTheirBoldFaceAndOthersNone) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "attnviz-bold-sibling-test";
  std::filesystem::create_directories(dir);
  for (const char* name :
       {"NanumGothic.ttf", "NanumGothicBold.ttf", "NotoSansCJK-Regular.ttc", "NotoSansCJK-Bold.ttc", "UnDotum.ttf"})
    std::ofstream(dir / name) << "font";
  EXPECT_EQ(bold_sibling(dir / "NanumGothic.ttf"), dir / "NanumGothicBold.ttf");
  EXPECT_EQ(bold_sibling(dir / "NotoSansCJK-Regular.ttc"), dir / "NotoSansCJK-Bold.ttc");
  EXPECT_EQ(bold_sibling(dir / "UnDotum.ttf"), std::nullopt);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace attnviz::exporting
