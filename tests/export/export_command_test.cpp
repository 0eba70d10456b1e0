// `attnviz export` run as a user runs it: every format, the same numbers as `attnviz compute`,
// deterministic bytes, and exit code 2 with a message for every bad option.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "core/attention/result_json.h"
#include "tests/cli/run_attnviz.h"
#include "tests/export/decode_png.h"
#include "tests/export/export_fixtures.h"

namespace attnviz {
namespace {

using testing::run_attnviz;

class ExportCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // Runs attnviz export with `arguments` and expects success.
  void export_ok(const std::string& arguments) const {
    const auto run = run_attnviz("export " + arguments);
    ASSERT_EQ(run.exit_code, 0) << arguments << "\n" << run.err;
  }

  std::filesystem::path dir_;
};

std::vector<float> npy_values(const std::string& bytes, std::string* header = nullptr) {
  const std::size_t length =
      static_cast<unsigned char>(bytes[8]) | (static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8);
  if (header != nullptr) *header = bytes.substr(10, length);
  std::vector<float> values((bytes.size() - 10 - length) / 4);
  std::memcpy(values.data(), bytes.data() + 10 + length, values.size() * 4);
  return values;
}

TEST_F(ExportCommand, TheIssuesCommandWritesAPngATeacherCanUse) {
  const auto run =
      run_attnviz("export --scenario preset:korean-restaurant --what weights --format png --out " + path("w.png"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, path("w.png") + "\n");
  const std::string png = testing::read_file(path("w.png"));
  const testing::DecodedImage image = testing::decode_png(png);
  EXPECT_GT(image.width, 1000);  // 8 tokens at 300 dpi: a print-sharp size
  EXPECT_GT(image.height, 800);
  EXPECT_EQ(testing::phys_pixels_per_metre(png), 11811);  // 300 dpi
}

// The done-when image: the scenario's long title wraps, so the plot sets the width and no
// strip of blank space is left on the right.
TEST_F(ExportCommand, TheKoreanPngHasNoBlankStripOnTheRight) {
  export_ok("--scenario preset:korean-restaurant --what weights --format png --out " + path("w.png"));
  const testing::DecodedImage image = testing::decode_png(testing::read_file(path("w.png")));
  int rightmost = 0;
  for (int y = 0; y < image.height; ++y) {
    for (int x = image.width - 1; x > rightmost; --x) {
      const auto p = image.at(x, y);
      if (p[0] + p[1] + p[2] < 3 * 250) {
        rightmost = x;
        break;
      }
    }
  }
  const int margin = 14 * 300 / 72;  // 14 pt at 300 dpi
  EXPECT_LE(image.width - 1 - rightmost, margin + 4) << "blank columns on the right: " << image.width - 1 - rightmost;
}

TEST_F(ExportCommand, NpyHoldsTheSameWeightsAsCompute) {
  const auto compute = run_attnviz("compute --scenario preset:gqa --out " + path("r.json"));
  ASSERT_EQ(compute.exit_code, 0) << compute.err;
  const Result result = parse_result(testing::read_file(path("r.json")), "r.json");
  export_ok("--scenario preset:gqa --what weights --format npy --out " + path("w.npy"));
  std::string header;
  const std::vector<float> values = npy_values(testing::read_file(path("w.npy")), &header);
  const auto heads = result.heads.size();
  const auto n = static_cast<std::size_t>(result.heads.front().weights.rows);
  EXPECT_NE(
      header.find("'shape': (" + std::to_string(heads) + ", " + std::to_string(n) + ", " + std::to_string(n) + ")"),
      std::string::npos)
      << header;
  ASSERT_EQ(values.size(), heads * n * n);
  for (std::size_t h = 0; h < heads; ++h) {
    const Matrix& weights = result.heads[h].weights;
    for (std::size_t i = 0; i < n * n; ++i)
      ASSERT_EQ(values[h * n * n + i], weights.data[i]) << "head " << h << " entry " << i;
  }

  const std::string python = testing::python_with_numpy();
  if (python.empty()) GTEST_SKIP() << "no python3 with numpy to load the NPY with";
  const auto [status, output] =
      testing::run_shell(python + " -c \"import json, numpy as np; a = np.load('" + path("w.npy") +
                             "'); r = json.load(open('" + path("r.json") +
                             "')); b = np.array([h['weights'] for h in r['heads']], dtype=np.float32); "
                             "print(a.dtype, a.shape == b.shape, bool((a == b).all()))\"",
                         dir_);
  EXPECT_EQ(status, 0) << output;
  EXPECT_EQ(output, "float32 True True\n");
}

TEST_F(ExportCommand, EveryFormatAndEveryQuantity) {
  for (const char* format : {"png", "svg", "csv", "npy", "json"}) {
    const std::string out = path(std::string("all-") + format);
    export_ok("--scenario preset:causal-gpt --what all --heads 0,1 --format " + std::string(format) + " --out " + out);
    for (const char* what : {"scores", "scaled", "weights", "context"}) {
      const bool per_head_file = std::string(format) != "json";
      const std::string name =
          per_head_file ? std::string(what) + "_head1." + format : std::string(what) + "." + format;
      EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(out) / name)) << name;
    }
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(out) / (std::string("mask.") + format))) << format;
  }
  EXPECT_NO_THROW(testing::decode_png(testing::read_file(path("all-png/weights_head0.png"))));
  const auto [status, output] = testing::run_shell(
      "python3 -c \"import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); "
      "print(len(d.getElementsByTagName('text')) > 0, len(d.getElementsByTagName('rect')) > 0)\" " +
          path("all-svg/scores_head0.svg"),
      dir_);
  EXPECT_EQ(status, 0) << output;
  EXPECT_EQ(output, "True True\n");
}

