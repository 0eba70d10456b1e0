// `attnviz compute --kernel tiled` and `attnviz trace tiled --backend vulkan`, run as a user
// would: the tiled kernels' contexts and outputs against the dense path's within 1e-5, on the
// CPU and on the Vulkan device (lavapipe in CI) under the validation layer, which must print
// nothing; bad combinations exit 2 naming the option.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "tests/cli/run_attnviz.h"

namespace attnviz {
namespace {

using nlohmann::json;
using testing::run_attnviz;

constexpr const char* kValidated = "ATTNVIZ_VALIDATION=1";

json run_json(const std::string& arguments) {
  const testing::CommandOutput run = run_attnviz(arguments, kValidated);
  EXPECT_EQ(run.exit_code, 0) << arguments << ": " << run.err;
  EXPECT_EQ(run.err, "") << arguments;  // no validation message
  return run.exit_code == 0 ? json::parse(run.out) : json();
}

void expect_close(const json& got, const json& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got[i].size(), want[i].size()) << what;
    for (std::size_t c = 0; c < want[i].size(); ++c) {
      EXPECT_NEAR(got[i][c].get<double>(), want[i][c].get<double>(), 1e-5) << what << " (" << i << ", " << c << ")";
    }
  }
}

TEST(TiledKernelCommand, ComputeTiledGivesTheDenseContextsOnBothBackends) {
  // Presets with a causal mask, a sliding window, Longformer globals, GQA and cross-attention.
  for (const char* preset : {"causal-gpt", "sliding-window", "longformer", "gqa", "cross-attention"}) {
    const std::string scenario = std::string("--scenario preset:") + preset;
    const json dense = run_json("compute " + scenario);
    for (const char* backend : {"cpu", "vulkan"}) {
      for (const char* blocks : {"", " --block-q 3 --block-k 5", " --block-q 4 --block-k 4"}) {
        const std::string what = std::string(preset) + " " + backend + blocks;
        const json tiled = run_json("compute " + scenario + " --kernel tiled --backend " + backend + blocks);
        ASSERT_EQ(tiled["heads"].size(), dense["heads"].size()) << what;
        for (std::size_t h = 0; h < dense["heads"].size(); ++h) {
          expect_close(tiled["heads"][h]["context"], dense["heads"][h]["context"], what + " head " + std::to_string(h));
          EXPECT_TRUE(tiled["heads"][h]["weights"].empty()) << what;
        }
        expect_close(tiled["output"], dense["output"], what + " output");
        EXPECT_EQ(tiled["mask"], dense["mask"]) << what;
        EXPECT_EQ(tiled["masked_rows"], dense["masked_rows"]) << what;
      }
    }
  }
}

TEST(TiledKernelCommand, TraceOnVulkanHasTheCpuTilesAndTheKernelsContext) {
  const std::string args = "trace tiled --scenario preset:longformer --block-q 3 --block-k 2 --head 0";
  const json cpu = run_json(args);
  const json vulkan = run_json(args + " --backend vulkan");
  EXPECT_EQ(vulkan["tiles"], cpu["tiles"]);
  expect_close(vulkan["context"], cpu["context"], "context");
}

TEST(TiledKernelCommand, BadCombinationsExitTwoNamingTheOption) {
  const std::string korean = "--scenario preset:korean-restaurant";
  for (const auto& [arguments, option] : std::vector<std::pair<std::string, std::string>>{
           {"compute " + korean + " --kernel sideways", "--kernel"},
           {"compute " + korean + " --block-q 4", "--block-q"},
           {"compute " + korean + " --kernel tiled --block-k 0", "--block-k"},
           {"compute " + korean + " --kernel tiled --backend both", "--backend"},
           {"compute " + korean + " --kernel tiled --skip-masked-scores", "--skip-masked-scores"},
           {"compute " + korean + " --kernel tiled --backend vulkan --block-q 4096 --block-k 4096", "--block-q"},
           {"compute " + korean + " --kernel tiled --backend vulkan --precision fp8", "--precision"},
           {"compute " + korean + " --precision fp16", "--precision"},
           {"compute " + korean + " --kernel tiled --precision fp16", "--precision"},
           {"trace tiled " + korean + " --block-q 2 --block-k 2 --backend gpu", "--backend"}}) {
    const testing::CommandOutput run = run_attnviz(arguments);
    EXPECT_EQ(run.exit_code, 2) << arguments << ": " << run.err;
    EXPECT_NE(run.err.find(option), std::string::npos) << arguments << ": " << run.err;
  }
}

// Where the device has fp16 cooperative matrices the fp16 kernel's contexts are the dense ones
// within fp16's rounding; elsewhere (lavapipe) it exits 3 saying what the device lacks.
TEST(TiledKernelCommand, Fp16PrecisionRunsOnCooperativeMatricesOrSaysWhyNot) {
  const std::string scenario = "--scenario preset:causal-gpt";
  const std::string args = "compute " + scenario + " --kernel tiled --backend vulkan --precision fp16";
  const testing::CommandOutput run = run_attnviz(args, kValidated);
  if (run.exit_code == 3) {
    EXPECT_NE(run.err.find("fp16 cooperative matrices"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("VK_NV_cooperative_matrix"), std::string::npos) << run.err;
    return;
  }
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  const json dense = run_json("compute " + scenario);
  const json fp16 = json::parse(run.out);
  for (std::size_t h = 0; h < dense["heads"].size(); ++h) {
    const json& got = fp16["heads"][h]["context"];
    const json& want = dense["heads"][h]["context"];
    for (std::size_t i = 0; i < want.size(); ++i) {
      for (std::size_t c = 0; c < want[i].size(); ++c)
        EXPECT_NEAR(got[i][c].get<double>(), want[i][c].get<double>(), 1e-2);
    }
  }
}

}  // namespace
}  // namespace attnviz
