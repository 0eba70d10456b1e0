// `attnviz compute` and the top-level options, run as a user would (docs/design.md "Command line").

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

#include "core/scenario/problem.h"
#include "tests/attention/reference_attention.h"
#include "tests/cli/run_attnviz.h"

namespace attnviz {
namespace {

using testing::run_attnviz;

class ComputeCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write_scenario(const std::string& name, const std::string& json) const {
    const auto path = dir_ / name;
    std::ofstream(path) << json;
    return path.string();
  }

  std::filesystem::path dir_;
};

// The life-is-short numbers of the foundation issue, typed in independently of the preset file.
Problem life_is_short() {
  Problem p;
  p.tokens = p.source_tokens = {"Life", "is", "short", "eat", "dessert", "first"};
  p.x = Matrix(6, 3);
  p.x.data = {0.3374f,  -0.1778f, -0.3035f, 0.1794f,  1.8951f, 0.4954f, 0.2692f,  -0.0770f, -1.0205f,
              -0.2196f, -0.3792f, 0.7671f,  -0.5880f, 0.3486f, 0.6603f, -1.1925f, 0.6984f,  -1.4097f};
  p.xs = p.x;
  p.wq = Matrix(3, 2);
  p.wq.data = {0.2961f, 0.5166f, 0.2517f, 0.6886f, 0.0740f, 0.8665f};
  p.wk = Matrix(3, 2);
  p.wk.data = {0.1366f, 0.1025f, 0.1841f, 0.7264f, 0.3153f, 0.6871f};
  p.wv = Matrix(3, 4);
  p.wv.data = {0.0756f, 0.1966f, 0.3164f, 0.4017f, 0.1186f, 0.8274f,
               0.3821f, 0.6605f, 0.8536f, 0.5932f, 0.6367f, 0.9826f};
  p.d_k = 2;
  p.d_v = 4;
  p.scale = static_cast<float>(1.0 / std::sqrt(2.0));
  return p;
}

const char* kValidScenario = R"({
  "format": "attnviz-scenario/1", "sentence": "a b c", "d_model": 2, "num_heads": 2, "num_kv_heads": 1,
  "d_k": 1, "d_v": 1, "seed": 3, %EXTRA%
  "mask": {"causal": true}
})";

std::string scenario_with(const std::string& extra) {
  std::string text = kValidScenario;
  return text.replace(text.find("%EXTRA%"), 7, extra);
}

TEST(Cli, VersionAndHelp) {
  const auto version = run_attnviz("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out, "attnviz " ATTNVIZ_VERSION "\n");
  const auto help = run_attnviz("--help");
  EXPECT_EQ(help.exit_code, 0);
  for (const char* word : {"compute", "export", "devices", "--screenshot", "Exit codes"})
    EXPECT_NE(help.out.find(word), std::string::npos) << word;
  const auto compute_help = run_attnviz("compute --help");
  EXPECT_EQ(compute_help.exit_code, 0);
  EXPECT_NE(compute_help.out.find("--backend"), std::string::npos);
}

TEST(Cli, UnknownCommandOrOptionIsBadInput) {
  const auto command = run_attnviz("frobnicate");
  EXPECT_EQ(command.exit_code, 2);
  EXPECT_NE(command.err.find("unknown command \"frobnicate\""), std::string::npos) << command.err;
  const auto option = run_attnviz("compute --scenario preset:life-is-short --colour red");
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_NE(option.err.find("--colour"), std::string::npos) << option.err;
  const auto backend = run_attnviz("compute --scenario preset:life-is-short --backend gpu");
  EXPECT_EQ(backend.exit_code, 2);
  EXPECT_NE(backend.err.find("\"gpu\" is not one of: cpu, vulkan, both"), std::string::npos) << backend.err;
  const auto missing = run_attnviz("compute");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("--scenario"), std::string::npos) << missing.err;
}

