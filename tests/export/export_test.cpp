// render_export and write_export: which files, what they hold, and the errors a caller can cause.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <thread>

#include "core/common/error.h"
#include "core/export/export.h"
#include "tests/export/decode_png.h"
#include "tests/export/export_fixtures.h"

namespace attnviz::exporting {
namespace {

std::vector<std::string> names(const std::vector<ExportedFile>& files) {
  std::vector<std::string> out;
  for (const ExportedFile& file : files) out.push_back(file.name);
  return out;
}

class Export : public ::testing::Test {
 protected:
  void SetUp() override {
    result_ = testing::synthetic_result(5, 3);
    source_ = {&result_, nullptr, nullptr, testing::caption_for(testing::hot_cell_problem(true))};
    dir_ = std::filesystem::temp_directory_path() /
           ("attnviz-export-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
            std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Runs the request and returns the InputError's pointer (the option it names), or "".
  std::string error_pointer(const ExportRequest& request) const {
    try {
      render_export(request, source_);
    } catch (const InputError& error) {
      EXPECT_EQ(error.origin(), request.origin);
      return error.pointer();
    }
    return "";
  }

  Result result_;
  ExportSource source_;
  std::filesystem::path dir_;
};

TEST_F(Export, FileNamesSayWhatEachHolds) {
  ExportRequest request;
  request.what = {Quantity::Weights, Quantity::Mask};
  request.format = ExportFormat::Csv;
  EXPECT_EQ(names(render_export(request, source_)),
            (std::vector<std::string>{"weights_head0.csv", "weights_head1.csv", "weights_head2.csv", "mask.csv"}));
  request.heads = std::vector<int>{2, 0};
  request.format = ExportFormat::Svg;
  EXPECT_EQ(names(render_export(request, source_)),
            (std::vector<std::string>{"weights_head2.svg", "weights_head0.svg", "mask.svg"}));
  request.grid = true;
  EXPECT_EQ(names(render_export(request, source_)), (std::vector<std::string>{"weights_grid.svg", "mask.svg"}));
  request.grid = false;
  request.format = ExportFormat::Json;
  EXPECT_EQ(names(render_export(request, source_)), (std::vector<std::string>{"weights.json", "mask.json"}));
}

TEST_F(Export, NpyIsOneHeadsByNByMArrayForAllHeadsElseOneFilePerHead) {
  ExportRequest request;
  request.format = ExportFormat::Npy;
  const auto all = render_export(request, source_);
  ASSERT_EQ(names(all), (std::vector<std::string>{"weights.npy"}));
  EXPECT_NE(all.front().bytes.find("'shape': (3, 5, 5)"), std::string::npos);
  // Head 1, row 3, column 2 in C order: ((1 · 5) + 3) · 5 + 2.
  const std::size_t offset = all.front().bytes.size() - 75 * 4 + ((1 * 5 + 3) * 5 + 2) * 4;
  float value = 0;
  std::memcpy(&value, all.front().bytes.data() + offset, 4);
  EXPECT_EQ(value, result_.heads[1].weights.at(3, 2));

  request.heads = std::vector<int>{1};
  const auto one = render_export(request, source_);
  ASSERT_EQ(names(one), (std::vector<std::string>{"weights_head1.npy"}));
  EXPECT_NE(one.front().bytes.find("'shape': (5, 5)"), std::string::npos);
}

// --heads all promises a heads axis, whatever the scenario's head count (a one-head scenario
// used to give N × M).
TEST_F(Export, NpyOfAllHeadsKeepsTheHeadsAxisForOneHead) {
  const Result one = testing::synthetic_result(5, 1);
  const ExportSource source{&one, nullptr, nullptr, source_.caption};
  ExportRequest request;
  request.format = ExportFormat::Npy;
  request.what = {Quantity::Weights, Quantity::Mask};
  const auto files = render_export(request, source);
  ASSERT_EQ(names(files), (std::vector<std::string>{"weights.npy", "mask.npy"}));
  EXPECT_NE(files[0].bytes.find("'shape': (1, 5, 5)"), std::string::npos);
  EXPECT_NE(files[1].bytes.find("'shape': (5, 5)"), std::string::npos);  // one mask for all heads
  request.heads = std::vector<int>{0};
  EXPECT_NE(render_export(request, source).front().bytes.find("'shape': (5, 5)"), std::string::npos);
}

// The same export on another machine gives the same bytes: Eigen's thread count (which follows
// OMP_NUM_THREADS) is not part of the JSON.
TEST_F(Export, JsonIsTheSameWhateverTheThreadCount) {
  ExportRequest request;
  request.format = ExportFormat::Json;
  request.heads = std::vector<int>{0};
  result_.device = "Eigen 3.4.0 (4 threads)";
  const std::string four = render_export(request, source_).front().bytes;
  result_.device = "Eigen 3.4.0 (1 thread)";
  const std::string one = render_export(request, source_).front().bytes;
  EXPECT_EQ(four, one);
  EXPECT_EQ(nlohmann::json::parse(one)["device"], "Eigen 3.4.0");
  result_.device = "NVIDIA H100 (PCIe)";  // a GPU's name is kept as it is
  EXPECT_EQ(nlohmann::json::parse(render_export(request, source_).front().bytes)["device"], "NVIDIA H100 (PCIe)");
}

TEST_F(Export, JsonHoldsTheRequestedMatricesExactly) {
  ExportRequest request;
  request.what = {Quantity::Weights, Quantity::Scaled};
  request.format = ExportFormat::Json;
  request.heads = std::vector<int>{0, 2};
  const auto files = render_export(request, source_);
  const auto weights = nlohmann::json::parse(files[0].bytes);
  EXPECT_EQ(weights["format"], "attnviz-export/1");
  EXPECT_EQ(weights["what"], "weights");
  EXPECT_EQ(weights["tokens"], result_.tokens);
  ASSERT_EQ(weights["heads"].size(), 2u);
  EXPECT_EQ(weights["heads"][1]["head"], 2);
  for (std::size_t r = 0; r < 5; ++r) {
    for (std::size_t c = 0; c < 5; ++c) {
      EXPECT_EQ(weights["heads"][1]["weights"][r][c].get<float>(),
                result_.heads[2].weights.at(static_cast<int>(r), static_cast<int>(c)));
    }
  }
  const auto scaled = nlohmann::json::parse(files[1].bytes);
  EXPECT_TRUE(scaled["heads"][0]["scaled"][0][4].is_null());  // masked: −∞, which JSON cannot hold
  const float scale = source_.caption.scale_factor;
  EXPECT_EQ(scaled["heads"][0]["scaled"][4][1].get<float>(), result_.heads[0].scores.at(4, 1) * scale);
}

TEST_F(Export, CsvRoundTripsTheValuesOfAWindow) {
  ExportRequest request;
  request.format = ExportFormat::Csv;
  request.what = {Quantity::Scores};
  request.heads = std::vector<int>{1};
  request.window = CellWindow{1, 4, 2, 5};
  const auto files = render_export(request, source_);
  ASSERT_EQ(files.size(), 1u);
  std::istringstream lines(files.front().bytes);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "query \\ key,t2,t3,t4\r");
  for (int r = 1; r < 4; ++r) {
    std::getline(lines, line);
    std::istringstream fields(line);
    std::string field;
    std::getline(fields, field, ',');
    EXPECT_EQ(field, "t" + std::to_string(r));
    for (int c = 2; c < 5; ++c) {
      std::getline(fields, field, ',');
      EXPECT_EQ(std::strtof(field.c_str(), nullptr), result_.heads[1].scores.at(r, c)) << r << "," << c;
    }
  }
  EXPECT_FALSE(std::getline(lines, line));
}

// A window open at one end reaches each matrix's own last row or column: 5 keys for the
// weights, 3 value dimensions for the context.
TEST_F(Export, AWindowEndingAtTheEndFitsEveryMatrix) {
  ExportRequest request;
  request.format = ExportFormat::Json;
  request.what = {Quantity::Weights, Quantity::Context};
  request.window = CellWindow{3, CellWindow::kToEnd, 1, CellWindow::kToEnd};
  const auto files = render_export(request, source_);
  const auto weights = nlohmann::json::parse(files[0].bytes);
  const auto context = nlohmann::json::parse(files[1].bytes);
  EXPECT_EQ(weights["window"]["cols"], nlohmann::json::array({1, 5}));
  EXPECT_EQ(context["window"]["cols"], nlohmann::json::array({1, 3}));
  EXPECT_EQ(weights["row_labels"], nlohmann::json::array({"t3", "t4"}));
  EXPECT_EQ(context["column_labels"], nlohmann::json::array({"v1", "v2"}));
  EXPECT_EQ(weights["heads"][0]["weights"].size(), 2u);
  EXPECT_EQ(weights["heads"][0]["weights"][0].size(), 4u);
}

TEST_F(Export, ScaledIsScaleTimesScoresWithMaskedPairsAtMinusInfinity) {
  ExportRequest request;
  request.format = ExportFormat::Csv;
  request.what = {Quantity::Scaled};
  request.heads = std::vector<int>{0};
  const std::string csv = render_export(request, source_).front().bytes;
  // Head 0's raw scores are (row − column) / 2; the scale is 1/√4 = 0.5; causal mask.
  EXPECT_NE(csv.find("\r\nt0,0,-inf,-inf,-inf,-inf\r\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\r\nt2,0.5,0.25,0,-inf,-inf\r\n"), std::string::npos) << csv;
}

TEST_F(Export, DiffIsVulkanMinusEigenWeights) {
  Result vulkan = result_;
  vulkan.backend = "vulkan";
  vulkan.heads[1].weights.at(2, 1) += 0.25f;
  const float expected = vulkan.heads[1].weights.at(2, 1) - result_.heads[1].weights.at(2, 1);
  const ExportSource both{nullptr, &result_, &vulkan, source_.caption};
  ExportRequest request;
  request.what = {Quantity::Diff};
  request.format = ExportFormat::Npy;
  request.heads = std::vector<int>{1};
  const std::string npy = render_export(request, both).front().bytes;
  const std::size_t data = npy.size() - 25 * 4;
  float value = 0;
  std::memcpy(&value, npy.data() + data + (2 * 5 + 1) * 4, 4);
  EXPECT_EQ(value, expected);
  std::memcpy(&value, npy.data() + data, 4);
  EXPECT_EQ(value, 0.0f);
  request.format = ExportFormat::Png;
  EXPECT_NO_THROW(testing::decode_png(render_export(request, both).front().bytes));
  EXPECT_EQ(error_pointer(request), "--what");  // source_ has no Vulkan result
}

TEST_F(Export, MistakesNameTheOption) {
  ExportRequest request;
  request.origin = "<command line>";
  request.heads = std::vector<int>{3};
  EXPECT_EQ(error_pointer(request), "--heads");
  request.heads = std::vector<int>{0, 0};
  EXPECT_EQ(error_pointer(request), "--heads");
  request.heads.reset();
  request.what = {Quantity::Weights, Quantity::Weights};
  EXPECT_EQ(error_pointer(request), "--what");
  request.what = {};
  EXPECT_EQ(error_pointer(request), "--what");
  request.what = {Quantity::Weights};
  request.format = ExportFormat::Csv;
  request.grid = true;
  EXPECT_EQ(error_pointer(request), "--grid");
  request.grid = false;
  request.range = std::pair{1.0f, 0.0f};
  EXPECT_EQ(error_pointer(request), "--range");
  request.range.reset();
  request.window = CellWindow{2, 9, 0, 5};
  EXPECT_EQ(error_pointer(request), "--rows");
  request.window = CellWindow{0, 5, 3, 3};
  EXPECT_EQ(error_pointer(request), "--cols");
  request.window.reset();
  request.dpi = 5;
  EXPECT_EQ(error_pointer(request), "--dpi");
  request.dpi = 300;
  request.format = ExportFormat::Svg;
  request.cell_px = 1000;  // the largest cell size allowed
  EXPECT_EQ(error_pointer(request), "");
}

TEST_F(Export, TooLargeAnImageIsBadInputNotACrash) {
  const Result big = testing::synthetic_result(200, 1);
  const ExportSource source{&big, nullptr, nullptr, source_.caption};
  ExportRequest request;
  request.cell_px = 100;  // 20000 × 20000 pixels
  try {
    render_export(request, source);
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.pointer(), "--cell");
  }
}

TEST_F(Export, WritesOneFileToOutOrSeveralIntoADirectory) {
  const std::vector<ExportedFile> one = {{"weights_head0.csv", "a"}};
  EXPECT_EQ(write_export(one, dir_ / "w.csv", "<test>"), (std::vector<std::filesystem::path>{dir_ / "w.csv"}));
  EXPECT_EQ(testing::read_file(dir_ / "w.csv"), "a");
  EXPECT_EQ(write_export(one, dir_, "<test>"), (std::vector<std::filesystem::path>{dir_ / "weights_head0.csv"}));

  const std::vector<ExportedFile> two = {{"x.csv", "1"}, {"y.csv", "2"}};
  write_export(two, dir_ / "new" / "dir", "<test>");
  EXPECT_EQ(testing::read_file(dir_ / "new" / "dir" / "y.csv"), "2");
  try {
    write_export(two, dir_ / "w.csv", "<test>");
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.pointer(), "--out");
    EXPECT_NE(std::string(error.what()).find("give a directory"), std::string::npos);
  }
  try {
    write_export(two, dir_ / "several.png", "<test>");  // a file's name for a directory: a mistake
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.pointer(), "--out");
    EXPECT_NE(std::string(error.what()).find("--heads"), std::string::npos) << error.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "several.png"));
  // Nothing but the files asked for: no temporary names left behind.
  int entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::recursive_directory_iterator(dir_)) ++entries;
  EXPECT_EQ(entries, 6);  // w.csv, weights_head0.csv, new, new/dir, new/dir/x.csv, new/dir/y.csv
}

