// attnviz generate as a user runs it, on the tiny models of tests/reference/write_test_models.py:
// the JSON's shape (docs/design.md "Real models"), its tokens agreeing with compute --model's
// best next token, --layer keeping one layer, and bad options refused with exit code 2 naming
// them. The numbers themselves: tests/model/generate_test.cpp against full forward passes.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "tests/cli/run_attnviz.h"

namespace attnviz {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::run_attnviz;

std::string model_path(const std::string& name) { return "'" + (fs::path(ATTNVIZ_TEST_MODELS) / name).string() + "'"; }

TEST(GenerateCommand, WritesTokensStepsAndOneAttentionRowPerHead) {
  const auto run =
      run_attnviz("generate --model " + model_path("llama") + " --text 'the cat sat' --tokens 3 --layer 1");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json out = json::parse(run.out);
  const auto prompt = out["prompt_length"].get<std::size_t>();
  const auto steps = out["steps"].size();
  ASSERT_GE(steps, 1u);
  EXPECT_EQ(out["tokens"].size(), prompt + steps);
  EXPECT_EQ(out["ids"].size(), prompt + steps);
  const json& first = out["steps"][0];
  EXPECT_EQ(first["id"], out["ids"][prompt]);
  EXPECT_EQ(first["token"], out["tokens"][prompt]);
  EXPECT_EQ(first["next_tokens"][0]["id"], first["id"]);
  EXPECT_EQ(first["cache_length"], prompt);
  ASSERT_EQ(first["layers"].size(), 1u);
  EXPECT_EQ(first["layers"][0]["layer"], 1);
  ASSERT_EQ(first["layers"][0]["heads"].size(), 4u);
  EXPECT_EQ(first["layers"][0]["heads"][3]["weights"].size(), prompt);
  EXPECT_EQ(first["layers"][0]["heads"][3]["scores"].size(), prompt);
  if (steps > 1) {
    EXPECT_EQ(out["steps"][1]["cache_length"], prompt + 1);
  }
  EXPECT_GT(first["cache_bytes"].get<long long>(), 0);
}

TEST(GenerateCommand, TheFirstTokenIsComputesBestNextToken) {
  const auto generated = run_attnviz("generate --model " + model_path("gpt2") + " --text 'the cat sat' --tokens 1");
  const auto computed = run_attnviz("compute --model " + model_path("gpt2") + " --text 'the cat sat' --layers 0");
  ASSERT_EQ(generated.exit_code, 0) << generated.err;
  ASSERT_EQ(computed.exit_code, 0) << computed.err;
  EXPECT_EQ(json::parse(generated.out)["steps"][0]["id"], json::parse(computed.out)["next_tokens"][0]["id"]);
  EXPECT_EQ(json::parse(generated.out)["steps"][0]["layers"].size(), 2u);
}

TEST(GenerateCommand, BadInputExitsTwoNamingTheOption) {
  const std::string gpt2 = " --model " + model_path("gpt2") + " --text 'the cat'";
  for (const auto& [args, field] : std::vector<std::pair<std::string, std::string>>{
           {gpt2, "--tokens"},
           {gpt2 + " --tokens 0", "--tokens"},
           {gpt2 + " --tokens 2 --layer 7", "--layers"},
           {gpt2 + " --tokens 2 --layer 0 --layers 1", "--layer"},
           {" --model " + model_path("bert") + " --text 'the cat' --tokens 2", "architecture"},
           {" --text 'the cat' --tokens 2", "--model"}}) {
    const auto run = run_attnviz("generate" + args);
    EXPECT_EQ(run.exit_code, 2) << args << "\n" << run.err;
    EXPECT_NE(run.err.find(field), std::string::npos) << args << "\n" << run.err;
  }
}

}  // namespace
}  // namespace attnviz
