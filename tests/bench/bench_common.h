#pragma once
// What the benchmark programs share: their deterministic inputs, the median of timed runs,
// comma lists on the command line and the host's name for the printed tables.

#include <functional>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "core/scenario/problem.h"

namespace attnviz::bench {

struct ProblemShape {
  int n = 0;      // tokens (self-attention: queries = keys)
  int heads = 8;  // query heads = key/value heads
  int d_k = 64;   // d_k = d_v
  int d_model = 512;
  float weight_scale = 0.0f;  // each weight uniform in ±weight_scale
};

// X and W_Q, W_K, W_V from a fixed LCG (X uniform in ±1), scale 1/√d_k, no mask: the same
// numbers on every run and machine.
Problem random_problem(const ProblemShape& shape);

// The median of `runs` timings of `work` in milliseconds, after one untimed run when
// `warm_up` (pipelines, buffers, caches).
// The options every attention benchmark takes: --sizes 128,512 --runs R --heads H --dk D
// --dmodel D --device I.
struct ShapeOptions {
  std::vector<int> sizes;
  int runs = 3;
  int heads = 8;
  int d_k = 64;
  int d_model = 512;
  std::optional<int> device;
};
// Reads one of those flags into `o`; false for any other flag.
bool read_shape_flag(ShapeOptions& o, const std::string& flag, const std::string& value);

double median_ms(int runs, const std::function<void()>& work, bool warm_up = true);
// Both works timed in turn, `runs` times each (a busy moment of the machine falls on both);
// their medians.
std::pair<double, double> interleaved_median_ms(int runs, const std::function<void()>& a,
                                                const std::function<void()>& b);

// "a,b,c" → {"a", "b", "c"}; "128,512" → {128, 512}.
std::vector<std::string> split(const std::string& text, char separator = ',');
std::vector<int> split_ints(const std::string& text);

// "model name" from /proc/cpuinfo, else "unknown CPU".
std::string cpu_model();

}  // namespace attnviz::bench
