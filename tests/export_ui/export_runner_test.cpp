// Writing the window's exports: files land where "Save to" says, and every failure (a folder
// that cannot exist, a read-only file system, a bad choice) becomes an error notice with the
// reason, leaving no file, half-written or whole, behind.
#include "app/export_ui/export_runner.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <iterator>
#include <fstream>

#include "core/overview/overview.h"
#include "tests/attention/random_problem.h"
#include "tests/cli/run_attnviz.h"

namespace attnviz::export_ui {
namespace {

namespace fs = std::filesystem;

// Two tokens, one head: enough for CSV and NPY (no font needed).
struct Small {
  Problem problem;
  Result result;
  ui::ViewState view;
  exporting::ExportSource source;

  Small() {
    problem.x = Matrix(2, 1);
    problem.xs = Matrix(2, 1);
    problem.tokens = problem.source_tokens = {"a", "b"};
    result.tokens = result.source_tokens = problem.tokens;
    result.mask = MaskMatrix{2, 2, {1, 1, 1, 1}};
    result.heads.push_back(HeadResult{Matrix(2, 2, 1.0f), Matrix(2, 2, 0.5f), Matrix(2, 1, 0.0f), {}, {}});
    source.result = &result;
  }
  [[nodiscard]] ShownState shown() const {
    return ShownState{view, result, problem, false, view.selected_head, view.head_zoom};
  }
  [[nodiscard]] ExportPlan plan(ExportFormat format) const {
    ExportChoices choices = choices_for_heatmap(Quantity::Weights, shown());
    choices.format = format;
    return plan_export(choices, shown());
  }
};

class ExportRunner : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::scratch_dir("export-runner"); }
  void TearDown() override { fs::remove_all(dir_); }

  [[nodiscard]] std::vector<fs::path> files_in(const fs::path& dir) const {
    std::vector<fs::path> found;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) found.push_back(entry.path());
    return found;
  }

  fs::path dir_;
  ui::Notices notices_;
};

TEST_F(ExportRunner, AFolderWithoutExtensionIsCreatedAndTheFileNamedForWhatItHolds) {
  const Small s;
  const fs::path out = dir_ / "slides";
  const ExportOutcome outcome = run_export(s.plan(ExportFormat::Csv), s.source, out, notices_);
  ASSERT_TRUE(outcome.ok) << outcome.message;
  ASSERT_EQ(outcome.written, std::vector<fs::path>{out / "weights_head0.csv"});
  EXPECT_EQ(testing::read_text(out / "weights_head0.csv"), "query \\ key,a,b\r\na,0.5,0.5\r\nb,0.5,0.5\r\n");
  ASSERT_EQ(notices_.all().size(), 1u);
  EXPECT_EQ(notices_.all().front().level, ui::NoticeLevel::Info);
  EXPECT_NE(notices_.all().front().text.find("weights_head0.csv"), std::string::npos);
}

TEST_F(ExportRunner, AFileNameIsUsedAsGiven) {
  const Small s;
  const fs::path out = dir_ / "mine.npy";
  const ExportOutcome outcome = run_export(s.plan(ExportFormat::Npy), s.source, out, notices_);
  ASSERT_TRUE(outcome.ok) << outcome.message;
  EXPECT_EQ(outcome.written, std::vector<fs::path>{out});
  EXPECT_EQ(fs::file_size(out), 128u + 4u * 4u);  // NPY v1 header padded to 128 bytes, 4 float32
}

TEST_F(ExportRunner, AnUnwritableFolderIsAnErrorNoticeAndLeavesNothing) {
  const Small s;
  const fs::path blocker = dir_ / "a-file";
  std::ofstream(blocker) << "not a folder";
  const fs::path out = blocker / "inside" / "weights.csv";  // a folder cannot live in a file
  const ExportOutcome outcome = run_export(s.plan(ExportFormat::Csv), s.source, out, notices_);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.message.find(out.string()), std::string::npos) << outcome.message;
  ASSERT_EQ(notices_.all().size(), 1u);
  EXPECT_EQ(notices_.all().front().level, ui::NoticeLevel::Error);
  EXPECT_EQ(notices_.all().front().text, outcome.message);
  EXPECT_EQ(files_in(dir_), std::vector<fs::path>{blocker});  // no temporary, no folder
  EXPECT_EQ(testing::read_text(blocker), "not a folder");
}

TEST_F(ExportRunner, AFolderThatCannotBeCreatedIsAnErrorNotice) {
  const Small s;
  const fs::path blocker = dir_ / "a-file";
  std::ofstream(blocker) << "x";
  const ExportOutcome outcome = run_export(s.plan(ExportFormat::Csv), s.source, blocker / "folder", notices_);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.message.find("cannot create the folder"), std::string::npos) << outcome.message;
  EXPECT_EQ(files_in(dir_), std::vector<fs::path>{blocker});
}

TEST_F(ExportRunner, AReadOnlyFileSystemIsAnErrorNotice) {
  // /proc refuses new files even to root (chmod-based tests would not fail as root).
  const Small s;
  const fs::path out = "/proc/attnviz-export-test.csv";
  const ExportOutcome outcome = run_export(s.plan(ExportFormat::Csv), s.source, out, notices_);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.message.find(out.string()), std::string::npos) << outcome.message;
  EXPECT_FALSE(fs::exists(out));
  ASSERT_EQ(notices_.all().size(), 1u);
  EXPECT_EQ(notices_.all().front().level, ui::NoticeLevel::Error);
}

