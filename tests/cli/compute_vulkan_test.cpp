// `attnviz compute --backend vulkan|both` and `attnviz devices`, run as a user would, on
// whatever Vulkan driver the machine has (lavapipe in CI), with the validation layer on
// (ATTNVIZ_VALIDATION=1 prints every message to stderr; none may appear). The numbers are
// checked against the fixtures' independent float64 `expected` blocks.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/run_attnviz.h"

namespace attnviz {
namespace {

using nlohmann::json;
using testing::run_attnviz;

constexpr const char* kValidated = "ATTNVIZ_VALIDATION=1";
constexpr const char* kNoDriver = "VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json";

void expect_no_validation_messages(const testing::CommandOutput& run) {
  EXPECT_EQ(run.err.find("Vulkan validation"), std::string::npos) << run.err;
}

void expect_matrix_near(const json& actual, const json& expected, const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (std::size_t r = 0; r < expected.size(); ++r) {
    ASSERT_EQ(actual[r].size(), expected[r].size()) << what;
    for (std::size_t c = 0; c < expected[r].size(); ++c) {
      EXPECT_NEAR(actual[r][c].get<double>(), expected[r][c].get<double>(), 1e-5)
          << what << " (" << r << ", " << c << ")";
    }
  }
}

std::vector<std::filesystem::path> fixtures() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(ATTNVIZ_FIXTURES_DIR))) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Every fixture is a scenario file whose extra "expected" block holds the float64 answer.
TEST(ComputeVulkan, EveryFixtureMatchesItsFloat64Reference) {
  const auto files = fixtures();
  ASSERT_EQ(files.size(), 5u) << "expected the five fixtures under " << ATTNVIZ_FIXTURES_DIR;
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    const auto run = run_attnviz("compute --backend vulkan --scenario '" + path.string() + "'", kValidated);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    expect_no_validation_messages(run);
    const json result = json::parse(run.out);
    const json expected = json::parse(testing::read_text(path)).at("expected");
    EXPECT_EQ(result["backend"], "vulkan");
    EXPECT_FALSE(result["device"].get<std::string>().empty());
    EXPECT_EQ(result["mask"], expected["mask"]);
    ASSERT_EQ(result["heads"].size(), expected["heads"].size());
    for (std::size_t h = 0; h < expected["heads"].size(); ++h) {
      for (const char* matrix : {"scores", "weights", "context"}) {
        expect_matrix_near(result["heads"][h][matrix], expected["heads"][h][matrix],
                           "head" + std::to_string(h) + "." + matrix);
      }
    }
    expect_matrix_near(result["output"], expected["output"], "output");
  }
}

// stderr's table: one "  NAME  MAX_ABS  MAX_REL  LARGEST  (row, col)" line per matrix.
struct DifferenceLine {
  std::string name;
  double max_abs = 0.0;
  double max_rel = 0.0;
};

// (No std::regex: GCC 12 warns inside <regex> under -fsanitize, and warnings are errors.)
std::vector<DifferenceLine> difference_lines(const std::string& err) {
  std::vector<DifferenceLine> lines;
  std::istringstream text(err);
  for (std::string line; std::getline(text, line);) {
    std::istringstream fields(line);
    DifferenceLine entry;
    std::string max_abs, max_rel, largest, at;
    if (line.rfind("  ", 0) != 0 || !(fields >> entry.name >> max_abs >> max_rel >> largest >> at)) continue;
    const bool matrix = entry.name == "output" || entry.name == "mask" ||
                        (entry.name.rfind("head", 0) == 0 && entry.name.find('.') != std::string::npos);
    if (!matrix || at.front() != '(') continue;
    entry.max_abs = std::stod(max_abs);
    entry.max_rel = std::stod(max_rel);
    lines.push_back(entry);
  }
  return lines;
}

