// Save view as image (app/export_ui/view_image.h) without a window: the main area cut out of
// a captured frame (also on a HiDPI framebuffer), the PNG written atomically into a folder
// made when missing, every failure an error notice leaving nothing behind, and the names the
// dialog proposes and accepts. tests/gui/test_views.py does it end to end in the real window.

#include "app/export_ui/view_image.h"

#include <gtest/gtest.h>
#include <stb_image.h>

#include <filesystem>
#include <fstream>

#include "core/common/error.h"
#include "tests/cli/run_attnviz.h"

namespace attnviz::export_ui {
namespace {

namespace fs = std::filesystem;

// A frame of w × h pixels whose pixel (x, y) is (x, y, 7) in RGBA.
std::vector<std::uint8_t> gradient(int w, int h) {
  std::vector<std::uint8_t> rgba;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      rgba.insert(rgba.end(), {static_cast<std::uint8_t>(x), static_cast<std::uint8_t>(y), 7, 255});
  return rgba;
}

const char* no_environment(const char*) { return nullptr; }

TEST(ViewImage, TheMainAreaInFramePixels) {
  const PixelRect same = area_pixels({300.0f, 20.0f, 900.0f, 700.0f}, 1200.0f, 800.0f, 1200, 800);
  EXPECT_EQ(same.x, 300);
  EXPECT_EQ(same.y, 20);
  EXPECT_EQ(same.width, 900);
  EXPECT_EQ(same.height, 700);
  const PixelRect hidpi = area_pixels({300.0f, 20.0f, 900.0f, 700.0f}, 1200.0f, 800.0f, 2400, 1600);
  EXPECT_EQ(hidpi.x, 600);
  EXPECT_EQ(hidpi.width, 1800);
  EXPECT_EQ(hidpi.height, 1400);
  const PixelRect clamped = area_pixels({-10.0f, 0.0f, 2000.0f, 900.0f}, 1200.0f, 800.0f, 1200, 800);
  EXPECT_EQ(clamped.x, 0);
  EXPECT_EQ(clamped.width, 1200);
  EXPECT_EQ(clamped.height, 800);
  EXPECT_EQ(area_pixels({0, 0, 0, 0}, 1200.0f, 800.0f, 1200, 800).width, 0);
}

TEST(ViewImage, CroppingKeepsThePixelsOfTheArea) {
  const exporting::RgbImage image = crop_rgb(gradient(40, 30), 40, 30, {10, 5, 20, 12});
  ASSERT_EQ(image.width, 20);
  ASSERT_EQ(image.height, 12);
  EXPECT_EQ(image.pixels[0], 10);
  EXPECT_EQ(image.pixels[1], 5);
  EXPECT_EQ(image.pixels[2], 7);
  const std::size_t last = (11u * 20u + 19u) * 3u;
  EXPECT_EQ(image.pixels[last], 29);
  EXPECT_EQ(image.pixels[last + 1], 16);
  EXPECT_THROW((void)crop_rgb(gradient(40, 30), 40, 30, {30, 0, 20, 10}), std::invalid_argument);
}

class ViewImageFiles : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::scratch_dir("view-image"); }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  ui::Notices notices_;
};

