// attnviz tokenize, compute --model and export --model as a user runs them, on the tiny models
// tests/reference/write_test_models.py writes (the numbers themselves are held to the float64
// reference by tests/reference/check_models.py): the shapes pinned in docs/design.md "Real
// models", and bad model files refused with exit code 2 naming the file and the tensor or field.

#include <sys/stat.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli/run_attnviz.h"

namespace attnviz {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::run_attnviz;

std::string model(const std::string& name) { return "'" + (fs::path(ATTNVIZ_TEST_MODELS) / name).string() + "'"; }

// The folders the tests copy models into, removed when the tests end.
std::vector<fs::path>& scratch_folders() {
  static std::vector<fs::path> folders;
  return folders;
}

class RemoveScratchFolders : public ::testing::Environment {
 public:
  void TearDown() override {
    for (const fs::path& folder : scratch_folders()) fs::remove_all(folder);
  }
};
const auto* const kCleanup = ::testing::AddGlobalTestEnvironment(new RemoveScratchFolders);

fs::path copy_of(const std::string& name, const std::string& as) {
  const fs::path dir = testing::scratch_dir("model-" + as);
  scratch_folders().push_back(dir);
  fs::copy(fs::path(ATTNVIZ_TEST_MODELS) / name, dir / name, fs::copy_options::recursive);
  return dir / name;
}

void expect_bad_input(const testing::CommandOutput& run, const std::string& file, const std::string& field) {
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find(file), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(field), std::string::npos) << run.err;
}

TEST(ModelCommands, TokenizeWritesIdsAndReadableTokens) {
  const auto run = run_attnviz("tokenize --model " + model("gpt2") + " --text 'the cat 한'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json out = json::parse(run.out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out["ids"].size(), out["tokens"].size());
  EXPECT_EQ(out["tokens"][0], "the");
  EXPECT_EQ(out["tokens"][1], "␣cat");
  // 한 (ED 95 9C) in bytes, no token holds the whole syllable: each names it and its byte.
  EXPECT_EQ(out["tokens"][3], "한₁");
  EXPECT_EQ(out["tokens"][5], "한₃");
}

TEST(ModelCommands, ComputeWritesEveryLayerAndTheNextTokens) {
  const auto run = run_attnviz("compute --model " + model("llama.gguf") + " --text 'the cat sat'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json out = json::parse(run.out);
  EXPECT_EQ(out["format"], "attnviz-result/1");
  EXPECT_EQ(out["tokens"][0], "<s>");
  ASSERT_EQ(out["layers"].size(), 2u);
  EXPECT_EQ(out["layers"][1]["layer"], 1);
  const json& head = out["layers"][0]["heads"][3];
  const std::size_t n = out["tokens"].size();
  EXPECT_EQ(head["scores"].size(), n);
  EXPECT_EQ(head["weights"][0].size(), n);
  EXPECT_EQ(head["context"][0].size(), 8u);
  ASSERT_EQ(out["next_tokens"].size(), 10u);
  EXPECT_TRUE(out["next_tokens"][0].contains("id"));
  EXPECT_TRUE(out["next_tokens"][0].contains("token"));
  EXPECT_GE(out["next_tokens"][0]["p"].get<double>(), out["next_tokens"][1]["p"].get<double>());
}

TEST(ModelCommands, ComputeKeepsTheChosenLayers) {
  const auto run = run_attnviz("compute --model " + model("gpt2") + " --text 'the cat' --layers 1");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json out = json::parse(run.out);
  ASSERT_EQ(out["layers"].size(), 1u);
  EXPECT_EQ(out["layers"][0]["layer"], 1);
  const auto bad = run_attnviz("compute --model " + model("gpt2") + " --text 'the cat' --layers 0,7");
  expect_bad_input(bad, "<command line>", "--layers");
}

// --head-scale errors read "<edit>: head switch: ...": they name the option, the item and what the
// model has.
TEST(ModelCommands, HeadScaleErrorsNameTheOptionAndTheValue) {
  const std::string compute = "compute --model " + model("llama.gguf") + " --text 'the cat' --head-scale ";
  auto run = run_attnviz(compute + "0:1,7:0");
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("<command line>: --head-scale: \"7:0\": the model has no layer 7; its 2 layers are 0 to 1"),
            std::string::npos)
      << run.err;
  run = run_attnviz(compute + "1:99=0.5");
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("--head-scale: \"1:99\": layer 1 has no head 99; its "), std::string::npos) << run.err;
  run = run_attnviz(compute + "1:0=nan");
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("--head-scale: \"1:0=nan\": the factor must be a finite number"), std::string::npos)
      << run.err;
  for (const std::string command :
       {"export --layer 0 --out /tmp/attnviz-never-written --model ", "generate --tokens 1 --model "}) {
    run = run_attnviz(command + model("llama.gguf") + " --text 'the cat' --head-scale 9:0");
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_NE(run.err.find("--head-scale: \"9:0\": the model has no layer 9"), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find("<edit>"), std::string::npos) << run.err;
  }
}