TEST_F(ExportCommand, GridOfAllHeadsIsOneImage) {
  export_ok("--scenario preset:gqa --what weights --grid --out " + path("grid.png"));
  EXPECT_NO_THROW(testing::decode_png(testing::read_file(path("grid.png"))));
  export_ok("--scenario preset:gqa --what weights,scores --grid --format svg --out " + path("grids"));
  EXPECT_TRUE(std::filesystem::exists(path("grids/weights_grid.svg")));
  EXPECT_TRUE(std::filesystem::exists(path("grids/scores_grid.svg")));
}

TEST_F(ExportCommand, SameScenarioSameBytes) {
  for (const char* format : {"png", "svg", "csv", "npy", "json"}) {
    const std::string options =
        "--scenario preset:korean-restaurant --what all --format " + std::string(format) + " --out ";
    export_ok(options + path(std::string("a-") + format));
    export_ok(options + path(std::string("b-") + format));
    for (const auto& entry : std::filesystem::directory_iterator(path(std::string("a-") + format))) {
      const auto twin = std::filesystem::path(path(std::string("b-") + format)) / entry.path().filename();
      EXPECT_EQ(testing::read_file(entry.path()), testing::read_file(twin)) << entry.path();
    }
  }
}

TEST_F(ExportCommand, ZoomWindowAndOptionsShapeTheOutput) {
  export_ok("--scenario preset:korean-restaurant --what weights --rows 2:5 --cols 0:3 --format csv --out " +
            path("w.csv"));
  const std::string csv = testing::read_file(path("w.csv"));
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);  // header + rows 2, 3, 4
  export_ok("--scenario preset:gqa --what all --rows 2:9 --grid --format svg --out " + path("rows"));  // context too
  export_ok(
      "--scenario preset:korean-restaurant --colormap magma --range 0,1 --cell 40 --dpi 96 --values off "
      "--title 'Korean example' --out " +
      path("w.png"));
  const std::string png = testing::read_file(path("w.png"));
  EXPECT_EQ(testing::phys_pixels_per_metre(png), 3780);  // 96 dpi
  EXPECT_NO_THROW(testing::decode_png(png));
}

