// The file dialog's listing and typed paths, on a temporary folder made by the test.
#include "app/document/file_listing.h"

#include <gtest/gtest.h>

#include <fstream>

namespace attnviz::edits {
namespace {

namespace fs = std::filesystem;

class FileListingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("attnviz_listing_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "zeta");
    fs::create_directories(dir_ / "alpha");
    fs::create_directories(dir_ / ".hidden");
    for (const char* name : {"b.json", "a.json", "notes.txt", ".secret.json"}) std::ofstream(dir_ / name) << "{}";
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(FileListingTest, FoldersFirstThenJsonFilesSortedHiddenLeftOut) {
  const Listing listing = list_directory(dir_);
  EXPECT_EQ(listing.error, "");
  std::vector<std::string> names;
  for (const ListedEntry& e : listing.entries) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"alpha/", "zeta/", "a.json", "b.json"}));
  EXPECT_TRUE(listing.entries[0].is_directory);
  EXPECT_FALSE(listing.entries[2].is_directory);
  EXPECT_EQ(listing.entries[2].path, dir_ / "a.json");
  EXPECT_EQ(list_directory(dir_, ListedFiles::Scenarios, true).entries.size(), 6u);
}

TEST_F(FileListingTest, ATextIsChosenAmongEveryFile) {
  const Listing listing = list_directory(dir_, ListedFiles::All);
  std::vector<std::string> names;
  for (const ListedEntry& e : listing.entries) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"alpha/", "zeta/", "a.json", "b.json", "notes.txt"}));
  EXPECT_FALSE(listing.entries[4].is_directory);
}

TEST_F(FileListingTest, AMissingFolderGivesAnErrorNotAThrow) {
  const Listing listing = list_directory(dir_ / "nope");
  EXPECT_TRUE(listing.entries.empty());
  EXPECT_NE(listing.error.find("cannot read"), std::string::npos);
  EXPECT_NE(listing.error.find("nope"), std::string::npos);
}

TEST(ResolveTypedPath, RelativeAbsoluteHomeAndExtension) {
  EXPECT_EQ(resolve_typed_path("/data/x", "life", true), fs::path("/data/x/life.json"));
  EXPECT_EQ(resolve_typed_path("/data/x", "life", false), fs::path("/data/x/life"));
  EXPECT_EQ(resolve_typed_path("/data/x", "life.json", true), fs::path("/data/x/life.json"));
  EXPECT_EQ(resolve_typed_path("/data/x", "../y/a.json", true), fs::path("/data/y/a.json"));
  EXPECT_EQ(resolve_typed_path("/data/x", "/tmp/b", true), fs::path("/tmp/b.json"));
  const char* home = std::getenv("HOME");
  if (home != nullptr) {
    EXPECT_EQ(resolve_typed_path("/data", "~/c.json", true), (fs::path(home) / "c.json").lexically_normal());
  }
}

}  // namespace
}  // namespace attnviz::edits
