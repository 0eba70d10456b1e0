// attnviz_train_bench: the training step of core/train (forward, backward, AdamW) on one GPT-2
// shape and batch, against PyTorch's on the same shape and batch in the same run, against Eigen's
// bare products at the model's shapes, and its peak memory against what it must hold. Not a test:
// it prints a markdown table for the README.
//
//   attnviz_train_bench [--layers 2] [--heads 4] [--d-model 64] [--context 32] [--batch 32]
//                       [--runs 20] [--threads N] [--python python3] [--torch-script PATH]
//
// FLOPs per step count the matrix products only (forward 2·m·k·n each, backward twice that,
// attention's q·kᵀ and weights·v over the full T×T): the GELU, LayerNorm, softmax and AdamW work
// is left out, so the rate is a lower bound of what the step does.

#include <omp.h>
#include <sys/resource.h>

#include <Eigen/Core>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/train/eigen_maps.h"
#include "core/train/gpt2.h"
#include "core/train/optimizer.h"
#include "core/train/tasks.h"
#include "tests/bench/bench_common.h"

namespace attnviz::bench {
namespace {

using train::RowMatrix;

struct Options {
  train::ModelShape shape{.layers = 2, .heads = 4, .d_model = 64, .positions = 32, .vocab = 256};
  int batch = 32;
  int runs = 20;
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::string python = "/usr/bin/python3";
  std::string torch_script = ATTNVIZ_TRAIN_BENCH_TORCH_SCRIPT;
};

// The matrix products of one step: (m, k, n) for forward; backward does two of each.
std::vector<std::array<long, 3>> products(const Options& o) {
  const long N = static_cast<long>(o.batch) * o.shape.positions, C = o.shape.d_model, V = o.shape.vocab;
  std::vector<std::array<long, 3>> p;
  for (int l = 0; l < o.shape.layers; ++l) {
    p.push_back({N, C, 3 * C});
    p.push_back({N, C, C});
    p.push_back({N, C, 4 * C});
    p.push_back({N, 4 * C, C});
  }
  p.push_back({N, C, V});
  return p;
}

double step_flops(const Options& o) {
  double flops = 0.0;
  for (const auto& [m, k, n] : products(o)) flops += 6.0 * static_cast<double>(m * k * n);  // forward 2, backward 4
  const double T = o.shape.positions;
  flops += 6.0 * 2.0 * o.batch * o.shape.layers * T * T * o.shape.d_model;  // q·kᵀ and weights·v
  return flops;
}

// Eigen's bare products at the step's shapes (forward and both backward products), in ms.
double bare_gemm_ms(const Options& o) {
  std::vector<std::array<RowMatrix, 3>> operands;
  for (const auto& [m, k, n] : products(o)) {
    operands.push_back({RowMatrix::Random(m, k), RowMatrix::Random(k, n), RowMatrix::Zero(m, n)});
  }
  return median_ms(o.runs, [&] {
    for (auto& [a, b, c] : operands) {
      c.noalias() = a * b;
      a.noalias() += c * b.transpose();
      b.noalias() += a.transpose() * c;
    }
  });
}

double torch_ms(const Options& o) {
  const std::string command = o.python + " " + o.torch_script + " " + std::to_string(o.shape.layers) + " " +
                              std::to_string(o.shape.heads) + " " + std::to_string(o.shape.d_model) + " " +
                              std::to_string(o.shape.positions) + " " + std::to_string(o.batch) + " " +
                              std::to_string(o.shape.vocab) + " " + std::to_string(o.threads) + " " +
                              std::to_string(o.runs) + " 2>/dev/null";
  const std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  double ms = -1.0;
  if (pipe && std::fscanf(pipe.get(), "%lf", &ms) != 1) ms = -1.0;
  return ms;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--layers")
      o.shape.layers = std::stoi(value);
    else if (flag == "--heads")
      o.shape.heads = std::stoi(value);
    else if (flag == "--d-model")
      o.shape.d_model = std::stoi(value);
    else if (flag == "--context")
      o.shape.positions = std::stoi(value);
    else if (flag == "--batch")
      o.batch = std::stoi(value);
    else if (flag == "--runs")
      o.runs = std::stoi(value);
    else if (flag == "--threads")
      o.threads = std::stoi(value);
    else if (flag == "--python")
      o.python = value;
    else if (flag == "--torch-script")
      o.torch_script = value;
    else {
      std::fprintf(stderr, "unknown option %s\n", flag.c_str());
      std::exit(2);
    }
  }
  return o;
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  omp_set_num_threads(o.threads);
  Eigen::setNbThreads(o.threads);
  const int T = o.shape.positions;
  train::Gpt2 model(o.shape, o.batch, T);
  model.initialise(1);
  train::OptimizerSettings settings;
  train::Optimizer optimizer(settings, model.layout());
  train::InductionTask task(26, T, 1);
  train::Batch batch(o.batch, T);
  long step = 0;
  const double ours = median_ms(o.runs, [&] {
    task.fill(batch, step);
    model.zero_gradients();
    model.forward(batch.inputs, batch.targets);
    model.backward();
    optimizer.update(model.parameters(), model.gradients(), step++);
  });
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double peak_mib = static_cast<double>(usage.ru_maxrss) / 1024.0;
  const double held_mib = (4.0 * static_cast<double>(model.parameters().size()) * sizeof(float) +
                           static_cast<double>(model.activation_bytes())) /
                          (1024.0 * 1024.0);
  const double gemm = bare_gemm_ms(o);
  const double torch = torch_ms(o);
  const double tokens = static_cast<double>(o.batch) * T;
  const double flops = step_flops(o);
  std::printf("%s, %d threads; GPT-2 %d layers, %d heads, d_model %d, context %d, batch %d (%zu parameters)\n\n",
              cpu_model().c_str(), o.threads, o.shape.layers, o.shape.heads, o.shape.d_model, T, o.batch,
              model.parameters().size());
  std::printf("| | step (ms) | tokens/s | GFLOP/s (products) |\n|---|---|---|---|\n");
  std::printf("| attnviz train (Eigen, by hand) | %.2f | %.0f | %.2f |\n", ours, tokens / ours * 1e3,
              flops / ours / 1e6);
  if (torch > 0) {
    std::printf("| PyTorch %s (float32, autograd) | %.2f | %.0f | %.2f |\n", "CPU", torch, tokens / torch * 1e3,
                flops / torch / 1e6);
  } else {
    std::printf("| PyTorch | (not run: %s %s failed) | | |\n", o.python.c_str(), o.torch_script.c_str());
  }
  std::printf("| Eigen's bare products at the same shapes | %.2f | | %.2f |\n", gemm, flops / gemm / 1e6);
  std::printf(
      "\npeak resident memory %.1f MiB; weights + gradients + 2 moments + activations (and their gradients) "
      "%.1f MiB\n",
      peak_mib, held_mib);
  return 0;
}

}  // namespace
}  // namespace attnviz::bench

int main(int argc, char** argv) { return attnviz::bench::run(argc, argv); }
