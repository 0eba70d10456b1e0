// The classroom views as a user opens them: attnviz --screenshot under Xvfb (xvfb-run when no
// display is set) with the validation layer on (any message fails the run), each picture
// checked for real content: the asked-for size, many distinct colours (heatmaps, text),
// different pictures for different views and steps, and heatmaps as large as a projector needs.

#include <gtest/gtest.h>
#include <stb_image.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "tests/cli/run_attnviz.h"

namespace attnviz {
namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 800;

struct Picture {
  int width = 0;
  int height = 0;
  std::vector<unsigned char> rgb;  // 3 bytes per pixel

  [[nodiscard]] std::size_t distinct_colours() const {
    std::set<unsigned> colours;
    for (std::size_t i = 0; i + 2 < rgb.size(); i += 3)
      colours.insert(unsigned{rgb[i]} << 16 | unsigned{rgb[i + 1]} << 8 | unsigned{rgb[i + 2]});
    return colours.size();
  }
  // Pixels within `tolerance` of (r, g, b) in every channel.
  [[nodiscard]] std::size_t count_near(int r, int g, int b, int tolerance) const {
    std::size_t count = 0;
    for (std::size_t i = 0; i + 2 < rgb.size(); i += 3)
      count += std::abs(rgb[i] - r) <= tolerance && std::abs(rgb[i + 1] - g) <= tolerance &&
               std::abs(rgb[i + 2] - b) <= tolerance;
    return count;
  }
  // Bright yellow: the top of viridis (weights near the colour scale's maximum).
  [[nodiscard]] std::size_t count_yellow() const {
    std::size_t count = 0;
    for (std::size_t i = 0; i + 2 < rgb.size(); i += 3) count += rgb[i] > 200 && rgb[i + 1] > 190 && rgb[i + 2] < 100;
    return count;
  }
  // The share of pixels in rows [first, first + count) within `tolerance` of (r, g, b).
  [[nodiscard]] double share_near_in_rows(int r, int g, int b, int tolerance, int first, int count) const {
    std::size_t near = 0;
    std::size_t all = 0;
    for (int y = std::max(first, 0); y < std::min(first + count, height); ++y) {
      for (int x = 0; x < width; ++x) {
        const std::size_t i =
            (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 3;
        near += std::abs(rgb[i] - r) <= tolerance && std::abs(rgb[i + 1] - g) <= tolerance &&
                std::abs(rgb[i + 2] - b) <= tolerance;
        ++all;
      }
    }
    return all == 0 ? 0.0 : static_cast<double>(near) / static_cast<double>(all);
  }
  [[nodiscard]] double share_near_white() const {
    std::size_t white = 0;
    for (std::size_t i = 0; i + 2 < rgb.size(); i += 3) white += rgb[i] > 240 && rgb[i + 1] > 240 && rgb[i + 2] > 240;
    return static_cast<double>(white) / static_cast<double>(rgb.size() / 3);
  }
};

// The share of pixels that differ noticeably between two pictures of the same size.
double share_different(const Picture& a, const Picture& b) {
  if (a.rgb.size() != b.rgb.size()) return 1.0;
  std::size_t different = 0;
  for (std::size_t i = 0; i + 2 < a.rgb.size(); i += 3) {
    const int d =
        std::abs(a.rgb[i] - b.rgb[i]) + std::abs(a.rgb[i + 1] - b.rgb[i + 1]) + std::abs(a.rgb[i + 2] - b.rgb[i + 2]);
    different += d > 24;
  }
  return static_cast<double>(different) / static_cast<double>(a.rgb.size() / 3);
}

class ClassroomScreenshots : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::getenv("DISPLAY") == nullptr && std::system("command -v xvfb-run >/dev/null 2>&1") != 0)
      GTEST_SKIP() << "no display and no xvfb-run";
    dir_ = testing::scratch_dir("classroom-shots");
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  Picture shoot(const std::string& name, const std::string& options, int width = kWidth, int height = kHeight) {
    const std::filesystem::path png = dir_ / (name + ".png");
    const std::string args = "--screenshot '" + png.string() + "' --size " + std::to_string(width) + "x" +
                             std::to_string(height) + " --frames 5 --validation " + options;
    const std::string display = std::getenv("DISPLAY") != nullptr ? "" : "xvfb-run -a -s '-screen 0 1920x1200x24' ";
    const testing::CommandOutput run = testing::run_attnviz(args, "XDG_CONFIG_HOME='" + dir_.string() + "' " + display);
    EXPECT_EQ(run.exit_code, 0) << name << "\n" << run.err;
    Picture picture;
    int channels = 0;
    unsigned char* pixels = stbi_load(png.string().c_str(), &picture.width, &picture.height, &channels, 3);
    if (pixels == nullptr) {
      ADD_FAILURE() << name << ": no readable PNG at " << png;
      return picture;
    }
    picture.rgb.assign(pixels, pixels + static_cast<std::size_t>(picture.width * picture.height * 3));
    stbi_image_free(pixels);
    EXPECT_EQ(picture.width, width) << name;
    EXPECT_EQ(picture.height, height) << name;
    return picture;
  }

