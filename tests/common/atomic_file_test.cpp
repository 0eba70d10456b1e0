#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/common/atomic_file.h"

namespace attnviz {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

class AtomicFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("attnviz-atomic-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                        "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(AtomicFile, WritesAndReplacesWholeFiles) {
  const fs::path path = dir_ / "out.json";
  write_file_atomically(path, "first");
  write_file_atomically(path, std::string("sec\0ond", 7));
  EXPECT_EQ(read(path), std::string("sec\0ond", 7));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(AtomicFile, FailureNamesThePathAndLeavesTheOldFileAndNoTemporary) {
  const fs::path path = dir_ / "keep.txt";
  write_file_atomically(path, "old");
  // A directory where the target file should be: rename fails after the temp file is written.
  const fs::path blocked = dir_ / "blocked";
  fs::create_directories(blocked / "child");
  try {
    write_file_atomically(blocked, "new");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(blocked.string()), std::string::npos) << error.what();
  }
  EXPECT_EQ(read(path), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 2);  // keep.txt, blocked/
}

TEST_F(AtomicFile, MissingDirectoryIsAClearError) {
  try {
    write_file_atomically(dir_ / "no" / "such" / "dir" / "f.png", "x");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("No such file or directory"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace attnviz
