// `attnviz trace decode`, run as a user would (docs/design.md "Traces"): the JSON's shape, its
// rows against `attnviz compute` of the same causal scenario, and bad values.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

#include "tests/cli/run_attnviz.h"

namespace attnviz {
namespace {

using testing::run_attnviz;

nlohmann::json run_json(const std::string& arguments) {
  const auto result = run_attnviz(arguments);
  EXPECT_EQ(result.exit_code, 0) << arguments << "\n" << result.err;
  return nlohmann::json::parse(result.out);
}

TEST(TraceDecodeCommand, RowsEqualTheDenseCausalResult) {
  // preset:causal-gpt is causal, 4 heads: its compute result is the dense computation decoding
  // must reproduce.
  const nlohmann::json trace = run_json("trace decode --scenario preset:causal-gpt --prompt 3 --head 2");
  const nlohmann::json dense = run_json("compute --scenario preset:causal-gpt");
  EXPECT_EQ(trace.at("format"), "attnviz-decode-trace/1");
  EXPECT_EQ(trace.at("head"), 2);
  EXPECT_EQ(trace.at("prompt"), 3);
  const auto& head = dense.at("heads")[2];
  const auto& steps = trace.at("steps");
  ASSERT_EQ(steps.size(), dense.at("tokens").size());
  for (std::size_t t = 0; t < steps.size(); ++t) {
    const auto& step = steps[t];
    EXPECT_EQ(step.at("t"), t);
    EXPECT_EQ(step.at("token"), dense.at("tokens")[t]);
    EXPECT_EQ(step.at("prefill"), t < 3);
    EXPECT_EQ(step.at("cache_len"), t + 1);
    for (std::size_t n = 0; n < step.at("keys").size(); ++n) {
      const std::size_t j = step.at("keys")[n].get<std::size_t>();
      EXPECT_NEAR(step.at("weights")[n].get<double>(), head.at("weights")[t][j].get<double>(), 1e-6) << t << ", " << j;
    }
    for (std::size_t c = 0; c < step.at("context").size(); ++c) {
      EXPECT_NEAR(step.at("context")[c].get<double>(), head.at("context")[t][c].get<double>(), 1e-6) << t << ", " << c;
    }
  }
}

TEST(TraceDecodeCommand, WindowEvictsAndOutGoesToAFile) {
  const auto dir = testing::scratch_dir("trace-decode-out");
  const auto path = dir / "trace.json";
  const auto result =
      run_attnviz("trace decode --scenario preset:sliding-window --prompt 1 --out '" + path.string() + "'");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(result.out.empty());
  const nlohmann::json trace = nlohmann::json::parse(testing::read_text(path));
  EXPECT_EQ(trace.at("cache_capacity"), 4);  // window 3: r + 1 slots
  EXPECT_EQ(trace.at("steps")[6].at("keys"), nlohmann::json::parse("[3, 4, 5, 6]"));
  EXPECT_EQ(trace.at("steps")[6].at("evicted"), nlohmann::json::parse("[2]"));
  std::filesystem::remove_all(dir);
}

void expect_bad_option(const std::string& arguments, const std::string& named) {
  const auto result = run_attnviz("trace decode " + arguments);
  EXPECT_EQ(result.exit_code, 2) << arguments << "\n" << result.err;
  EXPECT_NE(result.err.find(named), std::string::npos) << arguments << ": " << result.err;
  EXPECT_TRUE(result.out.empty()) << arguments;
}

TEST(TraceDecodeCommand, BadValuesExitTwoNamingTheOption) {
  expect_bad_option("--scenario preset:causal-gpt --prompt 0", "--prompt");
  expect_bad_option("--scenario preset:causal-gpt --prompt -2", "--prompt");
  expect_bad_option("--scenario preset:causal-gpt --prompt three", "--prompt");
  expect_bad_option("--scenario preset:causal-gpt --prompt 999", "--prompt");
  expect_bad_option("--scenario preset:causal-gpt", "--prompt");
  expect_bad_option("--scenario preset:causal-gpt --prompt 2 --head 4", "--head");  // heads 0..3
  expect_bad_option("--scenario preset:causal-gpt --prompt 2 --head -1", "--head");
  expect_bad_option("--prompt 2", "--scenario");
  expect_bad_option("--scenario preset:cross-attention --prompt 2", "/source");
  const auto longer = run_attnviz("trace decode --scenario preset:causal-gpt --prompt 999");
  EXPECT_NE(longer.err.find("longer than the sentence"), std::string::npos) << longer.err;
}

TEST(TraceDecodeCommand, UnknownKindAndHelp) {
  const auto unknown = run_attnviz("trace sideways");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("sideways"), std::string::npos) << unknown.err;
  EXPECT_EQ(run_attnviz("trace").exit_code, 2);
  const auto help = run_attnviz("trace decode --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--prompt"), std::string::npos);
  const auto top = run_attnviz("--help");
  EXPECT_NE(top.out.find("trace decode"), std::string::npos);
  EXPECT_NE(top.out.find("kv-cache"), std::string::npos);
}

}  // namespace
}  // namespace attnviz