  std::filesystem::path dir_;
};

// The display environment goes before the binary: run_attnviz puts `environment` first.
TEST_F(ClassroomScreenshots, StepViewFirstAndLastStep) {
  const Picture first = shoot("step-first", "--scenario preset:korean-restaurant --view step --step 1 --pin-query 2");
  const Picture last = shoot("step-last", "--scenario preset:korean-restaurant --view step --step 10 --pin-query 2");
  const Picture heatmaps = shoot("heatmaps", "--scenario preset:korean-restaurant --view heatmaps --pin-query 2");
  EXPECT_GT(first.distinct_colours(), 1000u);
  EXPECT_GT(last.distinct_colours(), 1000u);
  EXPECT_GT(share_different(first, last), 0.03) << "the first and last pages look the same";
  EXPECT_GT(share_different(first, heatmaps), 0.05) << "the step view looks like the heatmaps view";
}

TEST_F(ClassroomScreenshots, PresentationMode) {
  const Picture normal = shoot("softmax", "--scenario preset:korean-restaurant --view step --step 7 --pin-query 2");
  const Picture presenting =
      shoot("present", "--scenario preset:korean-restaurant --view step --step 7 --pin-query 2 --present");
  EXPECT_GT(presenting.distinct_colours(), 1000u);
  EXPECT_GT(share_different(normal, presenting), 0.05) << "presentation mode changed nothing";
  EXPECT_GT(presenting.share_near_white(), 0.3) << "the presentation theme is light";
}

TEST_F(ClassroomScreenshots, CompareViewOfFourMasks) {
  const Picture compare = shoot("compare", "--scenario preset:korean-restaurant --view compare --compare masks:4");
  const Picture heads = shoot("compare-heads", "--scenario preset:korean-restaurant --view compare --compare heads:4");
  EXPECT_GT(compare.distinct_colours(), 1000u);
  EXPECT_GT(share_different(compare, heads), 0.03) << "comparing masks and heads looks the same";
}

TEST_F(ClassroomScreenshots, CrossAttentionPresetOpensTheCrossView) {
  const Picture cross = shoot("cross", "--scenario preset:cross-attention");
  const Picture heatmaps = shoot("cross-heatmaps", "--scenario preset:cross-attention --view heatmaps");
  EXPECT_GT(cross.distinct_colours(), 1000u);
  EXPECT_GT(share_different(cross, heatmaps), 0.05) << "the preset did not open the cross-attention view";
}

// The Korean weights are all 0.12 or 0.13: viridis draws them in this dark purple.
constexpr int kWeightPurple[3] = {71, 44, 122};

std::size_t weight_cells(const Picture& p) {
  return p.count_near(kWeightPurple[0], kWeightPurple[1], kWeightPurple[2], 6);
}

// A projector's 1280 × 720: presentation mode shows the softmax heatmap larger than the normal
// window does (it used to shrink it to about 100 pixels), all of it: 8 rows of cells large
// enough for their numbers (8 × 8 cells of at least 45 px, less the numbers and grid lines).
TEST_F(ClassroomScreenshots, PresentationIsMoreReadableThanTheNormalWindow) {
  const std::string softmax = "--scenario preset:korean-restaurant --view step --step 7 --pin-query 2";
  const Picture normal = shoot("softmax-720", softmax, 1280, 720);
  const Picture presenting = shoot("present-720", softmax + " --present", 1280, 720);
  EXPECT_GE(weight_cells(presenting), weight_cells(normal));
  EXPECT_GT(weight_cells(presenting), 8u * 8u * 45u * 45u * 6u / 10u);
}

// The bars' grey (the presentation theme's menu bar and status bar background).
constexpr int kBarGrey[3] = {0xe9, 0xec, 0xef};

