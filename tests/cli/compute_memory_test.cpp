// Peak memory of attnviz compute and export at 4096 tokens: each holds the result's matrices
// and a small constant, never a JSON tree of them or a copy of them. One head of 4096 tokens
// took 2.9 GB before the result was streamed; eight heads peaked at 18.5 GB.

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/cli/run_attnviz.h"

namespace attnviz {
namespace {

class CommandMemory : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string scenario(int heads) const { return testing::write_long_scenario(dir_, kTokens, heads, 4); }
  static double result_mib(int heads) { return testing::long_result_mib(kTokens, heads, 4); }

  static constexpr int kTokens = 4096;
  std::filesystem::path dir_;
};

TEST_F(CommandMemory, OneHeadOf4096TokensAsJsonStaysNearTheSizeOfItsMatrices) {
  const auto run = testing::run_attnviz("compute --scenario " + scenario(1) + " --out " + (dir_ / "r.json").string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // 128 MiB of matrices and the 16 MiB mask, with room to spare: far below the 2.9 GB tree.
  EXPECT_LT(run.peak_rss_mib, 400) << "peak resident memory of attnviz compute: " << run.peak_rss_mib << " MiB";
  EXPECT_GT(std::filesystem::file_size(dir_ / "r.json"), 100'000'000u);
}

// The target: compute at 4096 tokens and 8 heads, NPY-sized output, peak ≤ 1.3 × the
// result's float32 size (1 GiB of scores and weights).
TEST_F(CommandMemory, EightHeadsOf4096TokensAsNpyPeakWithin1_3TimesTheResult) {
  const auto run = testing::run_attnviz("compute --scenario " + scenario(8) + " --format npy --max-output none --out " +
                                        (dir_ / "arrays").string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_LE(run.peak_rss_mib, 1.3 * result_mib(8))
      << "peak " << run.peak_rss_mib << " MiB, result " << result_mib(8) << " MiB";
  EXPECT_EQ(std::filesystem::file_size(dir_ / "arrays" / "weights.npy"), 128u + 8u * kTokens * kTokens * 4u);
}

// export --format json built a document tree of every number before writing a byte.
TEST_F(CommandMemory, ExportOfTwoHeadsOf4096TokensAsJsonIsStreamed) {
  const auto run = testing::run_attnviz("export --scenario " + scenario(2) + " --what weights --format json --out " +
                                        (dir_ / "w.json").string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_LE(run.peak_rss_mib, result_mib(2) + 150)
      << "peak " << run.peak_rss_mib << " MiB, result " << result_mib(2) << " MiB";
  EXPECT_GT(std::filesystem::file_size(dir_ / "w.json"), 100'000'000u);
}

}  // namespace
}  // namespace attnviz
