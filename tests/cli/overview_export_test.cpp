// attnviz export --overview and --text-file as a user runs them: a text past the materialised
// 4,096 tokens pooled into PNG and NPY, the advice the dense commands give for it, and every
// option the overview refuses, each naming the option (exit 2).

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli/run_attnviz.h"

namespace attnviz::testing {
namespace {

class OverviewExport : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_dir("overview-export");
    text_ = (dir_ / "long.txt").string();
    std::ofstream text(text_);
    const char* words[] = {"the", "cat", "sat", "on", "a", "mat", "and", "saw", "a", "dog"};
    for (int i = 0; i < 5000; ++i) text << words[(i * 7 + i / 3) % 10] << (i % 17 == 16 ? "\n" : " ");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
  std::string text_;
};

// The NPY header's shape and the float32 values after it.
std::pair<std::string, std::vector<float>> read_npy(const std::filesystem::path& path) {
  const std::string bytes = read_text(path);
  const std::size_t header_length =
      std::size_t{static_cast<unsigned char>(bytes[8])} | std::size_t{static_cast<unsigned char>(bytes[9])} << 8;
  const std::string header = bytes.substr(10, header_length);
  const std::size_t shape_at = header.find("'shape': (");
  const std::string shape = header.substr(shape_at + 10, header.find(')', shape_at) - shape_at - 10);
  std::vector<float> values((bytes.size() - 10 - header_length) / 4);
  std::memcpy(values.data(), bytes.data() + 10 + header_length, values.size() * 4);
  return {shape, values};
}

TEST_F(OverviewExport, ALongTextBecomesAPooledNpyAndPng) {
  const auto npy = dir_ / "w.npy";
  CommandOutput run = run_attnviz("export --text-file '" + text_ + "' --overview 40 --out '" + npy.string() + "'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto [shape, values] = read_npy(npy);
  EXPECT_EQ(shape, "1, 40, 40");  // 5000 tokens in blocks of 125: 40 × 40, the default scenario's one head
  ASSERT_EQ(values.size(), 1600u);
  for (const float v : values) {
    EXPECT_TRUE(std::isfinite(v));  // no mask: no hidden block
    EXPECT_GT(v, 0.0f);
    EXPECT_LE(v, 1.0f);
  }

  const auto png = dir_ / "w.png";
  run = run_attnviz("export --text-file '" + text_ +
                    "' --scenario preset:causal-gpt --overview 64 --pool mean --out '" + png.string() + "' --heads 0");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string bytes = read_text(png);
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
}

// The figure's title line, from an SVG export: its <title> is the title, " — " and the subtitle.
std::string svg_title(const std::filesystem::path& svg) {
  const std::string text = read_text(svg);
  const std::size_t at = text.find("<title>");
  if (at == std::string::npos) return "";
  const std::string whole = text.substr(at + 7, text.find("</title>") - at - 7);
  return whole.substr(0, whole.find(" \u2014 "));
}

TEST_F(OverviewExport, ALongTextIsTitledByItsFileNameOrItsOpening) {
  // The title came from the text itself, 5,000 words: whole, it wrapped onto hundreds of lines
  // above the map (a 10,000-word text's PNG was 1,066 x 97,950 pixels). The file's name titles
  // it, as File > Open text... does in the window.
  const auto png = dir_ / "t.png";
  const CommandOutput run =
      run_attnviz("export --text-file '" + text_ + "' --overview 64 --out '" + png.string() + "'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string bytes = read_text(png);
  ASSERT_EQ(bytes.substr(1, 3), "PNG");
  const auto be32 = [&](std::size_t at) {
    return std::uint32_t{static_cast<unsigned char>(bytes[at])} << 24 |
           std::uint32_t{static_cast<unsigned char>(bytes[at + 1])} << 16 |
           std::uint32_t{static_cast<unsigned char>(bytes[at + 2])} << 8 |
           std::uint32_t{static_cast<unsigned char>(bytes[at + 3])};
  };
  const std::uint32_t width = be32(16);
  const std::uint32_t height = be32(20);
  EXPECT_LT(height, 2 * width) << width << " x " << height;
  EXPECT_EQ(run.err, "");
  const auto svg = dir_ / "t.svg";
  ASSERT_EQ(run_attnviz("export --text-file '" + text_ + "' --overview 64 --out '" + svg.string() + "'").exit_code, 0);
  EXPECT_EQ(svg_title(svg), "long.txt");

  // With a scenario, the text still names the figure: the preset's title described its own
  // sentence ("the Korean worked example (8 tokens, ...)" over 5,000 words).
  const auto preset = dir_ / "p.svg";
  ASSERT_EQ(run_attnviz("export --scenario preset:korean-restaurant --text-file '" + text_ + "' --overview 64 --out '" +
                        preset.string() + "'")
                .exit_code,
            0);
  EXPECT_EQ(svg_title(preset), "long.txt");

  // A scenario of its own long sentence and no title: the text's first 100 characters at most,
  // on one line, cut after a whole word (the text's words are these).
  const auto scenario = dir_ / "untitled.json";
  {
    std::ofstream json(scenario);
    json << R"({"format": "attnviz-scenario/1", "sentence": ")";
    const char* words[] = {"the", "cat", "sat", "on", "a", "mat", "and", "saw", "a", "dog"};
    for (int i = 0; i < 5000; ++i) json << words[(i * 7 + i / 3) % 10] << (i + 1 < 5000 ? " " : "");
    json << R"("})";
  }
  const auto untitled = dir_ / "u.svg";
  ASSERT_EQ(run_attnviz("export --scenario '" + scenario.string() + "' --overview 64 --out '" + untitled.string() + "'")
                .exit_code,
            0);
  const std::string title = svg_title(untitled);
  EXPECT_TRUE(title.starts_with("the ")) << title;
  EXPECT_TRUE(title.ends_with("\u2026")) << title;
  EXPECT_EQ(title.find('\n'), std::string::npos) << title;
  EXPECT_LE(title.size(), 100u + std::string("\u2026").size()) << title;
  const std::string kept = title.substr(0, title.size() - std::string("\u2026").size());
  const std::string last_word = kept.substr(kept.rfind(' ') + 1);
  EXPECT_TRUE(last_word == "the" || last_word == "cat" || last_word == "sat" || last_word == "on" || last_word == "a" ||
              last_word == "mat" || last_word == "and" || last_word == "saw" || last_word == "dog")
      << title;
}

