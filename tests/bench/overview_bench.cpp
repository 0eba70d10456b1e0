// attnviz_overview_bench: the overview (core/overview) of long sequences, its rate against
// Eigen's own matrix products doing the same multiply-adds, and its extra memory, printed as a
// markdown table for the README. Not a test (no pass/fail): run it and read the figures.
//
//   attnviz_overview_bench [--cases 16384x8,65536x1] [--backends cpu,vulkan] [--masks none,causal,sinks,strided]
//                          [--positions none,rope,alibi] [--pool max] [--what weights] [--pixels 1024] [--dk 64] [--dmodel 64]
//                          [--runs 1] [--device N] [--reference on|off]
//
// How the multiply-adds are counted: the runners count d_k per score they compute, tile by tile
// (Overview::stats_macs for pass 1, pooling_macs for pass 2; tiles the mask hides entirely are
// skipped and not counted). With no mask and the weights, that is 2 · H · N² · d_k: every score
// is computed twice (pass 1 for m and l, pass 2 for the pooled weights). The projections
// (2 · H · N · d_model · d_k) are done inside the timed run but not counted.
//
// The reference ("Eigen GEMM"): Eigen's own product C = A · Bᵀ with A and B of 4096 × d_k
// (the same inner dimension as the scores) into a 4096 × 4096 C, on every thread Eigen uses,
// repeated for at least a second in the same run: its rate in multiply-adds per second gives
// "GEMM ms", the time the same multiply-adds take as plain matrix products; "vs GEMM" is the
// overview's time over that (the target is at most 1.5). A second reference multiplies the
// overview's own tile shapes (192 × d_k by d_k × 512, one product per thread at a time, no
// softmax and no pooling): "tile GEMM ms".
//
// Each case runs in a child process of its own, so that "extra RSS" is that case's peak
// resident memory (getrusage) less its resident memory just before the run, with the problem
// (X, W) already built: what the overview itself adds.

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/overview/overview.h"
#include "core/overview/overview_vulkan.h"
#include "core/scenario/positions.h"
#include "tests/bench/bench_common.h"

namespace attnviz::bench {
namespace {

struct Case {
  int n = 0;
  int heads = 1;
};

struct Options {
  std::vector<Case> cases = {{16384, 8}, {65536, 1}};
  std::vector<std::string> backends = {"cpu"};
  std::vector<std::string> masks = {"none", "causal"};
  std::vector<std::string> positions = {"none"};
  overview::Pooling pooling = overview::Pooling::Max;
  overview::Quantity quantity = overview::Quantity::Weights;
  int pixels = 1024;
  int d_k = 64;
  int d_model = 64;
  int runs = 1;
  std::optional<int> device;
  bool reference = true;
};

[[noreturn]] void usage(const std::string& flag) {
  std::fprintf(stderr, "bad option %s (see the comment at the top of overview_bench.cpp)\n", flag.c_str());
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) usage(flag);
    const std::string value = argv[i + 1];
    if (flag == "--cases") {
      o.cases.clear();
      for (const std::string& c : split(value)) {
        const std::vector<std::string> parts = split(c, 'x');
        if (parts.size() != 2) usage(flag);
        o.cases.push_back({std::stoi(parts[0]), std::stoi(parts[1])});
      }
    } else if (flag == "--backends") {
      o.backends = split(value);
    } else if (flag == "--masks") {
      o.masks = split(value);
    } else if (flag == "--positions") {
      o.positions = split(value);
    } else if (flag == "--pool") {
      o.pooling = overview::pooling_from_name(value).value_or(overview::Pooling::Max);
    } else if (flag == "--what") {
      o.quantity = overview::quantity_from_name(value).value_or(overview::Quantity::Weights);
    } else if (flag == "--pixels") {
      o.pixels = std::stoi(value);
    } else if (flag == "--dk") {
      o.d_k = std::stoi(value);
    } else if (flag == "--dmodel") {
      o.d_model = std::stoi(value);
    } else if (flag == "--runs") {
      o.runs = std::max(1, std::stoi(value));
    } else if (flag == "--device") {
      o.device = std::stoi(value);
    } else if (flag == "--reference") {
      o.reference = value != "off";
    } else {
      usage(flag);
    }
  }
  return o;
}

