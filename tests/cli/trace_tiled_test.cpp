// `attnviz trace tiled`, run as a user would (docs/design.md "Traces"): the attnviz-tiled-trace/1
// JSON, its context against `attnviz compute` (the materialised path), and bad values refused
// with exit 2 naming the option. The numbers of every tile are checked against the float64
// recurrence of the FlashAttention-2 paper by tests/reference/check_tiled_trace.py.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli/run_attnviz.h"

namespace attnviz {
namespace {

using nlohmann::json;
using testing::run_attnviz;

json run_json(const std::string& arguments) {
  const testing::CommandOutput run = run_attnviz(arguments);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return json::parse(run.out);
}

TEST(TraceTiled, WritesEveryTileInVisitOrderAndTheContextOfTheMaterialisedPath) {
  // causal-gpt: a causal mask, so the tiles above the diagonal are skipped.
  const json trace = run_json("trace tiled --scenario preset:causal-gpt --block-q 3 --block-k 2 --head 1");
  const json dense = run_json("compute --scenario preset:causal-gpt");
  EXPECT_EQ(trace["format"], "attnviz-tiled-trace/1");
  EXPECT_EQ(trace["head"], 1);
  EXPECT_EQ(trace["block_q"], 3);
  EXPECT_EQ(trace["block_k"], 2);
  const json& context = dense["heads"][1]["context"];
  const auto n = static_cast<int>(context.size());
  const int query_blocks = (n + 2) / 3;
  const int key_blocks = (n + 1) / 2;
  ASSERT_EQ(static_cast<int>(trace["tiles"].size()), query_blocks * key_blocks);
  int skipped = 0;
  for (int qb = 0; qb < query_blocks; ++qb) {
    for (int kb = 0; kb < key_blocks; ++kb) {
      const json& tile = trace["tiles"][static_cast<std::size_t>(qb * key_blocks + kb)];
      EXPECT_EQ(tile["qb"], qb);
      EXPECT_EQ(tile["kb"], kb);
      // Causal: the tile is hidden exactly when its first key lies after its last query.
      EXPECT_EQ(tile["skipped"], 2 * kb > std::min(n, 3 * qb + 3) - 1);
      skipped += tile["skipped"].get<bool>() ? 1 : 0;
      const auto rows = static_cast<std::size_t>(std::min(n, 3 * qb + 3) - 3 * qb);
      EXPECT_EQ(tile["m"].size(), rows);
      EXPECT_EQ(tile["l"].size(), rows);
    }
  }
  EXPECT_GT(skipped, 0);
  ASSERT_EQ(trace["context"].size(), context.size());
  for (std::size_t i = 0; i < context.size(); ++i) {
    for (std::size_t c = 0; c < context[i].size(); ++c) {
      EXPECT_NEAR(trace["context"][i][c].get<double>(), context[i][c].get<double>(), 1e-5) << i << ", " << c;
    }
  }
}

TEST(TraceTiled, RowsThatHaveSeenNothingYetHaveANullMaximum) {
  // A window of 0: each row sees only itself. With Br = 2, Bc = 1, tile (0, 0) holds key 0:
  // row 0 sees it, row 1 has seen nothing yet (m null, l 0).
  const std::string dir = testing::scratch_dir("trace-null").string();
  const std::string path = dir + "/window.json";
  std::ofstream(path) << R"({"format": "attnviz-scenario/1", "sentence": "a b c d", "mask": {"window": 0}})";
  const json trace = run_json("trace tiled --scenario " + path + " --block-q 2 --block-k 1");
  const json& first = trace["tiles"][0];
  EXPECT_TRUE(first["m"][0].is_number());
  EXPECT_TRUE(first["m"][1].is_null());
  EXPECT_EQ(first["l"][1], 0.0);
  std::filesystem::remove_all(dir);
}

TEST(TraceTiled, OutWritesTheSameJsonToAFile) {
  const std::string dir = testing::scratch_dir("trace-out").string();
  const testing::CommandOutput run =
      run_attnviz("trace tiled --scenario preset:korean-restaurant --block-q 4 --block-k 4 --out " + dir + "/t.json");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(run.out.empty());
  const json trace = json::parse(testing::read_text(dir + "/t.json"));
  EXPECT_EQ(trace["tiles"].size(), 4u);
  std::filesystem::remove_all(dir);
}

void expect_refused(const std::string& arguments, const std::string& option) {
  const testing::CommandOutput run = run_attnviz(arguments);
  EXPECT_EQ(run.exit_code, 2) << arguments;
  EXPECT_NE(run.err.find(option), std::string::npos) << arguments << ": " << run.err;
  EXPECT_TRUE(run.out.empty()) << arguments;
}

TEST(TraceTiled, BadValuesExitTwoNamingTheOption) {
  const std::string korean = "trace tiled --scenario preset:korean-restaurant ";
  expect_refused(korean + "--block-q 0 --block-k 4", "--block-q");
  expect_refused(korean + "--block-q 4 --block-k 0", "--block-k");
  expect_refused(korean + "--block-q four --block-k 4", "--block-q");
  expect_refused(korean + "--block-q 4 --block-k -2", "--block-k");
  expect_refused(korean + "--block-k 4", "--block-q");
  expect_refused(korean + "--block-q 4", "--block-k");
  expect_refused(korean + "--block-q 4 --block-k 4 --head 1", "--head");
  expect_refused(korean + "--block-q 4 --block-k 4 --head x", "--head");
  expect_refused("trace tiled --block-q 4 --block-k 4", "--scenario");
  expect_refused("trace tiled --scenario preset:no-such --block-q 4 --block-k 4", "no-such");
  expect_refused("trace", "trace");
  expect_refused("trace sideways", "sideways");
  expect_refused(korean + "--block-q 4 --block-k 4 --out /nonexistent-folder/t.json", "--out");
}

TEST(TraceTiled, HelpNamesEveryOption) {
  const testing::CommandOutput run = run_attnviz("trace tiled --help");
  EXPECT_EQ(run.exit_code, 0);
  for (const char* option : {"--scenario", "--block-q", "--block-k", "--head", "--out"}) {
    EXPECT_NE(run.out.find(option), std::string::npos) << option;
  }
  EXPECT_NE(run_attnviz("--help").out.find("trace tiled"), std::string::npos);
}

}  // namespace
}  // namespace attnviz
