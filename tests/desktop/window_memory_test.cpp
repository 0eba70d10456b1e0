// The window's size, place, text size, language, theme and layout between starts: written and read back; a missing,
// broken or foreign file is forgotten, never a reason not to start.
#include "app/desktop/window_memory.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace attnviz::desktop {
namespace {

namespace fs = std::filesystem;

struct WindowMemory : ::testing::Test {
  fs::path dir = fs::temp_directory_path() /
                 ("attnviz-window-memory-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::path file = dir / "attnviz" / "window.json";
  void TearDown() override { fs::remove_all(dir); }
  void write(const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
  }
};

TEST_F(WindowMemory, WhatIsRememberedComesBack) {
  const RememberedWindow window{{120, 64, 1280, 800}, 1.44f};
  ASSERT_EQ(remember_window(file, window), "") << "the folder is made";
  const std::optional<RememberedWindow> back = read_remembered_window(file);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, window);
  const RememberedWindow moved{{-1800, 0, 1600, 1000}, 0.8f};  // on a monitor left of the primary
  ASSERT_EQ(remember_window(file, moved), "");
  EXPECT_EQ(read_remembered_window(file), moved);
}

TEST_F(WindowMemory, TheLanguageChosenComesBackAndAnOlderFileFollowsTheDesktop) {
  const RememberedWindow korean{{0, 0, 800, 600}, 1.0f, "ko"};
  ASSERT_EQ(remember_window(file, korean), "");
  EXPECT_EQ(read_remembered_window(file), korean);
  write(R"({"format": "attnviz-window/1", "x": 0, "y": 0, "width": 800, "height": 600, "text_scale": 1})");
  ASSERT_TRUE(read_remembered_window(file).has_value());
  EXPECT_EQ(read_remembered_window(file)->language, "") << "written before there was a choice";
  write(R"({"format": "attnviz-window/1", "x": 0, "y": 0, "width": 800, "height": 600, "text_scale": 1,
            "language": "klingon"})");
  EXPECT_FALSE(read_remembered_window(file).has_value());
}

TEST_F(WindowMemory, TheThemeAndLayoutComeBack) {
  RememberedWindow window{{0, 0, 800, 600}, 1.0f, "en"};
  window.theme = ui::Theme::Dark;
  window.layout.mode = ui::LayoutMode::CompareReady;
  window.layout.main_view = "Step by step";
  window.layout.open_panels = {{"Mask", false}, {"Matrices", true}};
  window.layout.model_shown = ui::ModelShown::Patching;
  ASSERT_EQ(remember_window(file, window), "");
  EXPECT_EQ(read_remembered_window(file), window);
}

TEST_F(WindowMemory, TheModelViewsShowLineComesBackAndAnOlderOrUnknownOneIsTheGrid) {
  RememberedWindow window{{0, 0, 800, 600}, 1.0f, "en"};
  for (const ui::ModelShown shown :
       {ui::ModelShown::Heads, ui::ModelShown::Lens, ui::ModelShown::Attribution, ui::ModelShown::Patching}) {
    window.layout.model_shown = shown;
    ASSERT_EQ(remember_window(file, window), "");
    ASSERT_TRUE(read_remembered_window(file).has_value());
    EXPECT_EQ(read_remembered_window(file)->layout.model_shown, shown) << ui::to_string(shown);
  }
  const std::string start = R"({"format": "attnviz-window/1", "x": 0, "y": 0, "width": 800, "height": 600,
                                "text_scale": 1, "layout": {"mode": "heatmaps")";
  for (const char* rest : {"}}", R"(, "model_shown": "sideways"}})"}) {
    write(start + rest);
    ASSERT_TRUE(read_remembered_window(file).has_value()) << rest;
    EXPECT_EQ(read_remembered_window(file)->layout.mode, ui::LayoutMode::Heatmaps) << rest;
    EXPECT_EQ(read_remembered_window(file)->layout.model_shown, ui::ModelShown::Heads) << rest;
  }
}

TEST_F(WindowMemory, ABrokenThemeOrLayoutIsTheDefaultOneAndTheRestIsKept) {
  const std::string window =
      R"("format": "attnviz-window/1", "x": 3, "y": 4, "width": 800, "height": 600, "text_scale": 1.5)";
  for (const std::string layout :
       {R"("layout": 7)", R"("layout": {"mode": "sideways"})", R"("layout": {"mode": "full", "open_panels": [1]})",
        R"("layout": {"mode": "full", "open_panels": {"Mask": "yes"}})", R"("layout": {"main_view": "Heatmaps"})"}) {
    write("{" + window + R"(, "theme": "purple", )" + layout + "}");
    const std::optional<RememberedWindow> back = read_remembered_window(file);
    ASSERT_TRUE(back.has_value()) << layout;
    EXPECT_EQ(back->placement.x, 3);
    EXPECT_EQ(back->text_scale, 1.5f);
    EXPECT_EQ(back->theme, ui::Theme::Light);
    EXPECT_EQ(back->layout, ui::RememberedLayout{}) << layout;
  }
}

TEST_F(WindowMemory, AMissingBrokenOrForeignFileIsForgotten) {
  EXPECT_FALSE(read_remembered_window(file).has_value()) << "never written";
  std::string large(20000, ' ');
  large += "{}";
  const std::vector<std::string> texts = {
      "{",
      "[]",
      R"({"format": "attnviz-window/1", "x": 1})",
      R"({"format": "other/1", "x": 0, "y": 0, "width": 800, "height": 600, "text_scale": 1})",
      R"({"format": "attnviz-window/1", "x": 0, "y": 0, "width": 5, "height": 600, "text_scale": 1})",
      R"({"format": "attnviz-window/1", "x": 0, "y": 0, "width": 800, "height": 600, "text_scale": 90})",
      R"({"format": "attnviz-window/1", "x": "a", "y": 0, "width": 800, "height": 600, "text_scale": 1})",
      large};
  for (const std::string& text : texts) {
    write(text);
    EXPECT_FALSE(read_remembered_window(file).has_value()) << text.substr(0, 80);
  }
  fs::remove(file);
  fs::create_directories(file);  // a folder where the file should be
  EXPECT_FALSE(read_remembered_window(file).has_value());
  EXPECT_NE(remember_window(file, {{0, 0, 800, 600}, 1.0f}), "") << "says why it could not";
}

}  // namespace
}  // namespace attnviz::desktop