TEST(ComputeVulkan, BothOnTheKoreanRestaurantPresetReportsDifferencesBelowOneInAHundredThousand) {
  const auto run = run_attnviz("compute --scenario preset:korean-restaurant --backend both", kValidated);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  expect_no_validation_messages(run);
  const json result = json::parse(run.out);
  EXPECT_EQ(result["backend"], "vulkan");
  EXPECT_NE(run.err.find("largest differences, vulkan - cpu"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("every matrix agrees (within 1e-5)"), std::string::npos) << run.err;

  const std::vector<DifferenceLine> lines = difference_lines(run.err);
  std::set<std::string> names;
  for (const DifferenceLine& line : lines) {
    names.insert(line.name);
    EXPECT_LE(line.max_abs, 1e-5) << line.name;
    EXPECT_GE(line.max_abs, 0.0) << line.name;
    EXPECT_LE(line.max_rel, 1e-5) << line.name;
  }
  // The mask, every head's three matrices and the output, each exactly once.
  const std::size_t heads = result["heads"].size();
  ASSERT_GT(heads, 0u);
  EXPECT_EQ(lines.size(), 3 * heads + 2) << run.err;
  EXPECT_TRUE(names.count("mask")) << run.err;
  for (std::size_t h = 0; h < heads; ++h) {
    for (const char* matrix : {"scores", "weights", "context"}) {
      EXPECT_TRUE(names.count("head" + std::to_string(h) + "." + matrix)) << matrix << " of head " << h << "\n"
                                                                          << run.err;
    }
  }
  EXPECT_TRUE(names.count("output")) << run.err;
}

// Every other preset (GQA, cross-attention, Longformer, sliding window, ...) through `both`.
TEST(ComputeVulkan, BothAgreesWithinOneInAHundredThousandOnEveryPreset) {
  for (const char* preset : {"life-is-short", "gqa", "cross-attention", "longformer", "sliding-window", "causal-gpt"}) {
    SCOPED_TRACE(preset);
    const auto run = run_attnviz(std::string("compute --backend both --scenario preset:") + preset, kValidated);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    expect_no_validation_messages(run);
    EXPECT_EQ(json::parse(run.out)["backend"], "vulkan");
    const std::vector<DifferenceLine> lines = difference_lines(run.err);
    EXPECT_GE(lines.size(), 4u) << run.err;
    for (const DifferenceLine& line : lines) EXPECT_LE(line.max_abs, 1e-5) << line.name << "\n" << run.err;
  }
}

TEST(ComputeVulkan, AMissingDeviceExitsThreeNamingTheDevicesFound) {
  for (const auto& [arguments, environment] : std::vector<std::pair<std::string, std::string>>{
           {"compute --scenario preset:life-is-short --backend vulkan", "ATTNVIZ_DEVICE=99"},
           {"compute --scenario preset:life-is-short --backend both", "ATTNVIZ_DEVICE=99"},
           {"compute --scenario preset:life-is-short --backend vulkan --device 99", ""},
           {"devices", "ATTNVIZ_DEVICE=99"}}) {
    SCOPED_TRACE(environment + " attnviz " + arguments);
    const auto run = run_attnviz(arguments, environment);
    EXPECT_EQ(run.exit_code, 3) << run.err;
    EXPECT_TRUE(run.out.empty()) << run.out;
    EXPECT_NE(run.err.find("device 99"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("does not exist; "), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(" found: 0 "), std::string::npos) << run.err;
  }
}

TEST(ComputeVulkan, AMalformedDeviceIndexIsBadInput) {
  const auto environment =
      run_attnviz("compute --scenario preset:life-is-short --backend vulkan", "ATTNVIZ_DEVICE=first");
  EXPECT_EQ(environment.exit_code, 2) << environment.err;
  EXPECT_NE(environment.err.find("<environment>: ATTNVIZ_DEVICE: \"first\" is not a device index"), std::string::npos)
      << environment.err;
  const auto option = run_attnviz("compute --scenario preset:life-is-short --backend vulkan --device first");
  EXPECT_EQ(option.exit_code, 2) << option.err;
  EXPECT_NE(option.err.find("--device"), std::string::npos) << option.err;
}

TEST(ComputeVulkan, NoDriverExitsThreeSayingWhatWasTriedAndHowToInstallOne) {
  for (const char* arguments : {"compute --scenario preset:life-is-short --backend vulkan",
                                "compute --scenario preset:life-is-short --backend both", "devices"}) {
    SCOPED_TRACE(arguments);
    const auto run = run_attnviz(arguments, kNoDriver);
    EXPECT_EQ(run.exit_code, 3) << run.err;
    EXPECT_TRUE(run.out.empty()) << run.out;
    EXPECT_NE(run.err.find("the Vulkan loader was found"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("VK_ERROR_INCOMPATIBLE_DRIVER"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("sudo apt-get install mesa-vulkan-drivers"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("--backend cpu"), std::string::npos) << run.err;
  }
  // The Eigen path does not need Vulkan at all.
  const auto cpu = run_attnviz("compute --scenario preset:life-is-short --backend cpu", kNoDriver);
  EXPECT_EQ(cpu.exit_code, 0) << cpu.err;
}

TEST(DevicesCommand, ListsTheDriversDeviceAndMarksTheChoice) {
  const auto run = run_attnviz("devices");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // One device on CI (lavapipe); a developer's machine may list a GPU too.
  EXPECT_EQ(run.out.rfind("Vulkan devices (", 0), 0u) << run.out;
  const std::size_t chosen_at = run.out.find("\nchosen: device ");
  ASSERT_NE(chosen_at, std::string::npos) << run.out;
  const std::string chosen_index = std::to_string(std::stoi(run.out.substr(chosen_at + 16)));
  EXPECT_NE(run.out.find("  * " + chosen_index + " "), std::string::npos) << run.out;
  if (run.out.find("Vulkan devices (1 found)") != std::string::npos) {
    EXPECT_NE(run.out.find("chosen: device 0 (the only usable device)\n"), std::string::npos) << run.out;
  }
  const auto chosen = run_attnviz("devices --device 0");
  ASSERT_EQ(chosen.exit_code, 0) << chosen.err;
  EXPECT_NE(chosen.out.find("chosen: device 0 (chosen with --device 0)"), std::string::npos) << chosen.out;
}

}  // namespace
}  // namespace attnviz