TEST(ModelCommands, ExportWritesALayersHeatmapsAndTheRollout) {
  const fs::path dir = testing::scratch_dir("model-export");
  const auto run =
      run_attnviz("export --model " + model("bert") +
                  " --text 'the cat sat' --layer 1 --what weights,rollout --heads 0 --out '" + dir.string() + "/'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(fs::exists(dir / "weights_head0.png")) << run.out;
  EXPECT_TRUE(fs::exists(dir / "rollout.png")) << run.out;
  fs::remove_all(dir);
}

TEST(ModelCommands, ModelOptionsNeedAModelAndScenarioOptionsAScenario) {
  expect_bad_input(run_attnviz("compute --scenario preset:life-is-short --text hi"), "<command line>", "--text");
  expect_bad_input(run_attnviz("compute --model " + model("gpt2") + " --text hi --kernel tiled"), "<command line>",
                   "--kernel");
  expect_bad_input(run_attnviz("tokenize --model " + model("gpt2")), "<command line>", "--text");
  expect_bad_input(run_attnviz("export --model " + model("gpt2") + " --text hi --out /tmp/x.png"), "<command line>",
                   "--layer");
}

TEST(ModelCommands, ATextFileIsTheModelsTextAndItsErrorsNameTheFile) {
  const fs::path dir = testing::scratch_dir("model-text-file");
  scratch_folders().push_back(dir);
  std::ofstream(dir / "short.txt") << "the cat 한";
  const std::string file = " --text-file '" + (dir / "short.txt").string() + "'";
  const auto typed = run_attnviz("tokenize --model " + model("gpt2") + " --text 'the cat 한'");
  const auto read = run_attnviz("tokenize --model " + model("gpt2") + file);
  ASSERT_EQ(read.exit_code, 0) << read.err;
  EXPECT_EQ(read.out, typed.out);

  const auto computed = run_attnviz("compute --model " + model("gpt2") + file);
  ASSERT_EQ(computed.exit_code, 0) << computed.err;
  EXPECT_EQ(json::parse(computed.out)["tokens"], json::parse(typed.out)["tokens"]);
  const auto generated = run_attnviz("generate --model " + model("gpt2") + file + " --tokens 2");
  ASSERT_EQ(generated.exit_code, 0) << generated.err;
  EXPECT_EQ(json::parse(generated.out)["prompt_length"], json::parse(typed.out)["ids"].size());

  // Longer than the model's 32 positions: the file is named, not "<text>".
  std::string essay;
  for (int i = 0; i < 40; ++i) essay += "the cat ";
  std::ofstream(dir / "essay.txt") << essay;
  const std::string long_file = " --text-file '" + (dir / "essay.txt").string() + "'";
  for (const std::string& command :
       std::vector<std::string>{"compute", "generate --tokens 2", "export --layer 0 --out '" + dir.string() + "/'"}) {
    const auto refused = run_attnviz(command + " --model " + model("gpt2") + long_file);
    expect_bad_input(refused, "essay.txt: --text-file: makes 81 tokens", "positions");
  }
  expect_bad_input(run_attnviz("tokenize --model " + model("gpt2") + file + " --text hi"), "<command line>",
                   "--text-file");
  expect_bad_input(
      run_attnviz("tokenize --model " + model("gpt2") + " --text-file '" + (dir / "none.txt").string() + "'"),
      "none.txt", "no such file");
}

TEST(ModelCommands, AMissingModelOrANonModelIsBadInput) {
  expect_bad_input(run_attnviz("compute --model /nonexistent/model --text hi"), "/nonexistent/model", "no such file");
  const fs::path dir = testing::scratch_dir("not-a-model");
  scratch_folders().push_back(dir);
  std::ofstream(dir / "notes.txt") << "hello";
  expect_bad_input(run_attnviz("compute --model '" + (dir / "notes.txt").string() + "' --text hi"), "notes.txt",
                   "is not a model");
}

TEST(ModelCommands, ATruncatedFileNamesTheFileAndTheTensor) {
  const fs::path gguf = copy_of("llama.gguf", "truncated");
  fs::resize_file(gguf, fs::file_size(gguf) - 64);
  const auto run = run_attnviz("compute --model '" + gguf.string() + "' --text hi");
  expect_bad_input(run, "llama.gguf", "lie past the end of the file");
  EXPECT_NE(run.err.find(".weight: bytes"), std::string::npos) << run.err;  // the tensor is named
}

TEST(ModelCommands, AHeaderWhoseOffsetsLieNamesTheTensor) {
  const fs::path folder = copy_of("gpt2", "lying");
  std::fstream file(folder / "model.safetensors", std::ios::in | std::ios::out | std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const std::size_t at = bytes.find("\"ln_f.weight\"");
  ASSERT_NE(at, std::string::npos);
  const std::size_t begin = bytes.find('[', bytes.find("\"data_offsets\":", at)) + 1;  // BEGIN of [BEGIN, END]
  bytes.replace(begin, 1, "9");                                                        // now far beyond END
  file.seekp(0);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  file.close();
  expect_bad_input(run_attnviz("compute --model '" + folder.string() + "' --text hi"), "model.safetensors",
                   "ln_f.weight");
}

TEST(ModelCommands, AnUnknownArchitectureIsNamed) {
  const fs::path folder = copy_of("bert", "unknown-architecture");
  std::ifstream in(folder / "config.json");
  std::string config((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  config.replace(config.find("BertForMaskedLM"), 15, "RobertaForMaskedLM");
  std::ofstream(folder / "config.json") << config;
  expect_bad_input(run_attnviz("compute --model '" + folder.string() + "' --text hi"), "config.json",
                   "RobertaForMaskedLM");
}

TEST(ModelCommands, AMissingTokenizerIsNamed) {
  const fs::path folder = copy_of("bert", "no-tokenizer");
  fs::remove(folder / "vocab.txt");
  expect_bad_input(run_attnviz("tokenize --model '" + folder.string() + "' --text hi"), "no-tokenizer", "vocab.txt");
}

TEST(ModelCommands, AnUnknownTensorTypeIsNamed) {
  const fs::path folder = copy_of("gpt2", "int8");
  std::fstream file(folder / "model.safetensors", std::ios::in | std::ios::out | std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const std::size_t at = bytes.find("\"F32\"", bytes.find("\"wpe.weight\""));
  bytes.replace(at, 5, "\"I32\"");  // same element size: only the type is wrong
  file.seekp(0);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  file.close();
  const auto run = run_attnviz("compute --model '" + folder.string() + "' --text hi");
  expect_bad_input(run, "model.safetensors", "wpe.weight");
  EXPECT_NE(run.err.find("I32"), std::string::npos) << run.err;
}

TEST(ModelCommands, AModelTooLargeForTheMemorySaysHowMuchItNeeds) {
  const auto run = run_attnviz("compute --model " + model("llama") + " --text hi --memory-limit 1K");
  expect_bad_input(run, "llama", "weights");
  EXPECT_NE(run.err.find("GiB of memory"), std::string::npos) << run.err;
}

// Issue 46: a NaN stored in an F16 embedding table wrote nulls and exited 0.
TEST(ModelCommands, ANonFiniteWeightIsBadInputNotNulls) {
  const fs::path folder = copy_of("llama-f16", "f16-nan");
  const fs::path weights = folder / "model.safetensors";
  std::string bytes;
  {
    std::ifstream in(weights, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::uint64_t header_size = 0;
  std::memcpy(&header_size, bytes.data(), 8);
  const json header = json::parse(bytes.substr(8, header_size));
  const auto begin = header["model.embed_tokens.weight"]["data_offsets"][0].get<std::size_t>();
  const auto end = header["model.embed_tokens.weight"]["data_offsets"][1].get<std::size_t>();
  for (std::size_t i = 8 + header_size + begin; i + 1 < 8 + header_size + end; i += 2)
    bytes.replace(i, 2, "\x00\x7e", 2);
  std::ofstream(weights, std::ios::binary) << bytes;
  const auto run = run_attnviz("compute --model '" + folder.string() + "' --text 'the cat'");
  expect_bad_input(run, "model.safetensors", "model.embed_tokens.weight");
  EXPECT_NE(run.err.find("not a finite number"), std::string::npos) << run.err;
  EXPECT_EQ(run.out.find("null"), std::string::npos) << run.out;
}

TEST(ModelCommands, ASymbolicLinkLoopAndAFifoAreBadInput) {
  const fs::path dir = testing::scratch_dir("model-special-files");
  scratch_folders().push_back(dir);
  fs::create_symlink("loop.gguf", dir / "loop.gguf");
  auto run = run_attnviz("compute --model '" + (dir / "loop.gguf").string() + "' --text hi");
  expect_bad_input(run, "loop.gguf", "symbolic link loop");
  ASSERT_EQ(::mkfifo((dir / "fifo.gguf").c_str(), 0600), 0);
  run = run_attnviz("compute --model '" + (dir / "fifo.gguf").string() + "' --text hi");
  expect_bad_input(run, "fifo.gguf", "not a regular file");
}

TEST(ModelCommands, HelpTextsNameTheModelOptions) {
  for (const char* command : {"tokenize", "compute", "export"}) {
    const auto run = run_attnviz(std::string(command) + " --help");
    EXPECT_EQ(run.exit_code, 0);
    EXPECT_NE(run.out.find("--model PATH"), std::string::npos) << command;
  }
  EXPECT_NE(run_attnviz("--help").out.find("attnviz tokenize --model PATH --text TEXT"), std::string::npos);
}

}  // namespace
}  // namespace attnviz
