// attnviz train as a user runs it (ATTNVIZ_BIN): its errors (exit 2, naming what and where),
// Ctrl+C (saved, exit 130) and --resume, checkpoints that compute --model opens.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

namespace {

namespace fs = std::filesystem;

struct CommandRun {
  int exit_code;
  std::string output;  // standard output and standard error
};

CommandRun attnviz(const std::string& arguments) {
  const std::string command = std::string(ATTNVIZ_BIN) + " " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[4096];
  while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

class TrainCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("attnviz-train-cli-" + std::to_string(::getpid()) + "-" +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(folder_);
    fs::create_directories(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }
  fs::path folder_;
};

TEST_F(TrainCommand, ATextShorterThanOneBatchIsRefusedNamingTheFile) {
  std::ofstream(folder_ / "short.txt") << "안녕하세요";
  const CommandRun run = attnviz("train --task text --text-file " + (folder_ / "short.txt").string() + " --out " +
                                 (folder_ / "m").string());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.output.find("short.txt: --text-file: has 15 bytes"), std::string::npos) << run.output;
}

TEST_F(TrainCommand, OptionsTheTaskCannotUseAreRefused) {
  const std::string out = " --out " + (folder_ / "m").string();
  for (const char* bad :
       {"--task induction --vocab 95", "--task induction --context 6", "--task induction --init x",
        "--task induction --d-model 30 --heads 4", "--task text --text-file x --vocab 10", "--task words",
        "--task text --text-file x --init y --layers 3", "--task text --text-file x --init y --heads 2"}) {
    const CommandRun run = attnviz(std::string("train ") + bad + out);
    EXPECT_EQ(run.exit_code, 2) << bad << ": " << run.output;
    EXPECT_NE(run.output.find("<command line>: --"), std::string::npos) << bad << ": " << run.output;
  }
}

TEST_F(TrainCommand, AnInitFolderThatIsNoGpt2IsRefusedNamingIt) {
  std::ofstream(folder_ / "text.txt") << std::string(2000, 'a');
  fs::create_directories(folder_ / "empty");
  const CommandRun run = attnviz("train --task text --text-file " + (folder_ / "text.txt").string() + " --init " +
                                 (folder_ / "empty").string() + " --out " + (folder_ / "m").string());
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find((folder_ / "empty").string()), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(folder_ / "m"));
}

TEST_F(TrainCommand, ALossThatIsNotFiniteStopsNamingTheStepAndKeepsTheLastSavedModel) {
  const fs::path out = folder_ / "m";
  const CommandRun run = attnviz(
      "train --task induction --context 8 --batch 2 --d-model 16 --optimizer sgd --lr 1000000 "
      "--steps 50 --checkpoints 1 --threads 1 --out " +
      out.string());
  EXPECT_EQ(run.exit_code, 2) << run.output;
  const std::size_t at = run.output.find("<training>: step ");
  ASSERT_NE(at, std::string::npos) << run.output;
  const long failed = std::stol(run.output.substr(at + 17));
  EXPECT_NE(run.output.find("the loss is"), std::string::npos) << run.output;
  const auto state = nlohmann::json::parse(std::ifstream(out / "training_state.json"));
  EXPECT_EQ(state["step"].get<long>(), failed - 1);
  EXPECT_TRUE(fs::exists(out / "checkpoints" / ("step-" + std::to_string(failed - 1))));
  EXPECT_FALSE(fs::exists(out / "checkpoints" / ("step-" + std::to_string(failed))));
}

TEST_F(TrainCommand, CtrlCSavesAndResumeContinues) {
  const fs::path out = folder_ / "m";
  const std::string command = std::string(ATTNVIZ_BIN) +
                              " train --task induction --context 16 --batch 4 --steps 100000 --threads 1 --out " +
                              out.string();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    execl("/bin/sh", "sh", "-c", ("exec " + command + " >/dev/null 2>&1").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until it has taken a few steps (training.jsonl is written at the start and when it stops).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!fs::exists(out / "training_state.json") && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  kill(child, SIGINT);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const auto state = nlohmann::json::parse(std::ifstream(out / "training_state.json"));
  const long stopped_at = state["step"].get<long>();
  EXPECT_GT(stopped_at, 0);

  const CommandRun resumed = attnviz("train --resume " + out.string() + " --steps " + std::to_string(stopped_at + 3));
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  std::ifstream log(out / "training.jsonl");
  long lines = 0;
  long last = 0;
  for (std::string line; std::getline(log, line); ++lines) last = nlohmann::json::parse(line)["step"].get<long>();
  EXPECT_EQ(lines, stopped_at + 3);
  EXPECT_EQ(last, stopped_at + 3);
}

TEST_F(TrainCommand, EveryCheckpointOpensInComputeModel) {
  const fs::path out = folder_ / "m";
  const CommandRun run =
      attnviz("train --task induction --context 8 --batch 2 --d-model 16 --steps 4 --checkpoints 2 --threads 1 --out " +
              out.string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  for (const fs::path& model :
       {out, out / "checkpoints" / "step-0", out / "checkpoints" / "step-2", out / "checkpoints" / "step-4"}) {
    const CommandRun compute = attnviz("compute --model " + model.string() + " --text abcabc --layers 0");
    EXPECT_EQ(compute.exit_code, 0) << model << ": " << compute.output;
  }
  const CommandRun tokens = attnviz("tokenize --model " + out.string() + " --text 'ab 한'");
  EXPECT_NE(tokens.output.find("\"ids\":[97,98,32,237,149,156]"), std::string::npos) << tokens.output;
}

}  // namespace
