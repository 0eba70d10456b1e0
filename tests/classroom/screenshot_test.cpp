// The classroom views as a user opens them: attnviz --screenshot under Xvfb (xvfb-run when no
// display is set), each picture checked for real content: the asked-for size, many distinct
// colours (heatmaps, text), and different pictures for different views and steps.

#include <gtest/gtest.h>
#include <stb_image.h>

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
    for (std::size_t i = 0; i + 2 < rgb.size(); i += 3) colours.insert(unsigned{rgb[i]} << 16 | unsigned{rgb[i + 1]} << 8 | unsigned{rgb[i + 2]});
    return colours.size();
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
    const int d = std::abs(a.rgb[i] - b.rgb[i]) + std::abs(a.rgb[i + 1] - b.rgb[i + 1]) + std::abs(a.rgb[i + 2] - b.rgb[i + 2]);
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

  Picture shoot(const std::string& name, const std::string& options) {
    const std::filesystem::path png = dir_ / (name + ".png");
    const std::string args = "--screenshot '" + png.string() + "' --size " + std::to_string(kWidth) + "x" +
                             std::to_string(kHeight) + " --frames 5 " + options;
    const std::string display =
        std::getenv("DISPLAY") != nullptr ? "" : "xvfb-run -a -s '-screen 0 1920x1200x24' ";
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
    EXPECT_EQ(picture.width, kWidth) << name;
    EXPECT_EQ(picture.height, kHeight) << name;
    return picture;
  }

  std::filesystem::path dir_;
};

// The display environment goes before the binary: run_attnviz puts `environment` first.
TEST_F(ClassroomScreenshots, StepViewFirstAndLastStep) {
  const Picture first = shoot("step-first", "--scenario preset:korean-restaurant --view step --step 1 --pin-query 2");
  const Picture last = shoot("step-last", "--scenario preset:korean-restaurant --view step --step 9 --pin-query 2");
  const Picture heatmaps = shoot("heatmaps", "--scenario preset:korean-restaurant --view heatmaps --pin-query 2");
  EXPECT_GT(first.distinct_colours(), 1000u);
  EXPECT_GT(last.distinct_colours(), 1000u);
  EXPECT_GT(share_different(first, last), 0.03) << "the first and last pages look the same";
  EXPECT_GT(share_different(first, heatmaps), 0.05) << "the step view looks like the heatmaps view";
}

TEST_F(ClassroomScreenshots, PresentationMode) {
  const Picture normal = shoot("softmax", "--scenario preset:korean-restaurant --view step --step 6 --pin-query 2");
  const Picture presenting =
      shoot("present", "--scenario preset:korean-restaurant --view step --step 6 --pin-query 2 --present");
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

}  // namespace
}  // namespace attnviz
