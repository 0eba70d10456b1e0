#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/attention/result_json.h"
#include "core/common/error.h"
#include "core/common/json_text.h"

namespace attnviz {
namespace {

Result sample_result() {
  Result r;
  r.backend = "cpu";
  r.device = "Eigen 3.4.0 (2 threads)";
  r.tokens = {"배", "가", "Life,"};
  r.source_tokens = r.tokens;
  r.mask = MaskMatrix{3, 3, {1, 0, 0, 1, 1, 0, 1, 1, 1}};
  r.heads.push_back(HeadResult{Matrix(3, 3, 0.1f), Matrix(3, 3, 1.0f / 3.0f), Matrix(3, 2, -0.0f), {}, {}});
  r.heads[0].scores.at(2, 1) = 1e-7f;
  r.heads[0].scores.at(0, 2) = 3.4e38f;
  r.output = Matrix(3, 2, 0.3374f);
  r.timing.total_ms = 1.5;
  r.timing.stages_ms = {{"scores", 0.5}};
  return r;
}

TEST(ResultJson, FollowsTheDesignLayout) {
  const nlohmann::json json = nlohmann::json::parse(result_to_json(sample_result()));
  EXPECT_EQ(json["format"], "attnviz-result/1");
  EXPECT_EQ(json["backend"], "cpu");
  EXPECT_EQ(json["tokens"][0], "배");
  EXPECT_EQ(json["mask"], nlohmann::json::parse("[[1,0,0],[1,1,0],[1,1,1]]"));
  EXPECT_EQ(json["masked_rows"], nlohmann::json::array());
  EXPECT_EQ(json["heads"].size(), 1u);
  EXPECT_EQ(json["heads"][0]["context"].size(), 3u);
  EXPECT_EQ(json["heads"][0]["context"][0].size(), 2u);
  EXPECT_EQ(json["timing_ms"]["total"], 1.5);
}

TEST(ResultJson, WritesShortFloatsThatReadBackExactly) {
  const Result original = sample_result();
  const std::string text = result_to_json(original);
  EXPECT_NE(text.find("0.3374"), std::string::npos);
  EXPECT_EQ(text.find("0.33739998"), std::string::npos);
  const Result back = parse_result(text, "mem");
  ASSERT_EQ(back.heads.size(), 1u);
  EXPECT_EQ(std::memcmp(back.heads[0].scores.data.data(), original.heads[0].scores.data.data(),
                        original.heads[0].scores.size() * 4),
            0);
  EXPECT_EQ(std::memcmp(back.heads[0].context.data.data(), original.heads[0].context.data.data(),
                        original.heads[0].context.size() * 4),
            0);
  EXPECT_EQ(back.mask, original.mask);
  EXPECT_EQ(back.output, original.output);
  EXPECT_EQ(back.tokens, original.tokens);
}

TEST(ResultJson, MalformedInputNamesThePointer) {
  try {
    parse_result(
        R"({"format":"attnviz-result/1","backend":"cpu","tokens":[],"mask":[],"heads":[{"scores":[[1]],"weights":[[1,2]]}],"output":[]})",
        "r.json");
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.pointer(), "/heads/0/context");
    EXPECT_EQ(error.origin(), "r.json");
  }
  EXPECT_THROW(parse_result("not json", "r.json"), InputError);
}

TEST(ResultJson, MatricesReadAsOneRowPerLine) {
  const std::string text = result_to_json(sample_result());
  EXPECT_NE(text.find("\n    [1, 0, 0],\n"), std::string::npos) << text.substr(0, 400);
  EXPECT_NE(text.find("\"tokens\": [\"배\""), std::string::npos) << text.substr(0, 400);
}

// The text the result JSON had when it was built as a JSON tree (before it was streamed: the
// tree of one 4096-token head took 3 GB): the streamed text must be byte for byte the same.
std::string as_a_tree(const Result& result) {
  using Json = nlohmann::ordered_json;
  Json json;
  json["format"] = "attnviz-result/1";
  json["backend"] = result.backend;
  json["device"] = result.device;
  json["tokens"] = result.tokens;
  json["source_tokens"] = result.source_tokens;
  Json mask = Json::array();
  for (int r = 0; r < result.mask.rows; ++r) {
    Json row = Json::array();
    for (int c = 0; c < result.mask.cols; ++c) row.push_back(result.mask.at(r, c) ? 1 : 0);
    mask.push_back(std::move(row));
  }
  json["mask"] = std::move(mask);
  json["masked_rows"] = result.masked_rows;
  Json heads = Json::array();
  for (const HeadResult& head : result.heads) {
    heads.push_back(Json{{"scores", matrix_to_json(head.scores)},
                         {"weights", matrix_to_json(head.weights)},
                         {"context", matrix_to_json(head.context)}});
  }
  json["heads"] = std::move(heads);
  json["output"] = matrix_to_json(result.output);
  Json timing;
  timing["total"] = result.timing.total_ms;
  for (const auto& [stage, ms] : result.timing.stages_ms) timing[stage] = ms;
  json["timing_ms"] = std::move(timing);
  return readable_json(json);
}

Matrix random_values(std::mt19937& rng, int rows, int cols) {
  std::uniform_int_distribution<std::uint32_t> bits;
  Matrix m(rows, cols);
  for (float& v : m.data) {
    const std::uint32_t b = bits(rng);
    std::memcpy(&v, &b, sizeof v);  // every float: NaN, infinities, denormals, -0 among them
  }
  return m;
}

TEST(ResultJson, StreamedTextIsTheTextOfTheTree) {
  std::mt19937 rng(7);
  EXPECT_EQ(result_to_json(sample_result()), as_a_tree(sample_result()));
  for (int trial = 0; trial < 20; ++trial) {
    Result r;
    r.backend = trial % 2 ? "vulkan" : "cpu";
    r.device = "dev \"quoted\" \n";
    const int n = trial % 5;
    const int m = (trial * 3) % 4;
    for (int i = 0; i < n; ++i) r.tokens.push_back("t" + std::to_string(i) + "배");
    r.source_tokens = r.tokens;
    r.mask = MaskMatrix{n, m, std::vector<std::uint8_t>(static_cast<std::size_t>(n * m), 1)};
    if (n > 0 && m > 0) r.mask.visible[0] = 0;
    if (n > 1) r.masked_rows = {1};
    for (int h = 0; h < trial % 3; ++h) {
      r.heads.push_back(
          HeadResult{random_values(rng, n, m), random_values(rng, n, m), random_values(rng, n, 2), {}, {}});
    }
    r.output = random_values(rng, n, 3);
    r.timing.total_ms = trial == 3 ? std::numeric_limits<double>::infinity() : 0.1 * trial;
    r.timing.stages_ms = {{"scores", 1e-9}, {"softmax", 12345.678}};
    EXPECT_EQ(result_to_json(r), as_a_tree(r)) << "trial " << trial;
  }
}

TEST(ResultJson, IsWrittenInPiecesOfAboutAMebibyte) {
  Result r = sample_result();
  r.heads[0].scores = Matrix(600, 600, 0.123456f);
  std::size_t pieces = 0;
  std::size_t largest = 0;
  std::string whole;
  write_result_json(r, [&](std::string_view piece) {
    ++pieces;
    largest = std::max(largest, piece.size());
    whole.append(piece);
  });
  EXPECT_GT(pieces, 2u);
  EXPECT_LT(largest, (std::size_t{1} << 20) + 65536);
  EXPECT_EQ(whole, as_a_tree(r));
}

}  // namespace
}  // namespace attnviz
