// What `attnviz compute` writes and how much: the JSON or a folder of NPY arrays, only the heads
// asked for, and never more than --max-output (1 GiB by default) unless asked: eight heads of
// 4096 tokens once ran 153 s, peaked at 18.5 GB and wrote 2.9 GB of JSON without a word.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli/run_attnviz.h"

namespace attnviz {
namespace {

using testing::run_attnviz;

class ComputeOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // A generated sentence of `tokens` words with `heads` heads (nothing explicit: the file is small).
  std::string long_scenario(int tokens, int heads) const {
    static const char* const kWords[] = {"the", "cat", "sat", "on", "a", "mat", "while", "rain"};
    std::string sentence;
    for (int i = 0; i < tokens; ++i) sentence += std::string(i ? " " : "") + kWords[(i * 7 + i / 8) % 8];
    const auto path = dir_ / ("n" + std::to_string(tokens) + "h" + std::to_string(heads) + ".json");
    std::ofstream(path) << R"({"format": "attnviz-scenario/1", "sentence": ")" << sentence
                        << R"(", "d_model": 64, "num_heads": )" << heads
                        << R"(, "d_k": 8, "d_v": 8, "mask": {"causal": true}})";
    return path.string();
  }

  std::filesystem::path dir_;
};

// NPY v1.0 as write_result_arrays writes it: the shape from the header, the values after it.
struct Npy {
  std::string descr;
  std::vector<std::size_t> shape;
  std::string data;
};

Npy read_npy(const std::filesystem::path& path) {
  const std::string bytes = testing::read_text(path);
  Npy npy;
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) return npy;
  const std::size_t header_length =
      std::size_t{static_cast<unsigned char>(bytes[8])} | std::size_t{static_cast<unsigned char>(bytes[9])} << 8;
  const std::string header = bytes.substr(10, header_length);
  const std::size_t descr = header.find("'descr': '") + 10;
  npy.descr = header.substr(descr, header.find('\'', descr) - descr);
  std::size_t at = header.find("'shape': (") + 10;
  while (header[at] != ')') {
    std::size_t used = 0;
    npy.shape.push_back(std::stoul(header.substr(at), &used));
    at += used;
    while (header[at] == ',' || header[at] == ' ') ++at;
  }
  npy.data = bytes.substr(10 + header_length);
  return npy;
}

float float_at(const Npy& npy, std::size_t i) {
  float value = 0.0f;
  std::memcpy(&value, npy.data.data() + 4 * i, 4);
  return value;
}

TEST_F(ComputeOutput, EightHeadsOf4096TokensAsJsonAreRefusedBeforeAnythingIsComputed) {
  const auto out = dir_ / "r.json";
  const auto run = run_attnviz("compute --scenario " + long_scenario(4096, 8) + " --out " + out.string());
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  // How large, what would be smaller, and the flag that accepts it.
  for (const char* said :
       {"--max-output: the result would be about", "GB of JSON", "8 heads of 4096 × 4096 scores and weights",
        "As NPY arrays it is 1.1 GB (--format npy --out DIR)", "One head (--heads 0) is about",
        "To write it anyway: --max-output 4G (or none)"}) {
    EXPECT_NE(run.err.find(said), std::string::npos) << said << "\n" << run.err;
  }
  // Refused from the shapes alone: none of the gigabyte of scores and weights was computed.
  EXPECT_LT(run.peak_rss_mib, 300) << "peak resident memory: " << run.peak_rss_mib << " MiB";
}

TEST_F(ComputeOutput, MaxOutputAcceptsWhatWasAskedFor) {
  const std::string scenario = " --scenario preset:gqa --out " + (dir_ / "r.json").string();
  const auto small = run_attnviz("compute --max-output 1K" + scenario);
  EXPECT_EQ(small.exit_code, 2) << small.err;
  EXPECT_NE(small.err.find("more than the 1.0 KB written without asking"), std::string::npos) << small.err;
  EXPECT_EQ(run_attnviz("compute --max-output none" + scenario).exit_code, 0);
  EXPECT_EQ(run_attnviz("compute --max-output 2M" + scenario).exit_code, 0);
  for (const char* bad : {"12X", "-1G", "0", "G", "1e30G"}) {
    const auto run = run_attnviz("compute --max-output " + std::string(bad) + scenario);
    EXPECT_EQ(run.exit_code, 2) << bad;
    EXPECT_NE(run.err.find("--max-output: \"" + std::string(bad) + "\" is not a size"), std::string::npos) << run.err;
  }
}