// Presenting, the audience sees the view, not the window's chrome: no menu bar across the top,
// no status bar across the bottom (they took about 85 pixels of a 1280 × 720 projector).
TEST_F(ClassroomScreenshots, PresentationHasNoMenuBarOrStatusBar) {
  const std::string softmax = "--scenario preset:korean-restaurant --view step --step 7 --pin-query 2";
  const Picture presenting = shoot("present-chrome", softmax + " --present", 1280, 720);
  EXPECT_LT(presenting.share_near_in_rows(kBarGrey[0], kBarGrey[1], kBarGrey[2], 3, 0, 16), 0.5) << "a menu bar";
  EXPECT_LT(presenting.share_near_in_rows(kBarGrey[0], kBarGrey[1], kBarGrey[2], 3, 704, 16), 0.5) << "a status bar";
  const Picture compare =
      shoot("present-chrome-compare", "--scenario preset:korean-restaurant --view compare --compare masks:4 --present",
            1920, 1080);
  EXPECT_LT(compare.share_near_in_rows(kBarGrey[0], kBarGrey[1], kBarGrey[2], 3, 0, 16), 0.5) << "a menu bar";
  EXPECT_LT(compare.share_near_in_rows(kBarGrey[0], kBarGrey[1], kBarGrey[2], 3, 1064, 16), 0.5) << "a status bar";
}

// Compare on a 1920 × 1080 projector: four copies across the screen, large (they used to be
// small, without numbers, over half the screen); weights on 0..1 as in the Heatmaps view, so
// the Korean 0.12 and 0.13 are the same dark colour in every copy (a shared 0..0.13 scale
// drew 0.13 bright yellow).
TEST_F(ClassroomScreenshots, CompareFillsAProjectorOnTheMainViewsScale) {
  const Picture masks = shoot(
      "compare-1080", "--scenario preset:korean-restaurant --view compare --compare masks:4 --present", 1920, 1080);
  EXPECT_GT(weight_cells(masks), 8u * 8u * 50u * 50u * 6u / 10u) << "the unmasked copy alone, at cells of 50 px";
  const Picture heads = shoot("compare-heads", "--scenario preset:korean-restaurant --view compare --compare heads:4");
  EXPECT_LT(heads.count_yellow(), 3000u) << "only the colorbar's end is yellow";
  EXPECT_GT(weight_cells(heads), 20000u);
}

// Four square heatmaps in a row leave the lower part of a wide screen free: with a pinned query
// it shows that query's weights as bars under each copy (in the weights heatmaps' colours: the
// Korean 0.12-0.13 are viridis's dark purple), and nothing of the kind without one.
TEST_F(ClassroomScreenshots, CompareOnAWideScreenShowsThePinnedQuerysWeightsUnderEachCopy) {
  const std::string compare = "--scenario preset:korean-restaurant --view compare --compare masks:4 --present";
  const Picture pinned = shoot("compare-pinned", compare + " --pin-query 2", 1920, 1080);
  const Picture unpinned = shoot("compare-unpinned", compare, 1920, 1080);
  // 배's weights: 0.12-0.13 unmasked, 0.33-0.35 causal and sliding, 0.19-0.21 Longformer.
  constexpr int kBarColours[3][3] = {{71, 45, 123}, {48, 106, 142}, {65, 68, 135}};  // viridis at 0.125, 0.34, 0.2
  const auto bar_share = [&](const Picture& picture) {
    double share = 0.0;
    for (const auto& c : kBarColours) share += picture.share_near_in_rows(c[0], c[1], c[2], 8, 740, 300);
    return share;
  };
  const double bars = bar_share(pinned);
  EXPECT_GT(bars, 0.02) << "no bars under the copies";
  EXPECT_LT(bar_share(unpinned), bars / 20.0);
  EXPECT_GT(weight_cells(pinned), 8u * 8u * 50u * 50u * 6u / 10u) << "the bars took room from the heatmaps";
}

// Cross-attention at a projector's 1280 × 720: it draws (its boxes no longer squashed into
// each other is checked by eye; the picture at least differs from the step view's).
TEST_F(ClassroomScreenshots, CrossAttentionPresented) {
  const Picture cross = shoot("cross-720", "--scenario preset:cross-attention --pin-query 8 --present", 1280, 720);
  const Picture step =
      shoot("cross-step-720", "--scenario preset:cross-attention --view step --step 7 --present", 1280, 720);
  EXPECT_GT(cross.distinct_colours(), 1000u);
  EXPECT_GT(share_different(cross, step), 0.05);
}

// Gold (255, 215, 0): the Tiled view's current tile and the Decode view's new cache row.
constexpr int kGold[3] = {255, 215, 0};

std::size_t gold(const Picture& p) { return p.count_near(kGold[0], kGold[1], kGold[2], 16); }