TEST_F(OverviewExport, HiddenBlocksAreNanInNpy) {
  const auto scenario = dir_ / "causal.json";
  std::ofstream(scenario) << R"({"format": "attnviz-scenario/1", "sentence": "x", "mask": {"causal": true}})";
  const auto npy = dir_ / "c.npy";
  const CommandOutput run = run_attnviz("export --scenario '" + scenario.string() + "' --text-file '" + text_ +
                                        "' --overview 10 --what scaled --out '" + npy.string() + "'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto [shape, values] = read_npy(npy);
  ASSERT_EQ(values.size(), 100u);
  EXPECT_TRUE(std::isnan(values[1]));    // row block 0, column block 1: above the diagonal
  EXPECT_FALSE(std::isnan(values[10]));  // row block 1, column block 0
}

TEST_F(OverviewExport, TheDenseCommandsPointPastTheirLimitToTheOverview) {
  const std::string commands[] = {"compute", "export --out '" + (dir_ / "x.png").string() + "'"};
  for (const std::string& command : commands) {
    const CommandOutput run = run_attnviz(command + " --text-file '" + text_ + "'");
    EXPECT_EQ(run.exit_code, 2) << command;
    EXPECT_NE(run.err.find("--text-file"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("5000 tokens"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("--overview"), std::string::npos) << run.err;
  }
}

TEST_F(OverviewExport, BadOptionsAreNamed) {
  const std::string base = "export --text-file '" + text_ + "' --out '" + (dir_ / "o.png").string() + "' ";
  const std::pair<std::string, std::string> cases[] = {
      {"--pool max", "--pool"},
      {"--overview 0", "--overview"},
      {"--overview 20 --what context", "--what"},
      {"--overview 20 --pool median", "--pool"},
      {"--overview 20 --format csv", "--format"},
      {"--overview 20 --rows 10:6000", "--rows"},
      {"--overview 20 --heads 3", "--heads"},
      {"--overview 20 --grid", "--grid"},
      {"--overview 20 --cell 3", "--cell"},
      {"--overview 20 --title " + std::string(301, 'x'), "--title"},
  };
  for (const auto& [options, named] : cases) {
    const CommandOutput run = run_attnviz(base + options);
    EXPECT_EQ(run.exit_code, 2) << options << ": " << run.err;
    EXPECT_NE(run.err.find(named), std::string::npos) << options << ": " << run.err;
  }
  const CommandOutput missing = run_attnviz("export --text-file /nonexistent/t.txt --overview 8 --out /tmp/x.png");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("/nonexistent/t.txt"), std::string::npos) << missing.err;
}

TEST_F(OverviewExport, AMaskWithMoreRunsThanItHoldsIsRefusedNamingTheScenarioFile) {
  // Every other key over 6,000 tokens: 18 million runs, past the 16,777,216 a mask holds. Only
  // the text's length reveals it, so the error came from the mask itself as "<mask>: ...".
  const auto text = dir_ / "six-thousand.txt";
  {
    std::ofstream out(text);
    for (int i = 0; i < 6000; ++i) out << "w ";
  }
  const auto scenario = dir_ / "checkered.json";
  std::ofstream(scenario)
      << R"({"format": "attnviz-scenario/1", "sentence": "x", "mask": {"expression": "(q + k) % 2 == 0"}})";
  const CommandOutput run = run_attnviz("export --scenario '" + scenario.string() + "' --text-file '" + text.string() +
                                        "' --overview 8 --out '" + (dir_ / "c.npy").string() + "'");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find(scenario.string() + ": /mask/expression: "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("16,777,216"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("<mask>"), std::string::npos) << run.err;
}

TEST_F(OverviewExport, AnOutThatCannotTakeTheFilesIsRefusedBeforeComputing) {
  // Two heads' PNGs into one .png name was refused only after the overview was computed (a
  // minute at 65,536 tokens). A mask refused while computing shows which check came first.
  const auto text = dir_ / "six-thousand.txt";
  {
    std::ofstream out(text);
    for (int i = 0; i < 6000; ++i) out << "w ";
  }
  const auto scenario = dir_ / "two-heads.json";
  std::ofstream(scenario) << R"({"format": "attnviz-scenario/1", "sentence": "x", "num_heads": 2, "num_kv_heads": 2,
                                 "mask": {"expression": "(q + k) % 2 == 0"}})";
  const std::string base =
      "export --scenario '" + scenario.string() + "' --text-file '" + text.string() + "' --overview 8 ";
  CommandOutput run = run_attnviz(base + "--out '" + (dir_ / "both.png").string() + "'");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--out: '" + (dir_ / "both.png").string() + "' names a file, but this export writes 2 files"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(run.err.find("/mask/expression"), std::string::npos) << run.err;
  // One NPY under a PNG's name, likewise.
  run = run_attnviz(base + "--format npy --out '" + (dir_ / "one.png").string() + "'");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("ends in .png but the export is npy"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "one.png"));
}