// A mistyped option, choice or preset names what was probably meant; a far one guesses nothing.
TEST(Cli, MistypedNamesSuggestTheNearestOne) {
  const auto option = run_attnviz("compute --scenario preset:life-is-short --head 0");
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_NE(option.err.find(
                "--head: unknown option for 'attnviz compute'; did you mean --heads? (see attnviz compute --help)"),
            std::string::npos)
      << option.err;
  const auto backend = run_attnviz("compute --scenario preset:life-is-short --backend vulkn");
  EXPECT_EQ(backend.exit_code, 2);
  EXPECT_NE(backend.err.find("\"vulkn\" is not one of: cpu, vulkan, both; did you mean vulkan?"), std::string::npos)
      << backend.err;
  const auto what = run_attnviz("export --scenario preset:life-is-short --what wieghts --out x.png");
  EXPECT_EQ(what.exit_code, 2);
  EXPECT_NE(what.err.find("did you mean weights?"), std::string::npos) << what.err;
  const auto preset = run_attnviz("compute --scenario preset:life");
  EXPECT_EQ(preset.exit_code, 2);
  EXPECT_NE(preset.err.find("did you mean preset:life-is-short?"), std::string::npos) << preset.err;
  const auto trace = run_attnviz("trace tiles --scenario preset:life-is-short");
  EXPECT_EQ(trace.exit_code, 2);
  EXPECT_NE(
      trace.err.find("tiles: is not a kind of trace (decode or tiled; see attnviz trace --help); did you mean tiled?"),
      std::string::npos)
      << trace.err;
  const auto far = run_attnviz("compute --scenario preset:life-is-short --colour red");
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
}

TEST_F(ComputeCommand, LifeIsShortPresetPrintsTheResultJsonMatchingAnIndependentReference) {
  const auto run = run_attnviz("compute --scenario preset:life-is-short");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["format"], "attnviz-result/1");
  EXPECT_EQ(json["backend"], "cpu");
  EXPECT_EQ(json["tokens"], nlohmann::json({"Life", "is", "short", "eat", "dessert", "first"}));
  const testing::ReferenceResult expected = testing::reference_attention(life_is_short());
  ASSERT_EQ(json["heads"].size(), 1u);
  for (std::size_t i = 0; i < 6; ++i) {
    for (std::size_t j = 0; j < 6; ++j) {
      EXPECT_NEAR(json["heads"][0]["scores"][i][j].get<double>(), expected.heads[0].scores[i][j], 1e-5);
      EXPECT_NEAR(json["heads"][0]["weights"][i][j].get<double>(), expected.heads[0].weights[i][j], 1e-5);
    }
    for (std::size_t d = 0; d < 4; ++d) EXPECT_NEAR(json["output"][i][d].get<double>(), expected.output[i][d], 1e-5);
  }
}

TEST_F(ComputeCommand, OutWritesTheFileAndUnknownFieldsOnlyWarn) {
  const std::string scenario = write_scenario("s.json", scenario_with(R"("colour": "red",)"));
  const std::string out = (dir_ / "r.json").string();
  const auto run = run_attnviz("compute --scenario " + scenario + " --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(run.out.empty());
  EXPECT_NE(run.err.find("/colour"), std::string::npos) << run.err;
  const nlohmann::json json = nlohmann::json::parse(testing::read_text(out));
  EXPECT_EQ(json["heads"].size(), 2u);
  EXPECT_EQ(json["mask"], nlohmann::json::parse("[[1,0,0],[1,1,0],[1,1,1]]"));
}

struct BadScenario {
  const char* name;
  std::string json;
  const char* pointer;  // must appear in the message, with the file name
};

TEST_F(ComputeCommand, EveryMalformedScenarioExitsTwoNamingFileAndField) {
  const std::vector<BadScenario> cases = {
      {"not-json", "{\"format\": ", ""},
      {"unknown-format", R"({"format": "attnviz-scenario/9", "sentence": "a"})", "/format"},
      {"wrong-shape", scenario_with(R"("wq": [[1, 2, 3], [4, 5, 6]],)"), "/wq"},
      {"heads-not-divisible", R"({"format": "attnviz-scenario/1", "sentence": "a b", "d_model": 2, "num_heads": 3,
          "num_kv_heads": 2, "d_k": 1, "d_v": 1})",
       "/num_kv_heads"},
      {"negative-window", R"({"format": "attnviz-scenario/1", "sentence": "a b c", "d_model": 2,
          "mask": {"window": -1}})",
       "/mask/window"},
      {"global-out-of-range", R"({"format": "attnviz-scenario/1", "sentence": "a b c", "d_model": 2,
          "mask": {"window": 1, "global": [0, 7]}})",
       "/mask/global/1"},
      {"infinite-value", scenario_with(R"("wv": [[1, 1e999], [0, 0]],)"), "/wv/0/1"},
      {"embeddings-rows", scenario_with(R"("embeddings": [[1, 2], [3, 4]],)"), "/embeddings"},
      {"rope-odd-dk", scenario_with(R"("positional": "rope",)"), "/d_k"},
      {"unknown-positional", scenario_with(R"("positional": "learned",)"), "/positional"},
      {"dropout-p-1", scenario_with(R"("dropout": {"p": 1, "seed": 2},)"), "/dropout/p"},
      {"rope-theta-negative", scenario_with(R"("rope_theta": -5,)"), "/rope_theta"},
  };
  for (const BadScenario& bad : cases) {
    SCOPED_TRACE(bad.name);
    const std::string path = write_scenario(std::string(bad.name) + ".json", bad.json);
    const auto run = run_attnviz("compute --scenario " + path);
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_NE(run.err.find(path), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(bad.pointer), std::string::npos) << run.err;
    EXPECT_TRUE(run.out.empty());
  }
}