// The masks by name: none, causal, and two expressions held as runs: sinks (StreamingLLM: the
// first 4 keys and a causal window of 1024) and strided (the Sparse Transformer's, s = √N).
MaskSetting mask_named(const std::string& name, int n) {
  MaskSetting mask;
  const std::string stride = std::to_string(static_cast<int>(std::lround(std::sqrt(static_cast<double>(n)))));
  if (name == "causal")
    mask.causal = true;
  else if (name == "sinks")
    mask.expression = "k <= q && (k < 4 || q - k <= 1024)";
  else if (name == "strided")
    mask.expression = "k <= q && (q - k < " + stride + " || (q - k) % " + stride + " == 0)";
  else if (name != "none")
    throw std::invalid_argument("--masks: unknown mask '" + name + "' (none, causal, sinks, strided)");
  return mask;
}

// Deterministic inputs, scaled so that the scores stay moderate. Sinusoidal positions would
// only change X (already built), so the kinds that cost the overview work are RoPE and ALiBi.
Problem make_problem(const Options& o, const Case& c, const std::string& mask, const std::string& positions) {
  Problem p = random_problem({c.n, c.heads, o.d_k, o.d_model, 4.0f / std::sqrt(static_cast<float>(o.d_model))});
  p.mask = mask_named(mask, c.n);
  const std::optional<PositionalKind> kind = positional_kind_from_string(positions);
  if (!kind || *kind == PositionalKind::Sinusoidal) {
    throw std::invalid_argument("--positions: '" + positions + "' is not none, rope or alibi");
  }
  p.positional = *kind;
  return p;
}

double resident_mib() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0;
  long resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

double peak_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Multiply-adds per second of Eigen's own product A · Bᵀ (4096 × d_k each), on its threads.
double gemm_rate(int d_k) {
  const RowMajor a = RowMajor::Random(4096, d_k);
  const RowMajor b = RowMajor::Random(4096, d_k);
  RowMajor c(4096, 4096);
  c.noalias() = a * b.transpose();  // warm-up
  const auto start = Clock::now();
  int repeats = 0;
  while (seconds_since(start) < 1.0) {
    c.noalias() = a * b.transpose();
    ++repeats;
  }
  return 4096.0 * 4096.0 * d_k * repeats / seconds_since(start);
}

// The same, as the CPU overview multiplies: a 192 × d_k block by 512 keys, per thread.
double tile_gemm_rate(int d_k) {
  const RowMajor a = RowMajor::Random(8192, d_k);
  const RowMajor b = RowMajor::Random(8192, d_k);
  const auto start = Clock::now();
  long long products = 0;
  while (seconds_since(start) < 1.0) {
#pragma omp parallel reduction(+ : products)
    {
      RowMajor c(192, 512);
#pragma omp for schedule(dynamic, 1)
      for (int task = 0; task < 64; ++task) {
        for (int j = 0; j < 8192; j += 512) {
          c.noalias() = a.middleRows((task % 42) * 192, 192) * b.middleRows(j, 512).transpose();
          ++products;
        }
      }
    }
  }
  return 192.0 * 512.0 * d_k * static_cast<double>(products) / seconds_since(start);
}

struct Measured {
  double ms = 0.0;
  double macs = 0.0;
  double extra_mib = 0.0;
  std::string device;
  bool ok = false;
  char error[200] = {};
};

std::unique_ptr<overview::OverviewRunner> make_runner(const std::string& backend, const Options& o) {
  if (backend == "cpu") return overview::make_cpu_overview();
  vk::ContextOptions options;
  options.device_index = o.device;
  return overview::make_vulkan_overview(options);
}

// One case in this (child) process.
Measured measure(const Options& o, const Case& c, const std::string& mask, const std::string& positions,
                 const std::string& backend) {
  Measured m;
  try {
    const Problem p = make_problem(o, c, mask, positions);
    const auto runner = make_runner(backend, o);
    overview::OverviewRequest request;
    request.max_pixel_rows = request.max_pixel_cols = o.pixels;
    request.quantity = o.quantity;
    request.pooling = o.pooling;
    const double before = resident_mib();
    std::vector<double> times;
    overview::Overview result;
    for (int r = 0; r < o.runs; ++r) {
      const auto start = Clock::now();
      result = runner->run(p, request);
      times.push_back(seconds_since(start) * 1000.0);
    }
    std::sort(times.begin(), times.end());
    m.ms = times[times.size() / 2];
    m.macs = static_cast<double>(result.stats_macs + result.pooling_macs);
    m.extra_mib = peak_mib() - before;
    std::snprintf(m.error, sizeof m.error, "%s", result.device.c_str());
    m.ok = true;
  } catch (const std::exception& e) {
    std::snprintf(m.error, sizeof m.error, "%s", e.what());
  }
  return m;
}