TEST_F(OverviewExport, MoreTokensThanTheOverviewTakesAreRefused) {
  const auto huge = dir_ / "huge.txt";
  {
    std::ofstream text(huge);
    for (int i = 0; i < 65537; ++i) text << "w ";
  }
  CommandOutput run =
      run_attnviz("export --text-file '" + huge.string() + "' --overview 8 --out '" + (dir_ / "h.npy").string() + "'");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find(huge.string() +
                         ": the text has more than 65536 tokens (the limit); token 65537 starts at byte offset 131072"),
            std::string::npos)
      << run.err;
  // The advice names the bytes that hold the first 65,536 tokens (65,536 "w " less the last
  // space); following it is tests/cli/overview_limit_test.cpp (labelled slow).
  const std::string advice = "head -c 131071 '" + huge.string() + "' > first-part.txt";
  EXPECT_NE(run.err.find("its first 65536 tokens are its first 131071 bytes (" + advice), std::string::npos) << run.err;
}

// compute once named the overview's 65,536 as the limit and advised a cut that compute refused
// again: the message names compute's own limit and a cut compute takes.
TEST_F(OverviewExport, ComputeNamesItsOwnLimitForATextPastTheOverviews) {
  const auto huge = dir_ / "huge.txt";
  {
    std::ofstream text(huge);
    for (int i = 0; i < 65537; ++i) text << "w ";
  }
  CommandOutput run = run_attnviz("compute --text-file '" + huge.string() + "'");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find(huge.string() +
                         ": --text-file: has more than 65536 tokens; this command holds every N × N matrix and "
                         "takes at most 4096 (head -c 8191 '" +
                         huge.string() + "' > first-part.txt keeps the first 4096)"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(run.err.find("first 65536"), std::string::npos) << run.err;

  const auto medium = dir_ / "medium.txt";
  {
    std::ofstream text(medium);
    for (int i = 0; i < 5000; ++i) text << "w ";
  }
  run = run_attnviz("compute --text-file '" + medium.string() + "'");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("has 5000 tokens; this command holds every N × N matrix and takes at most 4096 (head -c 8191"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("attnviz export --overview PIXELS maps all of them (up to 65536)"), std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace attnviz::testing
