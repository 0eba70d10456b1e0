// File ▸ Open Recent's list: most recent first, one entry per path, at most ten, and a
// recent.json that is corrupt, cut short or someone else's read as far as it can be, never thrown.
#include "app/document/recent_files.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace attnviz::document {
namespace {

namespace fs = std::filesystem;

RecentFile scenario(const std::string& path) { return RecentFile{path, RecentKind::Scenario}; }
RecentFile model(const std::string& path) { return RecentFile{path, RecentKind::Model}; }
RecentFile text(const std::string& path) { return RecentFile{path, RecentKind::Text}; }

std::vector<std::string> paths(const RecentFiles& files) {
  std::vector<std::string> out;
  for (const RecentFile& entry : files.entries()) out.push_back(entry.path);
  return out;
}

TEST(RecentFiles, MostRecentFirstAndOpenedAgainMovesToTheTop) {
  RecentFiles files;
  files.add(scenario("/a.json"));
  files.add(model("/models/gpt2"));
  files.add(scenario("/b.json"));
  files.add(scenario("/a.json"));
  EXPECT_EQ(paths(files), (std::vector<std::string>{"/a.json", "/b.json", "/models/gpt2"}));
  EXPECT_EQ(files.entries()[2].kind, RecentKind::Model);
}

TEST(RecentFiles, KeepsTheTenMostRecent) {
  RecentFiles files;
  for (int i = 0; i < 15; ++i) files.add(scenario("/f" + std::to_string(i) + ".json"));
  ASSERT_EQ(files.entries().size(), RecentFiles::kMostRecent);
  EXPECT_EQ(files.entries().front().path, "/f14.json");
  EXPECT_EQ(files.entries().back().path, "/f5.json");
}

TEST(RecentFiles, EveryChangeMovesTheRevisionAndNothingElseDoes) {
  RecentFiles files;
  files.add(scenario("/a.json"));
  const std::uint64_t after_add = files.revision();
  files.remove("/not-there.json");
  EXPECT_EQ(files.revision(), after_add);
  files.remove("/a.json");
  EXPECT_GT(files.revision(), after_add);
  EXPECT_TRUE(files.entries().empty());
  const std::uint64_t emptied = files.revision();
  files.clear();
  EXPECT_EQ(files.revision(), emptied);
  files.add(scenario(""));
  EXPECT_EQ(files.revision(), emptied);
}

TEST(RecentFiles, ReadsBackWhatItWrote) {
  RecentFiles files;
  files.add(model("/models/tiny llama.gguf"));
  files.add(scenario("/home/k/수업/어텐션.json"));
  files.add(text("/home/k/수업/소설.txt"));  // File ▸ Open text…: opens again as the sentence
  const RecentFiles::Parsed parsed = RecentFiles::parse(files.serialise());
  ASSERT_EQ(parsed.files.entries().size(), 3u);
  EXPECT_EQ(parsed.files.entries().front().kind, RecentKind::Text);
  EXPECT_EQ(parsed.problem, "");
  EXPECT_EQ(parsed.files.entries(), files.entries());
  EXPECT_EQ(parsed.files.revision(), 0u);
}

TEST(RecentFiles, CorruptTextGivesAnEmptyListAndAReason) {
  for (const std::string text : {"", "{", "garbage \xff\xfe", "[1, 2, 3]", "{\"format\": \"attnviz-window/1\"}",
                                 "{\"format\": \"attnviz-recent/1\", \"files\": 7}", "null"}) {
    const RecentFiles::Parsed parsed = RecentFiles::parse(text);
    EXPECT_TRUE(parsed.files.entries().empty()) << text;
    EXPECT_NE(parsed.problem, "") << text;
  }
}

TEST(RecentFiles, UnreadableEntriesAreLeftOutAndTheRestKept) {
  const std::string text = R"({"format": "attnviz-recent/1", "files": [
      {"path": "/good.json", "kind": "scenario"},
      {"path": 12, "kind": "scenario"},
      {"path": "/odd", "kind": "spreadsheet"},
      "just a string",
      {"path": "", "kind": "model"},
      {"path": "/model", "kind": "model"},
      {"path": "/good.json", "kind": "scenario"}]})";
  const RecentFiles::Parsed parsed = RecentFiles::parse(text);
  EXPECT_EQ(paths(parsed.files), (std::vector<std::string>{"/good.json", "/model"}));
  EXPECT_NE(parsed.problem.find('4'), std::string::npos) << parsed.problem;
}

TEST(RecentFiles, MoreThanTenInTheFileKeepsTheFirstTen) {
  std::string text = R"({"format": "attnviz-recent/1", "files": [)";
  for (int i = 0; i < 30; ++i)
    text += (i > 0 ? "," : "") + std::string(R"({"path": "/f)") + std::to_string(i) + R"(", "kind": "scenario"})";
  text += "]}";
  const RecentFiles::Parsed parsed = RecentFiles::parse(text);
  ASSERT_EQ(parsed.files.entries().size(), RecentFiles::kMostRecent);
  EXPECT_EQ(parsed.files.entries().front().path, "/f0");
  EXPECT_EQ(parsed.files.entries().back().path, "/f9");
}

class RecentFilesOnDisk : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("attnviz_recent_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(RecentFilesOnDisk, NoFileYetIsAnEmptyListWithoutAProblem) {
  const RecentFiles::Parsed parsed = read_recent_files(dir_ / "recent.json");
  EXPECT_TRUE(parsed.files.entries().empty());
  EXPECT_EQ(parsed.problem, "");
}

TEST_F(RecentFilesOnDisk, WritesIntoAFolderItMakesAndReadsItBack) {
  RecentFiles files;
  files.add(scenario("/lesson.json"));
  ASSERT_EQ(write_recent_files(dir_ / "attnviz" / "recent.json", files), "");
  const RecentFiles::Parsed parsed = read_recent_files(dir_ / "attnviz" / "recent.json");
  EXPECT_EQ(parsed.problem, "");
  EXPECT_EQ(paths(parsed.files), std::vector<std::string>{"/lesson.json"});
}

TEST_F(RecentFilesOnDisk, AFolderOrAHugeFileInItsPlaceIsAProblemNotACrash) {
  fs::create_directories(dir_ / "recent.json");
  EXPECT_NE(read_recent_files(dir_ / "recent.json").problem, "");
  std::ofstream(dir_ / "huge.json") << std::string(600 * 1024, '[');
  const RecentFiles::Parsed huge = read_recent_files(dir_ / "huge.json");
  EXPECT_NE(huge.problem, "");
  EXPECT_TRUE(huge.files.entries().empty());
}

TEST_F(RecentFilesOnDisk, AnUnwritablePlaceSaysWhy) {
  fs::create_directories(dir_);
  std::ofstream(dir_ / "file") << "x";
  EXPECT_NE(write_recent_files(dir_ / "file" / "recent.json", RecentFiles{}), "");
}

}  // namespace
}  // namespace attnviz::document