TEST_F(Export, ATrailingSlashNamesADirectory) {
  const std::vector<ExportedFile> one = {{"weights_head0.png", "x"}};
  const std::filesystem::path out = (dir_ / "newdir").string() + "/";
  const auto written = write_export(one, out, "<test>");
  ASSERT_EQ(written.size(), 1u);
  EXPECT_EQ(written.front(), dir_ / "newdir" / "weights_head0.png");
  EXPECT_EQ(testing::read_file(dir_ / "newdir" / "weights_head0.png"), "x");
}

TEST_F(Export, AFileNamedForAnotherFormatIsRefused) {
  const std::vector<ExportedFile> png = {{"weights_head0.png", "\x89PNG"}};
  try {
    write_export(png, dir_ / "a.svg", "<test>");
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.pointer(), "--out");
    EXPECT_NE(std::string(error.what()).find("a.png"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("--format"), std::string::npos) << error.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "a.svg"));
  EXPECT_NO_THROW(write_export(png, dir_ / "A.PNG", "<test>"));  // the extension's case does not matter
  EXPECT_NO_THROW(write_export(png, dir_ / "plain", "<test>"));  // no extension: as asked
}

// A set of files is written together or not at all: when one cannot be written, none is, and
// files already there keep their bytes.
TEST_F(Export, ASetOfFilesIsAllOrNothing) {
  testing::write_file(dir_ / "a.csv", "old a");
  const std::vector<ExportedFile> files = {{"a.csv", "new a"}, {std::string(300, 'b') + ".csv", "b"}, {"c.csv", "c"}};
  try {
    write_export(files, dir_, "<test>");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("nothing written"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("bbbb"), std::string::npos) << error.what();
  }
  EXPECT_EQ(testing::read_file(dir_ / "a.csv"), "old a");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "c.csv"));
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) left.push_back(entry.path().filename().string());
  EXPECT_EQ(left, (std::vector<std::string>{"a.csv"})) << "no temporary or backup file is left";

  // Something that is not a file where one is due: refused before anything is written.
  std::filesystem::create_directories(dir_ / "c.csv");
  const std::vector<ExportedFile> ok_then_dir = {{"a.csv", "new a"}, {"c.csv", "c"}};
  EXPECT_THROW(write_export(ok_then_dir, dir_, "<test>"), std::runtime_error);
  EXPECT_EQ(testing::read_file(dir_ / "a.csv"), "old a");
  std::filesystem::remove(dir_ / "c.csv");
  write_export(ok_then_dir, dir_, "<test>");
  EXPECT_EQ(testing::read_file(dir_ / "a.csv"), "new a");
  EXPECT_EQ(testing::read_file(dir_ / "c.csv"), "c");
}

