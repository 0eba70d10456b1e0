// Where the Export dialog saves (issue 11: "Save to" proposed the directory attnviz was started
// from, and a relative path typed there landed beside it): the folder of the last export, else
// the pictures folder as `xdg-user-dir PICTURES` finds it; relative paths are taken from it.
#include "app/export_ui/export_folder.h"

#include "app/export_ui/export_popup.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>

#include "tests/cli/run_attnviz.h"

namespace attnviz::export_ui {
namespace {

namespace fs = std::filesystem;

class ExportFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir(std::string("export-folder-") +
                                ::testing::UnitTest::GetInstance()->current_test_info()->name());
    home_ = dir_ / "home";
    fs::create_directories(home_);
    vars_["HOME"] = home_.string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  [[nodiscard]] EnvironmentLookup environment() const {
    return [this](const char* name) -> const char* {
      const auto found = vars_.find(name);
      return found == vars_.end() ? nullptr : found->second.c_str();
    };
  }

  fs::path dir_;
  fs::path home_;
  std::map<std::string, std::string> vars_;
};

TEST_F(ExportFolder, TheHomeDirectoryWhenThereIsNoPicturesFolder) {
  EXPECT_EQ(pictures_directory(environment()), home_);
}

TEST_F(ExportFolder, PicturesInTheHomeDirectoryWhenItExists) {
  fs::create_directories(home_ / "Pictures");
  EXPECT_EQ(pictures_directory(environment()), home_ / "Pictures");
}

TEST_F(ExportFolder, TheUserDirsFileAsXdgUserDirReadsIt) {
  fs::create_directories(home_ / ".config");
  std::ofstream(home_ / ".config" / "user-dirs.dirs") << "# written by xdg-user-dirs-update\n"
                                                         "XDG_DESKTOP_DIR=\"$HOME/Desktop\"\n"
                                                         "XDG_PICTURES_DIR=\"$HOME/Bilder\"\n";
  EXPECT_EQ(pictures_directory(environment()), home_ / "Bilder");
  // Under $XDG_CONFIG_HOME when that is set; an absolute path as it is.
  fs::create_directories(dir_ / "config");
  std::ofstream(dir_ / "config" / "user-dirs.dirs") << "XDG_PICTURES_DIR=\"/srv/pictures\"\n";
  vars_["XDG_CONFIG_HOME"] = (dir_ / "config").string();
  EXPECT_EQ(pictures_directory(environment()), fs::path("/srv/pictures"));
  // The environment variable first.
  vars_["XDG_PICTURES_DIR"] = (dir_ / "given").string();
  EXPECT_EQ(pictures_directory(environment()), dir_ / "given");
}

TEST_F(ExportFolder, TheLastFolderIsProposedAgainInTheNextRun) {
  const fs::path memory = dir_ / "config" / "attnviz" / "export-folder";
  EXPECT_FALSE(read_last_folder(memory).has_value());
  EXPECT_EQ(default_export_folder(read_last_folder(memory), environment()), home_);
  write_last_folder(memory, dir_ / "figures");
  EXPECT_EQ(default_export_folder(read_last_folder(memory), environment()), dir_ / "figures");
}

TEST_F(ExportFolder, ARelativePathIsTakenFromTheProposedFolderNotTheWorkingDirectory) {
  const fs::path folder = home_ / "Pictures";
  EXPECT_EQ(resolve_export_path("weights.png", folder, environment()), folder / "weights.png");
  EXPECT_EQ(resolve_export_path("figs/../w.svg", folder, environment()), folder / "w.svg");
  EXPECT_EQ(resolve_export_path("~/out", folder, environment()), home_ / "out");
  EXPECT_EQ(resolve_export_path("/tmp/x.png", folder, environment()), fs::path("/tmp/x.png"));
  EXPECT_TRUE(resolve_export_path("w.png", folder, environment()).is_absolute());
}

// The Export dialog's and the popups' "Save to" (export_popup.h): proposed once in the last
// folder, what is typed kept while the window runs, and each export's folder remembered.
TEST_F(ExportFolder, SaveToProposesTheLastFolderOnceAndRemembersEachExportsFolder) {
  const fs::path memory = dir_ / "config" / "export-folder";
  const fs::path last = dir_ / "figures";
  fs::create_directories(last);
  write_last_folder(memory, last);
  SaveTo save_to;
  save_to.propose(memory);
  EXPECT_EQ(save_to.folder, last);
  EXPECT_EQ(save_to.out, last.string());
  save_to.out = "rollouts/gpt2.png";  // typed: relative to the proposed folder
  save_to.propose(memory);            // opened again: what was typed stays
  EXPECT_EQ(save_to.out, "rollouts/gpt2.png");
  EXPECT_EQ(save_to.resolved(), last / "rollouts" / "gpt2.png");

  ExportOutcome one;
  one.ok = true;
  one.written = {last / "rollouts" / "gpt2.png"};
  save_to.remember(memory, one);
  EXPECT_EQ(save_to.out, (last / "rollouts").string()) << "the next export starts in its folder, never over its file";
  EXPECT_EQ(read_last_folder(memory), last / "rollouts") << "and so does the next run's";

  save_to.out = (dir_ / "many").string();
  ExportOutcome several;
  several.ok = true;
  several.written = {dir_ / "many" / "a.png", dir_ / "many" / "b.png"};
  save_to.remember(memory, several);
  EXPECT_EQ(save_to.folder, dir_ / "many");
}

}  // namespace
}  // namespace attnviz::export_ui
