#pragma once
// Runs the built attnviz binary as a user would, capturing exit code, stdout and stderr.

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace attnviz::testing {

struct CommandOutput {
  int exit_code = -1;
  std::string out;
  std::string err;
  long peak_rss_mib = 0;  // the command's peak resident memory (wait4's ru_maxrss)
};

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// A fresh directory under /tmp for one test, removed by the caller's fixture.
inline std::filesystem::path scratch_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("attnviz-test-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// For the memory tests: a causal scenario of `tokens` words with `heads` heads of width `d`
// (d_model 64), written into `dir` as h<heads>.json; its path.
inline std::string write_long_scenario(const std::filesystem::path& dir, int tokens, int heads, int d) {
  static const char* const kWords[] = {"the", "cat", "sat", "on", "a", "mat", "while", "rain"};
  std::string sentence;
  for (int i = 0; i < tokens; ++i) sentence += std::string(i ? " " : "") + kWords[(i * 7 + i / 8) % 8];
  const auto path = dir / ("h" + std::to_string(heads) + ".json");
  std::ofstream(path) << R"({"format": "attnviz-scenario/1", "sentence": ")" << sentence
                      << R"(", "d_model": 64, "num_heads": )" << heads << R"(, "d_k": )" << d << R"(, "d_v": )" << d
                      << R"(, "mask": {"causal": true}})";
  return path.string();
}

// That scenario's result in MiB: every head's scores and weights (tokens² floats each), its
// contexts (tokens × d) and the output (tokens × heads·d), float32.
inline double long_result_mib(int tokens, int heads, int d) {
  const double n = tokens;
  return (heads * n * (2.0 * n + d) + n * d * heads) * 4.0 / (1024.0 * 1024.0);
}

// `environment` is prefixed to the command line, e.g. "VK_DRIVER_FILES=/nonexistent".
inline CommandOutput run_attnviz(const std::string& arguments, const std::string& environment = "") {
  const auto dir = scratch_dir("run");
  const auto out_path = dir / "stdout";
  const auto err_path = dir / "stderr";
  const std::string command = environment + " '" ATTNVIZ_BIN "' " + arguments + " >'" + out_path.string() + "' 2>'" +
                              err_path.string() + "' </dev/null";
  // fork + exec + wait4 rather than std::system, so that the rusage is this command's alone.
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  CommandOutput output;
  output.peak_rss_mib = usage.ru_maxrss / 1024;
  output.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  output.out = read_text(out_path);
  output.err = read_text(err_path);
  std::filesystem::remove_all(dir);
  return output;
}

}  // namespace attnviz::testing
