#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>

#include "core/attention/result_json.h"
#include "core/common/error.h"

namespace attnviz {
namespace {

Result sample_result() {
  Result r;
  r.backend = "cpu";
  r.device = "Eigen 3.4.0 (2 threads)";
  r.tokens = {"배", "가", "Life,"};
  r.source_tokens = r.tokens;
  r.mask = MaskMatrix{3, 3, {1, 0, 0, 1, 1, 0, 1, 1, 1}};
  r.heads.push_back(HeadResult{Matrix(3, 3, 0.1f), Matrix(3, 3, 1.0f / 3.0f), Matrix(3, 2, -0.0f)});
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
  EXPECT_EQ(std::memcmp(back.heads[0].scores.data.data(), original.heads[0].scores.data.data(), original.heads[0].scores.size() * 4), 0);
  EXPECT_EQ(std::memcmp(back.heads[0].context.data.data(), original.heads[0].context.data.data(), original.heads[0].context.size() * 4), 0);
  EXPECT_EQ(back.mask, original.mask);
  EXPECT_EQ(back.output, original.output);
  EXPECT_EQ(back.tokens, original.tokens);
}

TEST(ResultJson, MalformedInputNamesThePointer) {
  try {
    parse_result(R"({"format":"attnviz-result/1","backend":"cpu","tokens":[],"mask":[],"heads":[{"scores":[[1]],"weights":[[1,2]]}],"output":[]})", "r.json");
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

}  // namespace
}  // namespace attnviz