// Runs `work` in a child process and returns what it wrote back.
template <class T, class Work>
T in_child(Work work) {
  int fds[2];
  if (pipe(fds) != 0) std::exit(1);
  const pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    const T value = work();
    const ssize_t written = write(fds[1], &value, sizeof value);
    _exit(written == static_cast<ssize_t>(sizeof value) ? 0 : 1);
  }
  close(fds[1]);
  T value{};
  const ssize_t got = read(fds[0], &value, sizeof value);
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (got != static_cast<ssize_t>(sizeof value)) std::fprintf(stderr, "a benchmark child failed (status %d)\n", status);
  return value;
}

struct Rates {
  double gemm = 0.0, tile = 0.0;
};

void print_row(const Options& o, const Rates& rates, const Case& c, const std::string& label,
               const std::string& backend, const Measured& m) {
  if (!m.ok) {
    std::printf("| %d | %d | %s | %s | failed: %s | | | | | | | |\n", c.n, c.heads, label.c_str(), backend.c_str(),
                m.error);
    std::fflush(stdout);
    return;
  }
  const bool reference = backend == "cpu" && o.reference;
  const double gemm_ms = rates.gemm > 0 ? m.macs / rates.gemm * 1000.0 : 0.0;
  const double tile_ms = rates.tile > 0 ? m.macs / rates.tile * 1000.0 : 0.0;
  std::printf("| %d | %d | %s | %s | %s | %.0f | %.3g | %.1f | %s | %s | %s | %.0f MiB |\n", c.n, c.heads,
              label.c_str(), backend.c_str(), m.error, m.ms, m.macs, 2.0 * m.macs / (m.ms * 1e6),
              reference ? std::to_string(static_cast<int>(gemm_ms)).c_str() : "–",
              reference ? (std::to_string(m.ms / gemm_ms).substr(0, 4) + "×").c_str() : "–",
              reference ? std::to_string(static_cast<int>(tile_ms)).c_str() : "–", m.extra_mib);
  std::fflush(stdout);
}

}  // namespace
}  // namespace attnviz::bench

int main(int argc, char** argv) {
  using namespace attnviz;
  using namespace attnviz::bench;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a line at a time: a run stopped by a timeout keeps its rows
  const Options o = parse(argc, argv);
  if (std::find(o.backends.begin(), o.backends.end(), "vulkan") != o.backends.end()) {
    struct Name {
      char text[256];
    };
    const Name device = in_child<Name>([&] {
      Name name{};
      try {
        vk::ContextOptions options;
        options.device_index = o.device;
        std::snprintf(name.text, sizeof name.text, "%s", vk::Context::create(options)->device_name().c_str());
      } catch (const std::exception& e) {
        std::snprintf(name.text, sizeof name.text, "none (%s)", e.what());
      }
      return name;
    });
    std::printf("Device: %s\n", device.text);
  }
  const Rates rates = o.reference ? in_child<Rates>([&] {
    return Rates{gemm_rate(o.d_k), tile_gemm_rate(o.d_k)};
  })
                                  : Rates{};
  std::printf("d_k = %d, d_model = %d, %s of %s per block, at most %d x %d pixels; median of %d run(s)\n", o.d_k,
              o.d_model, overview::pooling_name(o.pooling), overview::quantity_name(o.quantity), o.pixels, o.pixels,
              o.runs);
  if (o.reference) {
    std::printf(
        "Eigen GEMM (4096 x %d by %d x 4096, Eigen's threads): %.1f GFLOP/s; the overview's tile shapes: %.1f GFLOP/s\n",
        o.d_k, o.d_k, 2e-9 * rates.gemm, 2e-9 * rates.tile);
  }
  std::printf(
      "\n| N | heads | mask | backend | device | ms | score multiply-adds | GFLOP/s | GEMM ms | vs GEMM | tile GEMM ms | extra RSS |\n");
  std::printf("|---:|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const Case& c : o.cases) {
    for (const std::string& mask_name : o.masks) {
      for (const std::string& positions : o.positions) {
        const std::string label = positions == "none" ? mask_name : mask_name + " + " + positions;
        for (const std::string& backend : o.backends) {
          const Measured m = in_child<Measured>([&] { return measure(o, c, mask_name, positions, backend); });
          print_row(o, rates, c, label, backend, m);
        }
      }
    }
  }
  return 0;
}