TEST_F(Export, LogScaleNeedsWeightsAndAPositiveRange) {
  ExportRequest request;
  request.scale = ColourScale::Log;
  request.what = {Quantity::Scores};
  EXPECT_EQ(error_pointer(request), "--scale");
  request.what = {Quantity::Scores, Quantity::Weights};  // log for the weights, linear for the scores
  EXPECT_EQ(error_pointer(request), "");
  request.range = std::pair{0.0f, 1.0f};
  EXPECT_EQ(error_pointer(request), "--range");
  request.range = std::pair{0.001f, 1.0f};
  EXPECT_EQ(error_pointer(request), "");
}

TEST_F(Export, AnUnwritablePathIsAnErrorNamingIt) {
  const std::vector<ExportedFile> one = {{"w.png", "x"}};
  try {
    write_export(one, dir_ / "missing" / "w.png", "<test>");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("missing/w.png"), std::string::npos) << error.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "missing"));
}

// attnviz export renamed the old file aside and then the new one in: a reader found no file in
// between (37,823 times during 40 overwrites), and a kill in between left none at all. Now the
// new file is renamed over the old one: it is always there.
TEST_F(Export, AReplacedFileIsNeverMissing) {
  const std::filesystem::path out = dir_ / "w.csv";
  write_export({{"weights_head0.csv", "first"}}, out, "<test>");
  std::atomic<bool> done{false};
  std::atomic<long> missing{0};
  std::atomic<long> looks{0};
  std::thread reader([&] {
    while (!done) {
      struct stat info {};
      if (::stat(out.c_str(), &info) != 0) ++missing;
      ++looks;
    }
  });
  const std::string big(1 << 16, 'x');
  for (int i = 0; i < 40; ++i) {
    write_export({{"weights_head0.csv", big + std::to_string(i)}}, out, "<test>");
    const std::vector<ExportedFile> set = {{"a.csv", big}, {"w.csv", big + "set"}};
    write_export(set, dir_, "<test>");
  }
  done = true;
  reader.join();
  EXPECT_GT(looks.load(), 0);
  EXPECT_EQ(missing.load(), 0) << "the file was missing " << missing << " times in " << looks << " looks";
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) left.push_back(entry.path().filename().string());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"a.csv", "w.csv"})) << "no temporary or backup file is left";
}

TEST_F(Export, ALinkToADeviceIsWrittenThroughNotReplaced) {
  const std::filesystem::path link = dir_ / "w.csv";
  std::filesystem::create_symlink("/dev/null", link);
  write_export({{"weights_head0.csv", "to nowhere"}}, link, "<test>");
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
}

// A 120 KB --title was refused with a message about --dpi (the wrapped title made the image too
// large): --title names itself, and a scenario's long title is cut with a warning.
TEST_F(Export, ALongTitleIsRefusedOrCutNamingTheTitle) {
  ExportRequest request;
  request.heads = std::vector<int>{0};
  request.title = std::string(120000, 't');
  EXPECT_EQ(error_pointer(request), "--title");
  request.title.reset();
  ExportSource long_title = source_;
  long_title.caption.title = std::string(120000, 'T');
  const std::vector<ExportedFile> files = render_export(request, long_title);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_NE(
      std::find(files[0].warnings.begin(), files[0].warnings.end(), "the title is cut to its first 300 characters"),
      files[0].warnings.end());
}

}  // namespace
}  // namespace attnviz::exporting
