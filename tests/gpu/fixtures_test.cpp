// Every worked example in tests/fixtures computed by the Vulkan backend, against the
// fixture's independent float64 `expected` block (1e-5).
//
// The scenario loader (core/scenario/scenario_json) belongs to another module and may not exist
// yet, so this test reads the fixtures' explicit tokens, embeddings and weights itself.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/gpu/vulkan_attention.h"
#include "tests/vk/vk_test_support.h"

namespace attnviz {
namespace {

using nlohmann::json;

Matrix matrix_from(const json& rows) {
  Matrix m(static_cast<int>(rows.size()), static_cast<int>(rows.at(0).size()));
  for (int r = 0; r < m.rows; ++r) {
    for (int c = 0; c < m.cols; ++c)
      m.at(r, c) = rows.at(static_cast<std::size_t>(r)).at(static_cast<std::size_t>(c)).get<float>();
  }
  return m;
}

Problem problem_from(const json& f) {
  Problem p;
  p.tokens = f.at("tokens").get<std::vector<std::string>>();
  p.x = matrix_from(f.at("embeddings"));
  p.cross_attention = f.contains("source");
  if (p.cross_attention) {
    p.source_tokens = f.at("source").at("tokens").get<std::vector<std::string>>();
    p.xs = matrix_from(f.at("source").at("embeddings"));
  } else {
    p.source_tokens = p.tokens;
    p.xs = p.x;
  }
  p.num_heads = f.at("num_heads").get<int>();
  p.num_kv_heads = f.value("num_kv_heads", p.num_heads);
  p.d_k = f.at("d_k").get<int>();
  p.d_v = f.at("d_v").get<int>();
  p.wq = matrix_from(f.at("wq"));
  p.wk = matrix_from(f.at("wk"));
  p.wv = matrix_from(f.at("wv"));
  if (f.contains("wo")) p.wo = matrix_from(f.at("wo"));
  const json& scale = f.value("scale", json("inv_sqrt_dk"));
  if (scale.is_number()) {
    p.scale = scale.get<float>();
  } else {
    p.scale = scale == "none" ? 1.0f : static_cast<float>(1.0 / std::sqrt(static_cast<double>(p.d_k)));
  }
  const json& mask = f.value("mask", json::object());
  p.mask.causal = mask.value("causal", false);
  if (mask.contains("window")) p.mask.window = mask.at("window").get<int>();
  if (mask.contains("global")) p.mask.global = mask.at("global").get<std::vector<int>>();
  return p;
}

void expect_matrix_near(const Matrix& actual, const json& expected, const std::string& what) {
  ASSERT_EQ(static_cast<std::size_t>(actual.rows), expected.size()) << what;
  for (int r = 0; r < actual.rows; ++r) {
    const json& row = expected.at(static_cast<std::size_t>(r));
    ASSERT_EQ(static_cast<std::size_t>(actual.cols), row.size()) << what;
    for (int c = 0; c < actual.cols; ++c) {
      EXPECT_NEAR(actual.at(r, c), row.at(static_cast<std::size_t>(c)).get<double>(), 1e-5)
          << what << " (" << r << ", " << c << ")";
    }
  }
}

std::vector<std::filesystem::path> fixture_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(ATTNVIZ_FIXTURES_DIR))) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(VulkanFixtures, EveryFixtureMatchesItsFloat64Reference) {
  const auto files = fixture_files();
  ASSERT_FALSE(files.empty()) << "no fixtures under " << ATTNVIZ_FIXTURES_DIR;
  const auto context = testing::validated_context();
  gpu::VulkanAttention backend(context);
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    std::ifstream in(path);
    const json fixture = json::parse(in);
    const Problem problem = problem_from(fixture);
    for (const bool full_scores : {true, false}) {
      ComputeOptions options;
      options.scores_under_mask = full_scores;
      const Result result = backend.compute(problem, options);
      const json& expected = fixture.at("expected");
      const json& mask = expected.at("mask");
      for (int i = 0; i < result.mask.rows; ++i) {
        for (int j = 0; j < result.mask.cols; ++j) {
          EXPECT_EQ(result.mask.at(i, j) ? 1 : 0,
                    mask.at(static_cast<std::size_t>(i)).at(static_cast<std::size_t>(j)).get<int>());
        }
      }
      ASSERT_EQ(result.heads.size(), expected.at("heads").size());
      for (std::size_t h = 0; h < result.heads.size(); ++h) {
        const json& head = expected.at("heads").at(h);
        const std::string name = "head" + std::to_string(h);
        if (full_scores) {
          expect_matrix_near(result.heads[h].scores, head.at("scores"), name + ".scores");
        } else {
          // The fast mode reads masked raw scores as 0, the rest as in the reference.
          Matrix masked = result.heads[h].scores;
          for (int i = 0; i < masked.rows; ++i) {
            for (int j = 0; j < masked.cols; ++j) {
              const double want =
                  result.mask.at(i, j)
                      ? head.at("scores").at(static_cast<std::size_t>(i)).at(static_cast<std::size_t>(j)).get<double>()
                      : 0.0;
              EXPECT_NEAR(masked.at(i, j), want, 1e-5) << name << ".scores fast (" << i << ", " << j << ")";
            }
          }
        }
        expect_matrix_near(result.heads[h].weights, head.at("weights"), name + ".weights");
        expect_matrix_near(result.heads[h].context, head.at("context"), name + ".context");
      }
      expect_matrix_near(result.output, expected.at("output"), "output");
    }
  }
  testing::expect_no_validation_messages(*context);
}

}  // namespace
}  // namespace attnviz
