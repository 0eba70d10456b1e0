// attnviz compute holds the matrices it produces and a small constant, not a JSON tree of
// them: one head of 4096 tokens (two 4096 × 4096 float matrices, 128 MiB, and a 16 MiB mask)
// took 2.9 GB of memory before the result was streamed.

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <fstream>
#include <string>

#include "tests/cli/run_attnviz.h"

namespace attnviz {
namespace {

TEST(ComputeMemory, OneHeadOf4096TokensStaysNearTheSizeOfItsMatrices) {
  const auto dir = testing::scratch_dir("compute-memory");
  static const char* const kWords[] = {"the", "cat", "sat", "on", "a", "mat", "while", "rain"};
  std::string sentence;
  for (int i = 0; i < 4096; ++i) sentence += std::string(i ? " " : "") + kWords[(i * 7 + i / 8) % 8];
  const auto scenario = dir / "n4096.json";
  std::ofstream(scenario) << R"({"format": "attnviz-scenario/1", "sentence": ")" << sentence
                          << R"(", "d_model": 64, "num_heads": 1, "d_k": 4, "d_v": 4, "mask": {"causal": true}})";
  const auto run = testing::run_attnviz("compute --scenario " + scenario.string() + " --out " + (dir / "r.json").string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  rusage usage{};
  ASSERT_EQ(::getrusage(RUSAGE_CHILDREN, &usage), 0);
  const long peak_mib = usage.ru_maxrss / 1024;
  // The matrices (scores, weights: 2 × 64 MiB; the mask 16 MiB) and the backend's working
  // copies, with room to spare: far below the 2.9 GB of the JSON tree.
  EXPECT_LT(peak_mib, 700) << "peak resident memory of attnviz compute: " << peak_mib << " MiB";
  EXPECT_GT(std::filesystem::file_size(dir / "r.json"), 100'000'000u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace attnviz
