// CSV (RFC 4180) and NPY (numpy format 1.0) writers, read back by an independent parser here
// and, when available, by numpy itself.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/export/numbers.h"
#include "tests/export/export_fixtures.h"

namespace attnviz::exporting {
namespace {

// RFC 4180 records: fields separated by commas, quoted fields may hold commas, quotes ("")
// and line breaks, records end with CRLF.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> records(1);
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      records.back().push_back(field);
      field.clear();
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      records.back().push_back(field);
      field.clear();
      records.emplace_back();
      ++i;
    } else {
      field += c;
    }
  }
  if (records.back().empty()) records.pop_back();
  return records;
}

TEST(Csv, HeaderOfKeysFirstColumnOfQueriesAndExactValues) {
  Matrix m(2, 3);
  m.data = {0.3374f, -0.1778f, 1e-7f, 0.1f, 123456.79f, -std::numeric_limits<float>::infinity()};
  const std::string csv = matrix_to_csv(m, {"어제", "밤에"}, {"a", "b", "c"});
  const auto records = parse_csv(csv);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0], (std::vector<std::string>{"query \\ key", "a", "b", "c"}));
  EXPECT_EQ(records[1][0], "어제");
  EXPECT_EQ(records[2][0], "밤에");
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 3; ++c) {
      const float read =
          std::strtof(records[static_cast<std::size_t>(r + 1)][static_cast<std::size_t>(c + 1)].c_str(), nullptr);
      EXPECT_EQ(std::memcmp(&read, &m.data[m.index(r, c)], sizeof read), 0) << r << "," << c;
    }
  }
  EXPECT_EQ(records[2][3], "-inf");
  EXPECT_NE(csv.find("\r\n"), std::string::npos);
  EXPECT_EQ(csv.substr(csv.size() - 2), "\r\n");
}

TEST(Csv, QuotesLabelsAsRfc4180Says) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  const std::vector<std::string> labels = {",", "\"", "x\r\ny"};
  const auto records = parse_csv(matrix_to_csv(Matrix(3, 3, 1.0f), labels, labels));
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[0], (std::vector<std::string>{"query \\ key", ",", "\"", "x\r\ny"}));
  for (std::size_t r = 0; r < 3; ++r) EXPECT_EQ(records[r + 1][0], labels[r]);
}

TEST(Csv, NeedsOneLabelPerRowAndColumn) {
  EXPECT_THROW(matrix_to_csv(Matrix(2, 2), {"a"}, {"a", "b"}), std::invalid_argument);
}

struct NpyHeader {
  int major = 0;
  int minor = 0;
  std::size_t data_offset = 0;
  std::string dict;
};

NpyHeader read_npy_header(const std::string& bytes) {
  NpyHeader header;
  EXPECT_EQ(bytes.substr(0, 6), std::string("\x93NUMPY", 6));
  header.major = static_cast<unsigned char>(bytes[6]);
  header.minor = static_cast<unsigned char>(bytes[7]);
  const std::size_t length =
      static_cast<unsigned char>(bytes[8]) | (static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8);
  header.dict = bytes.substr(10, length);
  header.data_offset = 10 + length;
  return header;
}

TEST(Npy, Version1HeaderAlignedAndLittleEndianFloat32) {
  const std::vector<float> values = {1.0f, -2.5f, 0.3374f, 1e-7f, 7.0f, -0.0f};
  const std::string bytes = npy_float32(values, {2, 3});
  const NpyHeader header = read_npy_header(bytes);
  EXPECT_EQ(header.major, 1);
  EXPECT_EQ(header.minor, 0);
  EXPECT_EQ(header.data_offset % 64, 0u);
  EXPECT_EQ(header.dict.back(), '\n');
  EXPECT_NE(header.dict.find("'descr': '<f4'"), std::string::npos) << header.dict;
  EXPECT_NE(header.dict.find("'fortran_order': False"), std::string::npos) << header.dict;
  EXPECT_NE(header.dict.find("'shape': (2, 3)"), std::string::npos) << header.dict;
  ASSERT_EQ(bytes.size(), header.data_offset + values.size() * 4);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + header.data_offset + 4 * i);
    const std::uint32_t bits = p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
    std::uint32_t expected = 0;
    std::memcpy(&expected, &values[i], 4);
    EXPECT_EQ(bits, expected) << i;
  }
}

TEST(Npy, ShapesAsPythonTuples) {
  EXPECT_NE(read_npy_header(npy_float32(std::vector<float>(24), {2, 3, 4})).dict.find("'shape': (2, 3, 4)"),
            std::string::npos);
  EXPECT_NE(read_npy_header(npy_float32(std::vector<float>(5), {5})).dict.find("'shape': (5,)"), std::string::npos);
  EXPECT_THROW(npy_float32(std::vector<float>(5), {2, 3}), std::invalid_argument);
}

TEST(Npy, NumpyLoadsTheValues) {
  const std::string python = testing::python_with_numpy();
  if (python.empty()) GTEST_SKIP() << "no python3 with numpy here";
  const auto dir = std::filesystem::temp_directory_path() / ("attnviz-npy-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::vector<float> values(24);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 0.25f - 3.0f;
  testing::write_file(dir / "a.npy", npy_float32(values, {2, 3, 4}));
  const auto [status, output] = testing::run_shell(
      python + " -c \"import numpy as np; a = np.load('" + (dir / "a.npy").string() +
          "'); print(a.dtype, a.shape, a.flags['C_CONTIGUOUS'], repr(float(a[1, 2, 3])), repr(float(a[0, 0, 1])))\"",
      dir);
  EXPECT_EQ(status, 0) << output;
  EXPECT_EQ(output, "float32 (2, 3, 4) True 2.75 -2.75\n");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace attnviz::exporting
