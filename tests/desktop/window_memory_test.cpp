// The window's size, place and text size between starts: written and read back; a missing,
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

TEST_F(WindowMemory, AMissingBrokenOrForeignFileIsForgotten) {
  EXPECT_FALSE(read_remembered_window(file).has_value()) << "never written";
  std::string large(5000, ' ');
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
