// Reading what a user names, bounded: /dev/zero, an endless pipe or a FIFO nobody writes to
// must end with a message (or be cancellable), never fill the memory or wait forever.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/common/error.h"
#include "core/common/input_file.h"

namespace attnviz {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

class InputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("attnviz-input-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

std::string problem_of(const std::string& path, const ReadOptions& options = {}) {
  try {
    (void)read_input_file(path, options);
  } catch (const InputError& error) {
    EXPECT_EQ(error.origin(), path);
    return error.problem();
  }
  ADD_FAILURE() << "no error for " << path;
  return "";
}

TEST_F(InputFile, ReadsAFile) {
  std::ofstream(dir_ / "a.json") << "{\"x\": 1}";
  EXPECT_EQ(read_input_file((dir_ / "a.json").string()), "{\"x\": 1}");
}

// Before: `attnviz compute --scenario /dev/zero` grew to 8 GB and then failed with a message
// about the JSON.
TEST_F(InputFile, DevZeroStopsAtTheStreamLimitAndSaysIt) {
  const auto start = Clock::now();
  const std::string problem = problem_of("/dev/zero");
  EXPECT_NE(problem.find("gave more than 64 MiB"), std::string::npos) << problem;
  EXPECT_NE(problem.find("save what it gives to a regular file"), std::string::npos) << problem;
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(20));
}

TEST_F(InputFile, AFileOverTheLimitIsRefusedBeforeItIsRead) {
  std::ofstream(dir_ / "big.json") << std::string(2048, ' ');
  ReadOptions options;
  options.max_file_bytes = 1024;
  const std::string problem = problem_of((dir_ / "big.json").string(), options);
  EXPECT_NE(problem.find("is 2 KiB; attnviz opens files of at most 1 KiB"), std::string::npos) << problem;
}

TEST_F(InputFile, AFifoIsReadUntilItsWriterCloses) {
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo) << "from the writer"; });
  EXPECT_EQ(read_input_file(fifo.string()), "from the writer");
  writer.join();
}

// Before: File ▸ Open of a FIFO froze the window for good (and SIGTERM could not save).
TEST_F(InputFile, AFifoNobodyWritesToCanBeCancelled) {
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::atomic<bool> cancel{false};
  ReadOptions options;
  options.cancel = &cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel = true;
  });
  const auto start = Clock::now();
  EXPECT_THROW((void)read_input_file(fifo.string(), options), ReadCancelled);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
  canceller.join();
}

TEST_F(InputFile, RegularFilesOnlyRefusesAFifoWithoutWaiting) {
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ReadOptions options;
  options.regular_files_only = true;
  EXPECT_NE(problem_of(fifo.string(), options).find("not a regular file"), std::string::npos);
  EXPECT_NE(problem_of("/dev/zero", options).find("not a regular file"), std::string::npos);
}

TEST_F(InputFile, FoldersAndMissingFilesSaySo) {
  EXPECT_EQ(problem_of(dir_.string()), "is a folder, not a scenario file");
  ReadOptions text;
  text.kind = "text file";  // --text-file, File > Open text...
  EXPECT_EQ(problem_of(dir_.string(), text), "is a folder, not a text file");
  EXPECT_EQ(problem_of((dir_ / "none.json").string()), "no such file");
}

TEST(ByteSizeText, RoundsToAReadableUnit) {
  EXPECT_EQ(byte_size_text(17), "17 bytes");
  EXPECT_EQ(byte_size_text(2048), "2 KiB");
  EXPECT_EQ(byte_size_text(std::size_t{64} << 20), "64 MiB");
  EXPECT_EQ(byte_size_text(std::size_t{1} << 30), "1 GiB");
  EXPECT_EQ(byte_size_text(1536), "1.5 KiB");
}

}  // namespace
}  // namespace attnviz
