#include "tests/bench/bench_common.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>

namespace attnviz::bench {

Problem random_problem(const ProblemShape& shape) {
  std::uint64_t state = 12345;
  auto fill = [&](Matrix& m, float scale) {
    for (float& v : m.data) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      v = scale * (static_cast<float>(state >> 40) / static_cast<float>(1 << 24) * 2.0f - 1.0f);
    }
  };
  Problem p;
  p.tokens.assign(static_cast<std::size_t>(shape.n), "t");
  p.source_tokens = p.tokens;
  p.x = Matrix(shape.n, shape.d_model);
  fill(p.x, 1.0f);
  p.xs = p.x;
  p.num_heads = p.num_kv_heads = shape.heads;
  p.d_k = p.d_v = shape.d_k;
  for (Matrix* w : {&p.wq, &p.wk, &p.wv}) {
    *w = Matrix(shape.d_model, shape.heads * shape.d_k);
    fill(*w, shape.weight_scale);
  }
  p.scale = 1.0f / std::sqrt(static_cast<float>(shape.d_k));
  return p;
}

bool read_shape_flag(ShapeOptions& o, const std::string& flag, const std::string& value) {
  if (flag == "--sizes")
    o.sizes = split_ints(value);
  else if (flag == "--runs")
    o.runs = std::max(1, std::stoi(value));
  else if (flag == "--heads")
    o.heads = std::stoi(value);
  else if (flag == "--dk")
    o.d_k = std::stoi(value);
  else if (flag == "--dmodel")
    o.d_model = std::stoi(value);
  else if (flag == "--device")
    o.device = std::stoi(value);
  else
    return false;
  return true;
}

double median_ms(int runs, const std::function<void()>& work, bool warm_up) {
  if (warm_up) work();
  std::vector<double> times;
  for (int r = 0; r < std::max(runs, 1); ++r) {
    const auto start = std::chrono::steady_clock::now();
    work();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

std::pair<double, double> interleaved_median_ms(int runs, const std::function<void()>& a,
                                                const std::function<void()>& b) {
  std::vector<double> times_a, times_b;
  auto time = [](const std::function<void()>& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  for (int r = 0; r < std::max(runs, 1); ++r) {
    times_a.push_back(time(a));
    times_b.push_back(time(b));
  }
  std::sort(times_a.begin(), times_a.end());
  std::sort(times_b.begin(), times_b.end());
  return {times_a[times_a.size() / 2], times_b[times_b.size() / 2]};
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, separator);) parts.push_back(part);
  return parts;
}

std::vector<int> split_ints(const std::string& text) {
  std::vector<int> numbers;
  for (const std::string& part : split(text)) numbers.push_back(std::stoi(part));
  return numbers;
}

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) return line.substr(line.find(':') + 2);
  }
  return "unknown CPU";
}

}  // namespace attnviz::bench