// With dropout each head carries the weights after dropout, the softmax's weights and the kept
// set (docs/design.md "Dropout"); both backends agree on all of them (--backend both).
TEST_F(ComputeCommand, DropoutAddsTheWeightsBeforeDropoutAndTheKeptSet) {
  const std::string path =
      write_scenario("dropout.json", scenario_with(R"("positional": "alibi", "dropout": {"p": 0.4, "seed": 9},)"));
  const auto run = run_attnviz("compute --backend both --scenario " + path);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("every matrix agrees"), std::string::npos) << run.err;
  const nlohmann::json result = nlohmann::json::parse(run.out);
  for (const nlohmann::json& head : result["heads"]) {
    const auto& weights = head.at("weights");
    const auto& before = head.at("weights_before_dropout");
    const auto& kept = head.at("kept");
    for (std::size_t i = 0; i < weights.size(); ++i) {
      for (std::size_t j = 0; j < weights[i].size(); ++j) {
        const double expected =
            kept[i][j].get<int>() == 1 ? before[i][j].get<double>() * static_cast<double>(1.0f / 0.6f) : 0.0;
        EXPECT_NEAR(weights[i][j].get<double>(), expected, 1e-6) << i << ", " << j;
      }
    }
  }
  const auto without = run_attnviz("compute --scenario " + write_scenario("plain.json", scenario_with("")));
  EXPECT_EQ(without.out.find("weights_before_dropout"), std::string::npos) << "nothing new without dropout";
}

TEST_F(ComputeCommand, MissingFileAndUnknownPresetAreBadInput) {
  const auto missing = run_attnviz("compute --scenario " + (dir_ / "nope.json").string());
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("nope.json"), std::string::npos) << missing.err;
  const auto preset = run_attnviz("compute --scenario preset:no-such-thing");
  EXPECT_EQ(preset.exit_code, 2);
  EXPECT_NE(preset.err.find("life-is-short"), std::string::npos) << "lists the presets: " << preset.err;
}

// A path that cannot be written is the user's input: exit 2, naming --out, before anything is
// computed (it was exit 1 after the computation).
TEST_F(ComputeCommand, AnOutThatCannotBeWrittenIsBadInput) {
  for (const std::string& out :
       {(dir_ / "no" / "such" / "folder" / "r.json").string(), dir_.string(), std::string("/proc/x")}) {
    SCOPED_TRACE(out);
    const auto run = run_attnviz("compute --scenario preset:life-is-short --out '" + out + "'");
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_NE(run.err.find("--out"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(out), std::string::npos) << run.err;
  }
  EXPECT_TRUE(std::filesystem::is_directory(dir_));
}

// Run as root, --out /dev/null replaced /dev/null with a regular file. Through a link to it
// (harmless if this ever fails again): the link stays a link, /dev/null a device.
TEST_F(ComputeCommand, OutToADeviceOrStdoutIsWrittenThrough) {
  const auto link = dir_ / "null";
  std::filesystem::create_symlink("/dev/null", link);
  const auto to_null = run_attnviz("compute --scenario preset:life-is-short --out " + link.string());
  EXPECT_EQ(to_null.exit_code, 0) << to_null.err;
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
  // /dev/stdout is a link to /proc/self/fd/1: the JSON arrives on standard output.
  const auto to_stdout = run_attnviz("compute --scenario preset:life-is-short --out /dev/stdout");
  EXPECT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
  EXPECT_EQ(nlohmann::json::parse(to_stdout.out)["format"], "attnviz-result/1");
}

TEST_F(ComputeCommand, ScenarioFromDevZeroIsRefusedNamingTheLimit) {
  const auto run = run_attnviz("compute --scenario /dev/zero");
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("64 MiB"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace attnviz