TEST_F(ExportCommand, OutputIsTheSameForAnyThreadCount) {
  for (const char* threads : {"1", "3"}) {
    const auto run = run_attnviz(
        "export --scenario preset:gqa --what weights,mask --format json --out " + path(std::string("t") + threads),
        std::string("OMP_NUM_THREADS=") + threads);
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  EXPECT_EQ(testing::read_file(path("t1/weights.json")), testing::read_file(path("t3/weights.json")));
  EXPECT_EQ(testing::read_file(path("t1/weights.json")).find("thread"), std::string::npos);
}

TEST_F(ExportCommand, ATrailingSlashIsADirectoryEvenForOneFile) {
  const auto run =
      run_attnviz("export --scenario preset:korean-restaurant --what weights --out " + path("newdir") + "/");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NO_THROW(testing::decode_png(testing::read_file(path("newdir/weights_head0.png"))));
}

TEST_F(ExportCommand, FormatAndExtensionMustAgree) {
  const auto run = run_attnviz("export --scenario preset:korean-restaurant --format png --out " + path("a.svg"));
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("a.svg"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("--format"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(path("a.svg")));
  export_ok("--scenario preset:korean-restaurant --out " + path("b.svg"));  // no --format: the extension's
  EXPECT_EQ(testing::read_file(path("b.svg")).rfind("<?xml", 0), 0u);
}

TEST_F(ExportCommand, AllCombinesWithOtherNames) {
  const auto twice =
      run_attnviz("export --scenario preset:korean-restaurant --what all,weights --format csv --out " + path("x"));
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("weights twice"), std::string::npos) << twice.err;
  // all,diff parses: it runs (0) where Vulkan works, else stops for the backend (3), never exit 2.
  const auto with_diff =
      run_attnviz("export --scenario preset:korean-restaurant --what all,diff --format csv --out " + path("d"));
  EXPECT_NE(with_diff.exit_code, 2) << with_diff.err;
  EXPECT_EQ(with_diff.err.find("is not one of"), std::string::npos) << with_diff.err;
}

TEST_F(ExportCommand, WarningsForWhatCannotBeDoneAsAsked) {
  // A font that is not there: the export goes on with the next font, and says so.
  const auto font = run_attnviz("export --scenario preset:korean-restaurant --out " + path("f.png"),
                                "ATTNVIZ_HANGUL_FONT=/nonexistent.ttf");
  ASSERT_EQ(font.exit_code, 0) << font.err;
  EXPECT_NE(font.err.find("warning: ATTNVIZ_HANGUL_FONT=/nonexistent.ttf"), std::string::npos) << font.err;
  // Values that cannot fit 6-pixel cells: left out, and said once.
  const auto values =
      run_attnviz("export --scenario preset:korean-restaurant --cell 6 --dpi 72 --values on --out " + path("v.png"));
  EXPECT_EQ(values.exit_code, 0) << values.err;
  EXPECT_NE(values.err.find("warning: --values on"), std::string::npos) << values.err;
}

TEST_F(ExportCommand, LogScaleOptions) {
  export_ok("--scenario preset:korean-restaurant --scale log --out " + path("log.png"));
  const auto scores =
      run_attnviz("export --scenario preset:korean-restaurant --what scores --scale log --out " + path("s.png"));
  EXPECT_EQ(scores.exit_code, 2);
  EXPECT_NE(scores.err.find("--scale"), std::string::npos) << scores.err;
  const auto range =
      run_attnviz("export --scenario preset:korean-restaurant --scale log --range 0,1 --out " + path("r.png"));
  EXPECT_EQ(range.exit_code, 2);
  EXPECT_NE(range.err.find("--range"), std::string::npos) << range.err;
  const auto bad = run_attnviz("export --scenario preset:korean-restaurant --scale cubic --out " + path("c.png"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("cubic"), std::string::npos) << bad.err;
}

TEST_F(ExportCommand, SeveralFilesNeedADirectory) {
  std::ofstream(path("taken")) << "x";
  const auto run = run_attnviz("export --scenario preset:gqa --what weights --format csv --out " + path("taken"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--out"), std::string::npos) << run.err;
  EXPECT_EQ(testing::read_file(path("taken")), "x");
}

TEST_F(ExportCommand, BadOptionsExitTwoNamingOptionAndValue) {
  const std::string base = "export --scenario preset:korean-restaurant --out " + path("x.png") + " ";
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"--what colour", {"--what", "colour"}},
      {"--heads 7", {"--heads", "7"}},
      {"--heads one", {"--heads", "one"}},
      {"--format gif", {"--format", "gif"}},
      {"--colormap jet", {"--colormap", "jet"}},
      {"--range 1,0", {"--range", "1,0"}},
      {"--range low", {"--range", "low"}},
      {"--cell 0", {"--cell", "0"}},
      {"--cell 4", {"--cell", "4"}},
      {"--what all,colour", {"--what", "colour"}},
      {"--dpi lots", {"--dpi", "lots"}},
      {"--values maybe", {"--values", "maybe"}},
      {"--grid --format csv", {"--grid", "csv"}},
      {"--rows 5:2", {"--rows", "5:2"}},
      {"--cols 0:99", {"--cols", "0:99"}},
      {"--backend gpu", {"--backend", "gpu"}},
      {"--lang fr", {"--lang", "fr"}},
      {"--frobnicate 1", {"--frobnicate"}},
  };
  for (const auto& [options, words] : cases) {
    const auto run = run_attnviz(base + options);
    EXPECT_EQ(run.exit_code, 2) << options << "\n" << run.err;
    for (const std::string& word : words)
      EXPECT_NE(run.err.find(word), std::string::npos) << options << ": " << run.err;
  }
  EXPECT_FALSE(std::filesystem::exists(path("x.png")));
  const auto no_out = run_attnviz("export --scenario preset:korean-restaurant");
  EXPECT_EQ(no_out.exit_code, 2);
  EXPECT_NE(no_out.err.find("--out"), std::string::npos);
  const auto no_scenario = run_attnviz("export --out " + path("x.png"));
  EXPECT_EQ(no_scenario.exit_code, 2);
  EXPECT_NE(no_scenario.err.find("--scenario"), std::string::npos);
  const auto help = run_attnviz("export --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--grid"), std::string::npos);
}

// Issue 49: `--lang ko` words the figure in Korean (the window's catalogue), English by default;
// tokens and numbers are the same in both.
TEST_F(ExportCommand, LangKoWordsTheFigureInKorean) {
  const std::string base = "--scenario preset:korean-restaurant --what weights --format svg --out ";
  export_ok(base + path("en.svg"));
  export_ok(base + path("ko.svg") + " --lang ko");
  const std::string english = testing::read_file(path("en.svg"));
  const std::string korean = testing::read_file(path("ko.svg"));
  EXPECT_NE(english.find("attention weights (softmax of each row)"), std::string::npos);
  EXPECT_NE(english.find("query tokens"), std::string::npos);
  EXPECT_NE(korean.find("어텐션 가중치 (각 행의 소프트맥스)"), std::string::npos);
  EXPECT_NE(korean.find("쿼리 토큰"), std::string::npos);
  EXPECT_EQ(korean.find("query tokens"), std::string::npos);
  EXPECT_EQ(korean.find("attention weight"), std::string::npos);
  EXPECT_NE(korean.find(">치킨을<"), std::string::npos) << "the tokens stay as they are";
  const auto help = run_attnviz("--help");
  EXPECT_NE(help.out.find("--lang ko"), std::string::npos) << "attnviz --help says how to get Korean figures";
}

TEST_F(ExportCommand, DiffWithoutVulkanIsBackendUnavailable) {
  const auto run = run_attnviz("export --scenario preset:korean-restaurant --what diff --out " + path("d.png"),
                               "VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json");
  EXPECT_EQ(run.exit_code, 3) << run.err;
  EXPECT_FALSE(std::filesystem::exists(path("d.png")));
}

TEST_F(ExportCommand, DiffRunsBothBackendsWhereVulkanIsAvailable) {
  const auto run =
      run_attnviz("export --scenario preset:korean-restaurant --what diff,weights --format npy --out " + path("d"));
  if (run.exit_code == 3) GTEST_SKIP() << "no Vulkan here: " << run.err;
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<float> diff = npy_values(testing::read_file(path("d/diff.npy")));
  ASSERT_FALSE(diff.empty());
  for (const float value : diff) EXPECT_LE(std::abs(value), 1e-5f);
}

TEST_F(ExportCommand, AnOutThatCannotBeWrittenIsBadInput) {
  for (const std::string& out : {path("no/such/folder/w.png"), std::string("/proc/x/w.png"), std::string("/proc/x/")}) {
    const auto run = run_attnviz("export --scenario preset:life-is-short --out '" + out + "'");
    EXPECT_EQ(run.exit_code, 2) << out << ": " << run.err;
    EXPECT_NE(run.err.find("--out"), std::string::npos) << run.err;
  }
}

TEST_F(ExportCommand, ALongTitleNamesTheTitle) {
  const auto run = run_attnviz("export --scenario preset:life-is-short --title " + std::string(120000, 't') +
                               " --out " + path("w.png"));
  EXPECT_EQ(run.exit_code, 2) << run.err.substr(0, 300);
  EXPECT_NE(run.err.find("--title: is 120000 characters long"), std::string::npos) << run.err.substr(0, 300);
  EXPECT_EQ(run.err.find("--dpi"), std::string::npos);
}

}  // namespace
}  // namespace attnviz

