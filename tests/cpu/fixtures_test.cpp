// Every worked example in tests/fixtures against its independent float64 `expected` block.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "core/cpu/cpu_backend.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario_json.h"

namespace attnviz {
namespace {

std::vector<std::filesystem::path> fixture_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(ATTNVIZ_FIXTURES_DIR))) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void expect_near_matrix(const Matrix& actual, const nlohmann::json& expected, const std::string& what) {
  ASSERT_EQ(static_cast<std::size_t>(actual.rows), expected.size()) << what;
  for (int r = 0; r < actual.rows; ++r) {
    const nlohmann::json& row = expected[static_cast<std::size_t>(r)];
    ASSERT_EQ(static_cast<std::size_t>(actual.cols), row.size()) << what;
    for (int c = 0; c < actual.cols; ++c)
      EXPECT_NEAR(actual.at(r, c), row[static_cast<std::size_t>(c)].get<double>(), 1e-5)
          << what << " (" << r << ", " << c << ")";
  }
}

TEST(Fixtures, AllFiveArePresent) { EXPECT_EQ(fixture_files().size(), 5u); }

TEST(Fixtures, CpuBackendMatchesEveryExpectedBlockWithin1e5) {
  for (const std::filesystem::path& path : fixture_files()) {
    SCOPED_TRACE(path.filename().string());
    const LoadedScenario loaded = load_scenario(path.string());
    const Problem problem = build_problem(loaded.scenario, path.string());
    const Result result = make_cpu_backend()->compute(problem);

    std::ifstream file(path);
    const nlohmann::json expected = nlohmann::json::parse(file)["expected"];
    for (int i = 0; i < result.mask.rows; ++i)
      for (int j = 0; j < result.mask.cols; ++j)
        EXPECT_EQ(result.mask.at(i, j) ? 1 : 0,
                  expected["mask"][static_cast<std::size_t>(i)][static_cast<std::size_t>(j)].get<int>());
    ASSERT_EQ(result.heads.size(), expected["heads"].size());
    for (std::size_t h = 0; h < result.heads.size(); ++h) {
      expect_near_matrix(result.heads[h].scores, expected["heads"][h]["scores"], "scores");
      expect_near_matrix(result.heads[h].weights, expected["heads"][h]["weights"], "weights");
      expect_near_matrix(result.heads[h].context, expected["heads"][h]["context"], "context");
    }
    expect_near_matrix(result.output, expected["output"], "output");
  }
}

}  // namespace
}  // namespace attnviz