TEST_F(ExportRunner, ABadChoiceWritesNothingAndSaysWhich) {
  const Small s;
  ExportChoices choices = choices_for_heatmap(Quantity::Weights, s.shown());
  choices.format = ExportFormat::Csv;
  choices.heads = HeadsChoice::List;
  choices.head_list = "0,3";  // the scenario has one head
  const fs::path out = dir_ / "never";
  const ExportOutcome outcome = run_export(plan_export(choices, s.shown()), s.source, out, notices_);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.message.find("head 3"), std::string::npos) << outcome.message;
  EXPECT_FALSE(fs::exists(out));  // rendering fails before any folder or file is made
}

TEST_F(ExportRunner, AnEmptyPathIsRefused) {
  const Small s;
  const ExportOutcome outcome = run_export(s.plan(ExportFormat::Csv), s.source, "", notices_);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.message.find("save to"), std::string::npos) << outcome.message;
}

TEST_F(ExportRunner, SeveralFilesGoIntoTheFolderAndAreListed) {
  Small s;
  s.result.heads.push_back(s.result.heads.front());
  ExportChoices choices = choices_for_all(s.shown());
  choices.format = ExportFormat::Csv;
  choices.heads = HeadsChoice::All;
  const ExportOutcome outcome = run_export(plan_export(choices, s.shown()), s.source, dir_ / "all", notices_);
  ASSERT_TRUE(outcome.ok) << outcome.message;
  // scores, scaled, weights, context for two heads, and one mask.
  EXPECT_EQ(outcome.written.size(), 9u);
  EXPECT_TRUE(fs::exists(dir_ / "all" / "mask.csv"));
  EXPECT_TRUE(fs::exists(dir_ / "all" / "context_head1.csv"));
  EXPECT_NE(outcome.message.find("and 6 more"), std::string::npos) << outcome.message;
}

TEST(ExportNames, ListsAFewThenCounts) {
  EXPECT_EQ(list_names({"/a/x.png"}), "x.png");
  EXPECT_EQ(list_names({"/a/x.png", "/a/y.png"}), "x.png and y.png");
  EXPECT_EQ(list_names({"w", "x", "y", "z"}), "w, x, y and z");
  EXPECT_EQ(list_names({"v", "w", "x", "y", "z"}), "v, w, x and 2 more");
}

// What a file could not do as asked (here: numbers too small for 4-pixel cells at 10 dpi) is
// written, and said in a warning notice rather than silently dropped.
TEST_F(ExportRunner, WarningsOfTheFilesBecomeAWarningNotice) {
  const Small s;
  ExportChoices choices = choices_for_heatmap(Quantity::Weights, s.shown());
  choices.values = ValuesMode::On;
  choices.cell_px = 4;
  choices.dpi = 10;
  const ExportOutcome outcome = run_export(plan_export(choices, s.shown()), s.source, dir_ / "w.png", notices_);
  ASSERT_TRUE(outcome.ok) << outcome.message;
  EXPECT_TRUE(fs::exists(dir_ / "w.png"));
  EXPECT_NE(outcome.message.find("--values on"), std::string::npos) << outcome.message;
  ASSERT_EQ(notices_.all().size(), 1u);
  EXPECT_EQ(notices_.all().front().level, ui::NoticeLevel::Warning);
}

// The overview's Export button: the overview shown, its values as they are in the NPY (heads ×
// rows × cols float32 after the header), and a failure reported as the dialog's are.
TEST_F(ExportRunner, TheOverviewShownIsWrittenInTheFormatChosen) {
  attnviz::testing::TestRandom random(7);
  attnviz::testing::ProblemShape shape;
  shape.n = shape.m = 40;
  const Problem problem = attnviz::testing::random_problem(random, shape);
  overview::OverviewRequest request;
  request.max_pixel_rows = request.max_pixel_cols = 16;
  request.heads = {1};
  const overview::Overview shown = overview::make_cpu_overview()->run(problem, request);
  Scenario scenario;
  scenario.title = "forty tokens";

  const ExportOutcome npy = run_overview_export(shown, scenario, problem, ExportFormat::Npy, dir_ / "o.npy", notices_);
  ASSERT_TRUE(npy.ok) << npy.message;
  ASSERT_EQ(npy.written, std::vector<fs::path>{dir_ / "o.npy"});
  std::ifstream in(dir_ / "o.npy", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t header = 10 + static_cast<std::size_t>(static_cast<unsigned char>(bytes[8])) +
                             256 * static_cast<std::size_t>(static_cast<unsigned char>(bytes[9]));
  const std::size_t cells = static_cast<std::size_t>(shown.grid.rows) * static_cast<std::size_t>(shown.grid.cols);
  ASSERT_EQ(bytes.size(), header + 4 * cells);
  EXPECT_NE(
      bytes.find("'shape': (1, " + std::to_string(shown.grid.rows) + ", " + std::to_string(shown.grid.cols) + ")"),
      std::string::npos);
  std::vector<float> values(cells);
  std::memcpy(values.data(), bytes.data() + header, 4 * cells);
  EXPECT_EQ(values, shown.heads.front().values);

  const ExportOutcome png = run_overview_export(shown, scenario, problem, ExportFormat::Png, dir_, notices_);
  ASSERT_TRUE(png.ok) << png.message;
  ASSERT_EQ(png.written.size(), 1u);
  EXPECT_EQ(png.written.front().filename(), "overview_weights_max_head1.png");
  EXPECT_EQ(notices_.all().size(), 2u);

  const ExportOutcome failed =
      run_overview_export(shown, scenario, problem, ExportFormat::Png, dir_ / "missing" / "o.png", notices_);
  EXPECT_FALSE(failed.ok);
  EXPECT_NE(failed.message.find("Export failed: "), std::string::npos) << failed.message;
  EXPECT_NE(failed.message.find((dir_ / "missing").string()), std::string::npos) << failed.message;
  EXPECT_FALSE(fs::exists(dir_ / "missing"));
}

}  // namespace
}  // namespace attnviz::export_ui