TEST_F(ViewImageFiles, ThePngLandsInAFolderMadeForItAndTheFolderIsRemembered) {
  const ui::ViewImageRequest request{dir_ / "slides" / "tiled.png", dir_ / "config" / "export-folder"};
  fs::create_directories(dir_ / "config");
  const ViewImageOutcome outcome =
      save_view_image(gradient(40, 30), 40, 30, {10, 5, 20, 12}, request, "Tiled", notices_);
  ASSERT_TRUE(outcome.ok) << outcome.message;
  int w = 0, h = 0, channels = 0;
  unsigned char* pixels = stbi_load(request.path.c_str(), &w, &h, &channels, 3);
  ASSERT_NE(pixels, nullptr);
  EXPECT_EQ(w, 20);
  EXPECT_EQ(h, 12);
  EXPECT_EQ(pixels[0], 10);
  EXPECT_EQ(pixels[1], 5);
  stbi_image_free(pixels);
  ASSERT_EQ(notices_.all().size(), 1u);
  EXPECT_EQ(notices_.all().front().level, ui::NoticeLevel::Info);
  EXPECT_NE(notices_.all().front().text.find("Tiled view"), std::string::npos);
  EXPECT_EQ(read_last_folder(request.folder_memory), dir_ / "slides") << "the next export starts there";
  for (const auto& entry : fs::directory_iterator(dir_ / "slides"))
    EXPECT_EQ(entry.path().filename(), "tiled.png") << "no temporary left";
}

TEST_F(ViewImageFiles, AnUnwritablePlaceIsAnErrorNoticeAndLeavesTheOldFile) {
  const fs::path blocker = dir_ / "a-file";
  std::ofstream(blocker) << "not a folder";
  const ViewImageOutcome inside =
      save_view_image(gradient(8, 8), 8, 8, {0, 0, 8, 8}, {blocker / "view.png", {}}, "Decode", notices_);
  EXPECT_FALSE(inside.ok);
  ASSERT_EQ(notices_.all().size(), 1u);
  EXPECT_EQ(notices_.all().front().level, ui::NoticeLevel::Error);
  EXPECT_NE(inside.message.find(blocker.string()), std::string::npos) << inside.message;
  EXPECT_EQ(testing::read_text(blocker), "not a folder");
  const ViewImageOutcome proc =
      save_view_image(gradient(8, 8), 8, 8, {0, 0, 8, 8}, {"/proc/attnviz-view.png", {}}, "Decode", notices_);
  EXPECT_FALSE(proc.ok);
  EXPECT_FALSE(fs::exists("/proc/attnviz-view.png"));
}

TEST_F(ViewImageFiles, NamesAreProposedFreeAndTypedNamesResolvedLikeTheExportDialogs) {
  EXPECT_EQ(proposed_view_image_name("tiled-tile-5", dir_), "attnviz-tiled-tile-5.png");
  std::ofstream(dir_ / "attnviz-tiled-tile-5.png") << "x";
  std::ofstream(dir_ / "attnviz-tiled-tile-5-2.png") << "x";
  EXPECT_EQ(proposed_view_image_name("tiled-tile-5", dir_), "attnviz-tiled-tile-5-3.png")
      << "an earlier image is not replaced";

  EXPECT_EQ(view_image_path("slide", dir_, no_environment), dir_ / "slide.png") << "relative to the folder, .png added";
  EXPECT_EQ(view_image_path("/tmp/x/view.PNG", dir_, no_environment), fs::path("/tmp/x/view.PNG"));
  for (const std::string& bad :
       {std::string(""), std::string("   "), std::string("view.jpg"), dir_.string(), std::string("sub/")}) {
    EXPECT_THROW((void)view_image_path(bad, dir_, no_environment), InputError) << "\"" << bad << "\"";
  }
}

TEST(ViewImage, TheStemSaysTheViewAndWhereItStands) {
  ui::ClassroomState state;
  EXPECT_EQ(view_image_stem(state), "heatmaps");
  state.shown = ui::MainView::Tiled;
  state.shown_step = 4;  // the Tiled view's fifth tile
  EXPECT_EQ(view_image_stem(state), "tiled-tile-5");
  state.shown = ui::MainView::Decode;
  state.shown_step = 0;
  EXPECT_EQ(view_image_stem(state), "decode-step-1");
  state.shown = ui::MainView::Step;
  state.shown_step = 5;
  EXPECT_EQ(view_image_stem(state), "step-6");
  state.shown = ui::MainView::Compare;
  EXPECT_EQ(view_image_stem(state), "compare");
}

}  // namespace
}  // namespace attnviz::export_ui
