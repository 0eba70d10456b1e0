// attnviz-decode-trace/1 as docs/design.md "Traces" pins it.

#include <gtest/gtest.h>

#include "core/common/json_text.h"
#include "core/decode/decode_json.h"
#include "tests/attention/random_problem.h"

namespace attnviz::decode {
namespace {

DecodeTrace windowed_trace() {
  testing::TestRandom random(2);
  testing::ProblemShape shape;
  shape.n = 5;
  shape.heads = 2;
  shape.kv_heads = 1;
  shape.mask.causal = true;
  shape.mask.window = 1;
  shape.mask.global = {0};
  return decode_head(testing::random_problem(random, shape), 1, 2);
}

TEST(DecodeJson, PinnedFieldsInTheirOrder) {
  const nlohmann::ordered_json json = decode_trace_to_json(windowed_trace());
  EXPECT_EQ(json.at("format"), "attnviz-decode-trace/1");
  EXPECT_EQ(json.at("head"), 1);
  EXPECT_EQ(json.at("prompt"), 2);
  EXPECT_EQ(json.at("kv_head"), 0);
  EXPECT_EQ(json.at("heads_sharing_cache"), nlohmann::json::parse("[0, 1]"));
  EXPECT_EQ(json.at("cache_capacity"), 3);
  const auto& steps = json.at("steps");
  ASSERT_EQ(steps.size(), 5u);
  std::vector<std::string> keys;
  for (const auto& item : steps[3].items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"t", "token", "prefill", "q", "k", "v", "keys", "scores", "weights",
                                            "context", "cache_len", "cost", "slots", "evicted"}));
  EXPECT_EQ(steps[1].at("prefill"), true);
  EXPECT_EQ(steps[2].at("prefill"), false);
  EXPECT_EQ(steps[3].at("keys"), nlohmann::json::parse("[0, 2, 3]"));
  EXPECT_EQ(steps[3].at("cache_len"), 3);
  EXPECT_EQ(steps[3].at("evicted"), nlohmann::json::parse("[1]"));
  EXPECT_EQ(steps[3].at("q").size(), 3u);
  EXPECT_EQ(steps[3].at("v").size(), 2u);
  const auto& cost = steps[3].at("cost");
  for (const char* mode : {"with_cache", "without_cache"}) {
    for (const char* field : {"macs", "bytes", "macs_so_far", "bytes_so_far"}) {
      EXPECT_TRUE(cost.at(mode).at(field).is_number_unsigned()) << mode << " " << field;
    }
  }
}

TEST(DecodeJson, HiddenScoresAreNullAndNumbersReadBack) {
  testing::TestRandom random(4);
  testing::ProblemShape shape;
  shape.n = 6;
  shape.mask.causal = true;
  shape.mask.window = 0;
  shape.mask.global = {4};  // rows 0..3 held until the global query 4, hidden from rows 1..3
  const DecodeTrace trace = decode_head(testing::random_problem(random, shape), 0, 1);
  const nlohmann::json json = nlohmann::json::parse(readable_json(decode_trace_to_json(trace)));
  const auto& step = json.at("steps")[2];
  EXPECT_TRUE(step.at("scores")[0].is_null());
  EXPECT_EQ(step.at("weights")[0], 0.0);
  EXPECT_EQ(step.at("scores")[2].get<float>(), trace.steps[2].scores[2]);
  EXPECT_EQ(step.at("context")[1].get<float>(), trace.steps[2].context[1]);
}

}  // namespace
}  // namespace attnviz::decode
