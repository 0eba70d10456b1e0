#pragma once
// Results to export, built by hand (independent of the scenario loader), and small helpers.

#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/cpu/cpu_backend.h"
#include "core/attention/mask.h"
#include "core/export/export.h"

namespace attnviz::testing {

// Four Korean tokens, X = I₄, W_Q with a single 10 at (2, 0) and W_K with a 1 at (1, 0): the raw
// scores S = W_Q·W_Kᵀ are 0 except S[2][1] = 10, so with scale 1/√4 query 2 puts weight
// e⁵/(e⁵ + 3) ≈ 0.980 on key 1 and every other row is uniform (0.25): one hot cell at (2, 1).
inline Problem hot_cell_problem(bool causal = false) {
  Problem p;
  p.tokens = p.source_tokens = {"어제", "밤에", "배가", "고파서"};
  p.x = Matrix(4, 4);
  for (int i = 0; i < 4; ++i) p.x.at(i, i) = 1.0f;
  p.xs = p.x;
  p.wq = Matrix(4, 4);
  p.wq.at(2, 0) = 10.0f;
  p.wk = Matrix(4, 4);
  p.wk.at(1, 0) = 1.0f;
  p.wv = Matrix(4, 2);
  for (int i = 0; i < 4; ++i) p.wv.at(i, 0) = static_cast<float>(i) - 1.5f;
  p.d_k = 4;
  p.d_v = 2;
  p.scale = 0.5f;
  p.mask.causal = causal;
  return p;
}

inline Result compute_cpu(const Problem& problem) { return make_cpu_backend()->compute(problem); }

inline exporting::ExportCaption caption_for(const Problem& problem) {
  Scenario scenario;
  scenario.title = "hot cell";
  scenario.d_model = problem.d_model();
  scenario.d_k = problem.d_k;
  scenario.mask = problem.mask;
  return exporting::describe_for_export(scenario, problem);
}

// A result with `heads` heads and `n` tokens named t0, t1, ... (causal), weights varying by cell.
inline Result synthetic_result(int n, int heads, bool causal = true) {
  Result result;
  result.backend = "cpu";
  result.device = "test";
  for (int i = 0; i < n; ++i) result.tokens.push_back("t" + std::to_string(i));
  result.source_tokens = result.tokens;
  MaskSetting setting;
  setting.causal = causal;
  result.mask = build_mask(setting, n, n);
  for (int h = 0; h < heads; ++h) {
    HeadResult head;
    head.scores = Matrix(n, n);
    head.weights = Matrix(n, n);
    head.context = Matrix(n, 3);
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) {
        head.scores.at(r, c) = static_cast<float>(r - c) * 0.5f + static_cast<float>(h);
        head.weights.at(r, c) = result.mask.at(r, c) ? 1.0f / static_cast<float>(r + 1) : 0.0f;
      }
      for (int c = 0; c < 3; ++c) head.context.at(r, c) = static_cast<float>(r * 3 + c) / 10.0f - 1.0f;
    }
    result.heads.push_back(std::move(head));
  }
  return result;
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A python3 that has numpy, or "" (the PATH's python3 may be a separate install without it).
inline std::string python_with_numpy() {
  for (const char* candidate : {"/usr/bin/python3", "python3"}) {
    const std::string command = std::string(candidate) + " -c 'import numpy' >/dev/null 2>&1";
    if (std::system(command.c_str()) == 0) return candidate;
  }
  return "";
}

// Runs a shell command, returning its exit status and standard output.
inline std::pair<int, std::string> run_shell(const std::string& command, const std::filesystem::path& scratch) {
  const auto out = scratch / "shell.out";
  const int status = std::system((command + " >'" + out.string() + "' 2>&1").c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out)};
}

}  // namespace attnviz::testing