// The Tiled view: the current tile outlined in gold, a different picture for another tile,
// and (on the sliding window) the tiles the mask hides marked.
TEST_F(ClassroomScreenshots, TheTiledViewStepsTileByTile) {
  const std::string tiled = "--scenario preset:sliding-window --view tiled --block-q 4 --block-k 4 --step ";
  const Picture first = shoot("tiled-1", tiled + "1");
  const Picture eighth = shoot("tiled-8", tiled + "8");
  EXPECT_GT(first.distinct_colours(), 1000u);
  EXPECT_GT(gold(first), 300u) << "the current tile in gold";
  EXPECT_GT(share_different(first, eighth), 0.02) << "tile 1 and tile 8 look the same";
}

// The Decode view: the prefill (every prompt row new) and a later step (one new row) differ;
// the new rows are outlined in gold.
TEST_F(ClassroomScreenshots, TheDecodeViewGeneratesTokenByToken) {
  const std::string decode = "--scenario preset:korean-restaurant --view decode --prompt 3 --step ";
  const Picture prefill = shoot("decode-1", decode + "1");
  const Picture later = shoot("decode-4", decode + "4");
  EXPECT_GT(gold(prefill), gold(later)) << "the prefill writes three rows, a step one";
  EXPECT_GT(gold(later), 200u);
  EXPECT_GT(share_different(prefill, later), 0.02);
}

// Both on a projector: presentation mode's light theme, the current tile and the new row in
// gold, at 1280 × 720 and 1920 × 1080.
TEST_F(ClassroomScreenshots, TheTiledAndDecodeViewsArePresented) {
  const Picture tiled =
      shoot("tiled-720", "--scenario preset:korean-restaurant --view tiled --step 6 --present", 1280, 720);
  const Picture decode =
      shoot("decode-1080", "--scenario preset:gqa --view decode --prompt 3 --step 4 --present", 1920, 1080);
  for (const Picture* p : {&tiled, &decode}) {
    EXPECT_GT(p->share_near_white(), 0.3) << "the presentation theme is light";
    EXPECT_GT(gold(*p), 300u);
    EXPECT_LT(p->share_near_in_rows(kBarGrey[0], kBarGrey[1], kBarGrey[2], 3, 0, 16), 0.5) << "a menu bar";
  }
}

// A tile past the last one (or a prompt past the sentence) is refused before any window opens,
// naming the option and what the scenario has.
TEST_F(ClassroomScreenshots, AStepPastTheLastTileOrTokenIsRefused) {
  for (const char* args : {"--view tiled --step 17", "--view decode --prompt 4 --step 6", "--view decode --prompt 9"}) {
    const testing::CommandOutput run = testing::run_attnviz(std::string("--scenario preset:korean-restaurant ") + args +
                                                                " --screenshot '" + (dir_ / "x.png").string() + "'",
                                                            "XDG_CONFIG_HOME='" + dir_.string() + "' ");
    EXPECT_EQ(run.exit_code, 2) << args << "\n" << run.err;
    EXPECT_NE(run.err.find(std::string(args).find("--prompt 9") != std::string::npos ? "--prompt" : "--step"),
              std::string::npos)
        << run.err;
    EXPECT_FALSE(std::filesystem::exists(dir_ / "x.png"));
  }
}

}  // namespace
}  // namespace attnviz

namespace attnviz {
namespace {

// The RoPE page (step 3) draws its picture: the followed word's pair in blue and the selected
// key's in orange (position_picture.cpp's colours); the Mistakes page (step 11) differs from the
// RoPE page and between two mistakes; dropout's dropped weights are hatched in their warm grey.
TEST_F(ClassroomScreenshots, RopePageMistakesPageAndDroppedWeights) {
  // 1600 × 1000: the text column (and its picture) beside the heatmaps, as in the README.
  const Picture rope = shoot("rope", "--scenario preset:rope --view step --step 3 --pin-query 8", 1600, 1000);
  EXPECT_GT(rope.distinct_colours(), 1000u);
  EXPECT_GT(rope.count_near(30, 90, 200, 12), 200u) << "the followed word's arrow";
  EXPECT_GT(rope.count_near(210, 110, 20, 12), 100u) << "the key's arrow";
  const Picture after =
      shoot("mask-after", "--scenario preset:causal-gpt --view step --step 11 --mistake mask-after --pin-query 5");
  const Picture columns =
      shoot("columns", "--scenario preset:causal-gpt --view step --step 11 --mistake columns --pin-query 5");
  EXPECT_GT(share_different(after, rope), 0.05);
  EXPECT_GT(share_different(after, columns), 0.01) << "choosing another mistake changes the page";
  const Picture dropout = shoot("dropout", "--scenario preset:dropout --view step --step 7 --pin-query 6", 1600, 1000);
  EXPECT_GT(dropout.count_near(158, 92, 77, 10) + dropout.count_near(237, 219, 209, 6), 300u)
      << "dropped weights hatched";
}

}  // namespace
}  // namespace attnviz
