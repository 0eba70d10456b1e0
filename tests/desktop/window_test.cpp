// The window as a user (and the docs) run it: under Xvfb, on lavapipe, with the Khronos
// validation layer on (--validation: any message makes the exit code 1). Each screenshot must
// have the window's size and real heatmaps in the main area (many distinct saturated colours).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli/run_attnviz.h"
#include "tests/desktop/png_check.h"

namespace attnviz {
namespace {

namespace fs = std::filesystem;
using testing::CommandOutput;
using testing::run_attnviz;

constexpr const char* kXvfb = "xvfb-run -a -s '-screen 0 1600x1000x24'";

class Window : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir(std::string("gui-") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs attnviz in the virtual display with its own config directory (the autosave).
  CommandOutput run_window(const std::string& arguments, const std::string& environment = "") const {
    return run_attnviz(arguments, environment + " XDG_CONFIG_HOME='" + config_dir().string() + "' " + kXvfb);
  }

  fs::path config_dir() const { return dir_ / "config"; }
  fs::path autosave_file() const { return config_dir() / "attnviz" / "autosave.json"; }

  std::string write_json(const std::string& name, const nlohmann::json& json) const {
    const fs::path path = dir_ / name;
    std::ofstream(path) << json.dump(2);
    return path.string();
  }

  // Screenshot of `scenario` at 1280 × 800; checks its size and the heatmaps' colours.
  void expect_screenshot(const std::string& scenario, const std::string& extra, int min_colours) const {
    const fs::path png = dir_ / "shot.png";
    const CommandOutput out = run_window("--scenario '" + scenario + "' --screenshot '" + png.string() +
                                         "' --size 1280x800 --validation " + extra);
    ASSERT_EQ(out.exit_code, 0) << out.err;
    const testing::Image image = testing::load_png(png);
    ASSERT_EQ(image.width, 1280);
    ASSERT_EQ(image.height, 800);
    // The main area, right of the inputs column, above the lower row.
    const int colours = testing::distinct_saturated_colours(image, image.width * 3 / 10, image.height * 6 / 100,
                                                            image.width, image.height * 62 / 100);
    EXPECT_GE(colours, min_colours) << "the heatmap region looks empty";
  }

  fs::path dir_;
};

nlohmann::json preset(const std::string& name) {
  std::ifstream file(std::string(ATTNVIZ_SOURCE_DIR) + "/assets/presets/" + name + ".json");
  return nlohmann::json::parse(file);
}

TEST_F(Window, KoreanPresetWithACausalMask) {
  nlohmann::json scenario = preset("korean-restaurant");
  scenario["mask"] = {{"causal", true}};
  expect_screenshot(write_json("korean-causal.json", scenario), "", 200);
}

TEST_F(Window, LongformerPreset) { expect_screenshot("preset:longformer", "--head 1", 200); }

TEST_F(Window, GeneratedSentenceOf512Tokens) {
  static const char* const kWords[] = {"the",  "cat",  "sat",   "on",      "a",   "mat",      "while", "rain",
                                       "fell", "over", "quiet", "streets", "and", "children", "slept", "soundly"};
  std::string sentence;
  for (int i = 0; i < 512; ++i) sentence += std::string(i == 0 ? "" : " ") + kWords[(i * 7 + i / 16) % 16];
  nlohmann::json scenario = {{"format", "attnviz-scenario/1"},
                             {"sentence", sentence},
                             {"tokenizer", "words"},
                             {"d_model", 64},
                             {"seed", 11},
                             {"num_heads", 8},
                             {"num_kv_heads", 8},
                             {"d_k", 8},
                             {"d_v", 8},
                             {"mask", {{"causal", true}}}};
  expect_screenshot(write_json("long.json", scenario), "--layout heatmaps", 100);
}

TEST_F(Window, EveryLayoutDrawsWithoutValidationMessages) {
  for (const char* layout : {"full", "heatmaps", "compare-ready"}) {
    const CommandOutput out =
        run_window(std::string("--scenario preset:gqa --backend both --pin-query 3 --hover-token 2 "
                               "--screenshot '") +
                   (dir_ / "x.png").string() + "' --validation --layout " + layout);
    EXPECT_EQ(out.exit_code, 0) << layout << ": " << out.err;
  }
}

// Large text in a small window: the heatmaps keep a readable size (the panel scrolls or shows
// one step) instead of shrinking to a few dozen pixels, and nothing upsets the validation layer.
TEST_F(Window, LargeTextInASmallWindowKeepsHeatmapsReadable) {
  const fs::path png = dir_ / "small.png";
  const CommandOutput out = run_window(
      "--scenario preset:causal-gpt --size 1024x700 --ui-scale 1.5 --validation --screenshot '" + png.string() + "'");
  ASSERT_EQ(out.exit_code, 0) << out.err;
  const testing::Image image = testing::load_png(png);
  ASSERT_EQ(image.width, 1024);
  // 18 tokens, each cell at least a readable label high (62% of 25.5 px text = 16 px): the
  // causal weights' longest coloured row spans well over 200 px (the heatmaps were about 60).
  EXPECT_GE(testing::longest_saturated_run(image, image.width * 45 / 100, 0, image.width, image.height), 200);
  for (const char* extra : {"--ui-scale 2", "--size 1280x720 --ui-scale 2 --layout heatmaps", "--size 800x600"}) {
    const CommandOutput more =
        run_window(std::string("--scenario preset:longformer --pin-query 9 --validation --screenshot '") +
                   (dir_ / "x.png").string() + "' " + extra);
    EXPECT_EQ(more.exit_code, 0) << extra << ": " << more.err;
  }
}

// Two widgets with one ImGui ID steal each other's clicks (the Mask panel's Causal checkbox
// could not be clicked: its preset button of the same label had the same ID). --validation
// checks every widget of every frame; this walks every panel, classroom view and step page.
TEST_F(Window, NoTwoWidgetsShareAnId) {
  const std::vector<std::string> runs = {
      "--scenario preset:longformer --pin-query 3 --backend both --layout compare-ready",
      "--scenario preset:korean-restaurant --pin-query 2",
      "--scenario preset:gqa --view compare --compare kv-heads:4",
      "--scenario preset:gqa --view compare --compare heads:2 --present --size 1280x720",
      "--scenario preset:korean-restaurant --view compare --compare masks:4",
      "--scenario preset:cross-attention --view cross --pin-query 1",
      "--scenario preset:life-is-short --present --size 1280x720",
      "--scenario preset:sliding-window --view tiled --block-q 4 --block-k 4 --step 8",
      "--scenario preset:longformer --view decode --prompt 5 --step 3",
  };
  std::vector<std::string> all = runs;
  for (int step = 1; step <= 11; ++step) {
    all.push_back("--scenario preset:korean-restaurant --view step --pin-query 2 --step " + std::to_string(step));
  }
  for (const std::string& run : all) {
    const CommandOutput out = run_window(run + " --validation --screenshot '" + (dir_ / "x.png").string() + "'");
    EXPECT_EQ(out.exit_code, 0) << run << ": " << out.err;
    EXPECT_EQ(out.err.find("ImGui ID"), std::string::npos) << run << ": " << out.err;
  }
}

// Presentation mode on a projector's 1280 × 720 keeps the numbers of small matrices (issue 11:
// the 8 × 8 compare view and an 18-token heatmap showed none, with room left below), and the
// step page scrolls as one (its text column had a scrollbar of its own inside the page's). The
// window says which heatmaps drew numbers, and how far each window scrolls, in its widget log.
TEST_F(Window, PresentationKeepsTheNumbersOfSmallMatrices) {
  const auto widget_log = [this](const std::string& arguments) {
    const fs::path log = dir_ / "widgets.json";
    const CommandOutput out =
        run_window(arguments + " --present --size 1280x720 --frames 12 --validation --screenshot '" +
                       (dir_ / "x.png").string() + "'",
                   "ATTNVIZ_WIDGET_LOG='" + log.string() + "'");
    EXPECT_EQ(out.exit_code, 0) << arguments << ": " << out.err;
    return nlohmann::json::parse(testing::read_text(log));
  };
  const auto numbered = [](const nlohmann::json& log, const std::string& part) {
    int heatmaps = 0;
    for (const nlohmann::json& widget : log.at("widgets")) {
      if (widget.at("path").get<std::string>().find(part) == std::string::npos || !widget.contains("numbers")) continue;
      ++heatmaps;
      EXPECT_TRUE(widget.at("numbers").get<bool>()) << widget.at("path") << " shows no numbers";
    }
    return heatmaps;
  };
  EXPECT_EQ(numbered(widget_log("--scenario preset:korean-restaurant --view compare --compare masks:4"), "##copy"), 4);
  EXPECT_EQ(numbered(widget_log("--scenario preset:causal-gpt"), "##focused"), 1) << "18 tokens";
  const nlohmann::json step = widget_log("--scenario preset:korean-restaurant --view step --step 7 --pin-query 2");
  EXPECT_EQ(numbered(step, "##step-matrix"), 1);
  int text_columns = 0;
  for (const auto& [name, window] : step.at("windows").items()) {
    if (name.find("##step-trace") == std::string::npos) continue;
    ++text_columns;
    EXPECT_EQ(window.at("scroll_max").at(1).get<float>(), 0.0f) << "the text column scrolls inside the page";
  }
  EXPECT_EQ(text_columns, 1);
  // The Tiled view's 8 × 8 scores and the Decode view's cache keep their numbers on a projector.
  EXPECT_EQ(numbered(widget_log("--scenario preset:korean-restaurant --view tiled --step 6"), "##tiled-scores"), 1);
  EXPECT_GE(numbered(widget_log("--scenario preset:korean-restaurant --view decode --prompt 4 --step 3"), "##decode-"),
            6);
}

TEST_F(Window, ASteadyWindowNeitherRecomputesNorAllocates) {
  const CommandOutput out = run_window(
      "--scenario preset:longformer --backend both --layout compare-ready "
      "--pin-query 3 --stats --frames 30 --validation");
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_NE(out.out.find("recomputes: 1,"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("allocations after the warm-up frames: 0\n"), std::string::npos) << out.out;
}

// --bench-edits changes a weight every frame: every frame recomputes, the shape never changes,
// so the result buffers, their views and descriptor sets are all reused.
TEST_F(Window, EditsOfTheSameShapeRecomputeEveryFrameWithoutAllocating) {
  const CommandOutput out =
      run_window("--scenario preset:longformer --pin-query 3 --stats --frames 20 --bench-edits --validation");
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_NE(out.out.find("recomputes: 20,"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("allocations after the warm-up frames: 0\n"), std::string::npos) << out.out;
}

// With lavapipe as the only device the window computes with Eigen and says why; a backend
// chosen on the command line wins.
TEST_F(Window, TheAutomaticBackendComputesWithEigenOnACpuDriverAndAChoiceWins) {
  const std::string cache = " XDG_CACHE_HOME='" + (dir_ / "cache").string() + "'";
  const CommandOutput automatic = run_window("--scenario preset:gqa --stats --frames 3 --validation", cache);
  ASSERT_EQ(automatic.exit_code, 0) << automatic.err;
  EXPECT_NE(automatic.out.find("computed by cpu (Eigen"), std::string::npos) << automatic.out;
  const CommandOutput vulkan =
      run_window("--scenario preset:gqa --stats --frames 3 --validation --backend vulkan", cache);
  ASSERT_EQ(vulkan.exit_code, 0) << vulkan.err;
  EXPECT_NE(vulkan.out.find("computed by vulkan (llvmpipe"), std::string::npos) << vulkan.out;
}

// The pipelines are kept in $XDG_CACHE_HOME/attnviz between runs; a damaged cache file is
// ignored with a message (never a crash) and replaced by a whole one.
TEST_F(Window, KeepsItsPipelineCacheAndIgnoresADamagedOne) {
  const fs::path cache = dir_ / "cache";
  const std::string environment = " XDG_CACHE_HOME='" + cache.string() + "'";
  const std::string arguments = "--scenario preset:life-is-short --stats --frames 3 --validation";
  const CommandOutput first = run_window(arguments, environment);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(cache / "attnviz")) files.push_back(entry.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files.front().filename().string().rfind("pipelines-", 0), 0u) << files.front();
  EXPECT_EQ(testing::read_text(files.front()).substr(0, 16), "attnviz-pipeline");

  const CommandOutput second = run_window(arguments, environment);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.err.find("pipeline cache"), std::string::npos) << second.err;  // used, nothing to say

  std::ofstream(files.front(), std::ios::binary | std::ios::trunc) << "attnviz-pipeline and then nonsense";
  const CommandOutput damaged = run_window(arguments, environment);
  ASSERT_EQ(damaged.exit_code, 0) << damaged.err;
  EXPECT_NE(damaged.err.find("pipeline cache " + files.front().string() + " ignored (damaged"), std::string::npos)
      << damaged.err;
  EXPECT_EQ(testing::read_text(files.front()).substr(0, 16), "attnviz-pipeline");
  EXPECT_GT(fs::file_size(files.front()), 64u);
}

TEST_F(Window, WithoutAVulkanDriverSaysHowToInstallOne) {
  const CommandOutput out =
      run_window("--scenario preset:life-is-short --screenshot '" + (dir_ / "x.png").string() + "'",
                 "VK_DRIVER_FILES=/nonexistent/icd.json VK_ICD_FILENAMES=/nonexistent/icd.json");
  EXPECT_EQ(out.exit_code, 3) << out.err;
  EXPECT_NE(out.err.find("mesa-vulkan-drivers"), std::string::npos) << out.err;
  // --backend cpu does not help a window (it draws with Vulkan): no advice to try it.
  EXPECT_EQ(out.err.find("`--backend cpu`"), std::string::npos) << out.err;
}

TEST_F(Window, BadOptionsAndScenariosExitWith2BeforeAWindowOpens) {
  // No Xvfb here: these must fail before any window is needed.
  CommandOutput out = run_attnviz("--scenario /nonexistent/nowhere.json --screenshot x.png");
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_NE(out.err.find("nowhere.json"), std::string::npos) << out.err;
  out = run_attnviz("--size 12x12");
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_NE(out.err.find("--size"), std::string::npos) << out.err;
  out = run_attnviz("--layout sideways");
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_NE(out.err.find("compare-ready"), std::string::npos) << out.err;
  out = run_attnviz("--help");
  EXPECT_EQ(out.exit_code, 0);
}

TEST_F(Window, RestoresTheLastSessionsWork) {
  fs::create_directories(autosave_file().parent_path());
  std::ofstream(autosave_file()) << nlohmann::json({{"format", "attnviz-scenario/1"},
                                                    {"sentence", "one two three four five"},
                                                    {"d_model", 4},
                                                    {"num_heads", 1},
                                                    {"num_kv_heads", 1},
                                                    {"d_k", 2},
                                                    {"d_v", 2}})
                                        .dump();
  const CommandOutput out = run_window("--stats --frames 3");
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_NE(out.out.find(", 5 tokens,"), std::string::npos) << out.out;
}

TEST_F(Window, ABrokenAutosaveIsKeptAsideNotOverwritten) {
  fs::create_directories(autosave_file().parent_path());
  std::ofstream(autosave_file()) << "{ this is not JSON";
  const CommandOutput out = run_window("--frames 3");
  ASSERT_EQ(out.exit_code, 0) << out.err;
  // Kept under a name of its own (autosave.json.broken-YYYYMMDD-HHMMSS), never replaced by the
  // next broken one.
  std::string kept;
  for (const auto& entry : fs::directory_iterator(autosave_file().parent_path())) {
    if (entry.path().filename().string().rfind("autosave.json.broken-", 0) == 0) kept = entry.path().string();
  }
  ASSERT_FALSE(kept.empty());
  EXPECT_EQ(testing::read_text(kept), "{ this is not JSON");
  // The session started from the first-start preset, and that is what was kept on exit.
  EXPECT_NE(testing::read_text(autosave_file()).find("Life is short"), std::string::npos);
}

TEST_F(Window, KeepsTheWorkWhenTheWindowCloses) {
  const CommandOutput out = run_window("--scenario preset:gqa --frames 3");
  ASSERT_EQ(out.exit_code, 0) << out.err;
  const nlohmann::json kept = nlohmann::json::parse(testing::read_text(autosave_file()));
  EXPECT_EQ(kept.at("title"), preset("gqa").at("title"));
  EXPECT_EQ(kept.at("num_heads"), 8);
}

// A valid scenario with a 20,000-character unknown key aborted the window at start (Dear
// ImGui: "Too many vertices in ImDrawList using 16-bit indices" drawing the warning). Long
// texts anywhere the window draws them: the title, one 20,000-character word as the only
// token (chips, axis labels, the step view's sentences).
TEST_F(Window, LongTextsAreDrawnWithoutAborting) {
  const std::string key(20000, 'k');
  const std::string unknown_key =
      write_json("key.json", {{"format", "attnviz-scenario/1"}, {"sentence", "a b c"}, {key, 1}});
  CommandOutput out = run_window("--scenario '" + unknown_key + "' --frames 3 --validation");
  EXPECT_EQ(out.exit_code, 0) << out.err.substr(0, 2000);
  const std::string word(20000, 'w');
  const std::string long_texts = write_json("long.json", {{"format", "attnviz-scenario/1"},
                                                          {"title", std::string(20000, 't')},
                                                          {"sentence", word + " " + word},
                                                          {"d_model", 4}});
  for (const char* view : {"", "--view step --step 7", "--view compare", "--layout compare-ready"}) {
    out = run_window("--scenario '" + long_texts + "' --frames 3 --validation " + view);
    EXPECT_EQ(out.exit_code, 0) << view << ": " << out.err.substr(0, 2000);
  }
}

// A 131 KB autosave of 65,600 nested lists crashed the window at every start, before it could
// be moved aside: now it is refused, kept aside, and the window starts.
TEST_F(Window, ADeeplyNestedAutosaveIsKeptAsideAndTheWindowStarts) {
  fs::create_directories(autosave_file().parent_path());
  std::ofstream(autosave_file()) << "{\"format\": " << std::string(65600, '[') << std::string(65600, ']') << "}";
  const CommandOutput out = run_window("--frames 3");
  ASSERT_EQ(out.exit_code, 0) << out.err.substr(0, 2000);
  bool kept = false;
  for (const auto& entry : fs::directory_iterator(autosave_file().parent_path())) {
    kept = kept || entry.path().filename().string().rfind("autosave.json.broken-", 0) == 0;
  }
  EXPECT_TRUE(kept);
}

}  // namespace
}  // namespace attnviz