namespace attnviz {
namespace {

// With ALiBi the exported scaled scores are what the softmax sees: scale · raw − m_h·|i − j|
// (docs/design.md "Positions"); the figure's subtitle names the positions.
TEST(ExportPositions, ScaledScoresIncludeAlibisBias) {
  const std::filesystem::path dir = testing::scratch_dir("ExportPositionsScaled");
  const auto compute = run_attnviz("compute --scenario preset:alibi");
  ASSERT_EQ(compute.exit_code, 0) << compute.err;
  const Result result = parse_result(compute.out, "compute");
  const auto run =
      run_attnviz("export --scenario preset:alibi --what scaled --heads 0,7 --format npy --out " + dir.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const float scale = 0.5f;  // 1/√4
  for (const auto& [head, slope] : {std::pair{0, 0.5f}, std::pair{7, 1.0f / 256.0f}}) {
    const std::vector<float> values =
        npy_values(testing::read_file((dir / ("scaled_head" + std::to_string(head) + ".npy")).string()));
    const Matrix& raw = result.heads[static_cast<std::size_t>(head)].scores;
    ASSERT_EQ(values.size(), raw.size());
    for (int i = 0; i < raw.rows; ++i)
      for (int j = 0; j <= i; ++j)  // causal: the hidden ones are −∞
        EXPECT_NEAR(values[raw.index(i, j)], scale * raw.at(i, j) - slope * static_cast<float>(i - j), 1e-5)
            << head << ": " << i << ", " << j;
  }
  const auto svg = run_attnviz("export --scenario preset:alibi --what scaled --heads 0 --format svg --out " +
                               (dir / "s.svg").string());
  ASSERT_EQ(svg.exit_code, 0) << svg.err;
  EXPECT_NE(testing::read_file((dir / "s.svg").string()).find("ALiBi"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace attnviz
