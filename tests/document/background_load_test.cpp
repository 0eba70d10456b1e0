// Loading off the window's thread: a FIFO nobody writes to is cancelled, not waited for;
// /dev/zero ends with the limit's message; a good file arrives with its warnings.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/document/background_load.h"

namespace attnviz::document {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class BackgroundLoadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("attnviz-load-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

void wait_until_done(const BackgroundLoad& load, std::chrono::seconds limit = 30s) {
  const auto start = std::chrono::steady_clock::now();
  while (!load.done() && std::chrono::steady_clock::now() - start < limit) std::this_thread::sleep_for(5ms);
}

TEST_F(BackgroundLoadTest, AFileArrivesWithItsWarnings) {
  std::ofstream(dir_ / "s.json") << R"({"format": "attnviz-scenario/1", "sentence": "a b c", "colour": "red"})";
  BackgroundLoad load((dir_ / "s.json").string());
  wait_until_done(load);
  ASSERT_TRUE(load.done());
  std::optional<LoadedScenario> loaded = load.take_result();
  ASSERT_TRUE(loaded.has_value()) << load.error();
  EXPECT_EQ(loaded->scenario.sentence, "a b c");
  EXPECT_EQ(loaded->warnings.size(), 1u);
}

TEST_F(BackgroundLoadTest, AFifoNobodyWritesToIsCancelledQuickly) {
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  BackgroundLoad load(fifo.string());
  std::this_thread::sleep_for(150ms);
  EXPECT_FALSE(load.done()) << "still waiting for a writer";
  const auto start = std::chrono::steady_clock::now();
  load.cancel();
  wait_until_done(load, 5s);
  EXPECT_TRUE(load.done());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  EXPECT_TRUE(load.cancelled());
  EXPECT_FALSE(load.take_result().has_value());
}

TEST_F(BackgroundLoadTest, DestroyingAWaitingLoadDoesNotHang) {
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  { BackgroundLoad load(fifo.string()); }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
}

TEST_F(BackgroundLoadTest, DevZeroEndsWithTheLimitsMessage) {
  BackgroundLoad load("/dev/zero");
  wait_until_done(load);
  ASSERT_TRUE(load.done());
  EXPECT_FALSE(load.take_result().has_value());
  EXPECT_NE(load.error().find("64 MiB"), std::string::npos) << load.error();
  EXPECT_GT(load.bytes_read(), std::size_t{64} << 20);
}

TEST_F(BackgroundLoadTest, AScenarioThatCannotBeComputedIsAnError) {
  std::ofstream(dir_ / "s.json")
      << R"({"format": "attnviz-scenario/1", "sentence": "a b", "mask": {"window": 1, "global": [9]}})";
  BackgroundLoad load((dir_ / "s.json").string());
  wait_until_done(load);
  EXPECT_NE(load.error().find("/mask/global/0"), std::string::npos) << load.error();
}

}  // namespace
}  // namespace attnviz::document