TEST_F(ComputeOutput, NpyArraysHoldTheNumbersOfTheJson) {
  const auto json_run = run_attnviz("compute --scenario preset:gqa --out " + (dir_ / "r.json").string());
  ASSERT_EQ(json_run.exit_code, 0) << json_run.err;
  const auto npy_run = run_attnviz("compute --scenario preset:gqa --format npy --out " + (dir_ / "arrays").string());
  ASSERT_EQ(npy_run.exit_code, 0) << npy_run.err;
  EXPECT_NE(npy_run.out.find("weights.npy"), std::string::npos) << npy_run.out;  // the files written, one a line

  const auto json = nlohmann::json::parse(testing::read_text(dir_ / "r.json"));
  const auto about = nlohmann::json::parse(testing::read_text(dir_ / "arrays" / "result.json"));
  EXPECT_EQ(about["format"], "attnviz-result-arrays/1");
  EXPECT_EQ(about["tokens"], json["tokens"]);
  EXPECT_EQ(about["masked_rows"], json["masked_rows"]);
  const std::size_t heads = json["heads"].size();
  ASSERT_EQ(about["heads"].size(), heads);
  for (const char* name : {"scores", "weights", "context"}) {
    const Npy npy = read_npy(dir_ / "arrays" / (std::string(name) + ".npy"));
    EXPECT_EQ(npy.descr, "<f4");
    const auto& first = json["heads"][0][name];
    ASSERT_EQ(npy.shape, (std::vector<std::size_t>{heads, first.size(), first[0].size()})) << name;
    std::size_t i = 0;
    for (std::size_t h = 0; h < heads; ++h) {
      for (const auto& row : json["heads"][h][name]) {
        for (const auto& value : row) EXPECT_EQ(float_at(npy, i++), value.get<float>()) << name << " value " << i - 1;
      }
    }
  }
  const Npy output = read_npy(dir_ / "arrays" / "output.npy");
  ASSERT_EQ(output.shape.size(), 2u);
  EXPECT_EQ(output.shape[0], json["output"].size());
  EXPECT_EQ(float_at(output, 1), json["output"][0][1].get<float>());
  const Npy mask = read_npy(dir_ / "arrays" / "mask.npy");
  EXPECT_EQ(mask.descr, "|u1");
  ASSERT_EQ(mask.data.size(), mask.shape[0] * mask.shape[1]);
  EXPECT_EQ(mask.data[1], json["mask"][0][1].get<int>() != 0 ? 1 : 0);
}

TEST_F(ComputeOutput, HeadsSelectsTheHeadsWritten) {
  const auto all = run_attnviz("compute --scenario preset:gqa");
  const auto some = run_attnviz("compute --scenario preset:gqa --heads 1,0");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  ASSERT_EQ(some.exit_code, 0) << some.err;
  const auto full = nlohmann::json::parse(all.out);
  const auto picked = nlohmann::json::parse(some.out);
  ASSERT_EQ(picked["heads"].size(), 2u);
  EXPECT_EQ(picked["heads"][0]["head"], 1);
  EXPECT_EQ(picked["heads"][0]["weights"], full["heads"][1]["weights"]);
  EXPECT_EQ(picked["heads"][1]["head"], 0);
  EXPECT_EQ(picked["heads"][1]["scores"], full["heads"][0]["scores"]);
  EXPECT_EQ(picked["output"], full["output"]);      // every head is computed: the output needs them
  EXPECT_FALSE(full["heads"][0].contains("head"));  // without --heads the file is as it always was

  const auto missing = run_attnviz("compute --scenario preset:gqa --heads 99");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("--heads: head 99 does not exist"), std::string::npos) << missing.err;
  EXPECT_EQ(run_attnviz("compute --scenario preset:gqa --heads 0,x").exit_code, 2);
  EXPECT_EQ(run_attnviz("compute --scenario preset:gqa --heads 1,1").exit_code, 2);
}

TEST_F(ComputeOutput, AReadOnlyOutFileIsRefusedNotReplaced) {
  const auto path = dir_ / "keep.json";
  std::ofstream(path) << "mine";
  std::filesystem::permissions(path, std::filesystem::perms::owner_read);
  const auto run = run_attnviz("compute --scenario preset:gqa --out " + path.string());
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("--out: cannot write " + path.string() + ": the file is read-only"), std::string::npos)
      << run.err;
  EXPECT_EQ(testing::read_text(path), "mine");
}

TEST_F(ComputeOutput, AFullDiskIsBadInputNamingOut) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  const auto run = run_attnviz("compute --scenario preset:gqa --out /dev/full");
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("--out: cannot write /dev/full: no space left on device"), std::string::npos) << run.err;
}

// SIGTERM (or Ctrl+C) while the result is written left a 100-200 MB out.json.tmp-PID-0 behind.
TEST_F(ComputeOutput, ASignalWhileWritingLeavesNoTemporaryFile) {
  const std::string scenario = long_scenario(2048, 1);
  const std::string out = (dir_ / "out.json").string();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl(ATTNVIZ_BIN, ATTNVIZ_BIN, "compute", "--scenario", scenario.c_str(), "--out", out.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  const auto has_temporary = [&] {
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
      if (entry.path().filename().string().starts_with("out.json.tmp-")) return true;
    }
    return false;
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!has_temporary() && std::chrono::steady_clock::now() < deadline) ::usleep(2000);
  ASSERT_TRUE(has_temporary()) << "compute never began writing";
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_FALSE(has_temporary());
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST_F(ComputeOutput, NpyNeedsAFolder) {
  const auto no_out = run_attnviz("compute --scenario preset:gqa --format npy");
  EXPECT_EQ(no_out.exit_code, 2);
  EXPECT_NE(no_out.err.find("--out: is required with --format npy"), std::string::npos) << no_out.err;
  std::ofstream(dir_ / "file") << "x";
  const auto file = run_attnviz("compute --scenario preset:gqa --format npy --out " + (dir_ / "file").string());
  EXPECT_EQ(file.exit_code, 2);
  EXPECT_NE(file.err.find("is a file; --format npy writes a folder"), std::string::npos) << file.err;
  EXPECT_EQ(run_attnviz("compute --scenario preset:gqa --format csv").exit_code, 2);
}

}  // namespace
}  // namespace attnviz
