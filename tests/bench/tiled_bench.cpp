// attnviz_tiled_bench: the tiled (FlashAttention-2) kernels against the materialised ones, on
// the CPU (Eigen) and on the Vulkan device, printed as a markdown table for the README. Not a
// test (no pass/fail): run it and read the figures.
//
//   attnviz_tiled_bench [--sizes 128,512,1024,2048] [--runs 3] [--heads 8] [--dk 64]
//                       [--dmodel 512] [--block B] [--device N]
//
// Every kernel computes the whole recompute (projections, attention, concatenation) into host
// memory: the dense ones every N × N matrix as well (the window needs them), the tiled ones
// only the contexts. Without --block the tiled runners choose their tile (tiled::TiledRunner::
// preferred_block: 64 on the CPU, the largest power of two the device's shared memory holds).
// Where the device offers fp16 cooperative matrices (tensor cores), the fp16 tiled kernel
// (shaders/tiled_attention_fp16.comp) runs beside them, in the table's last two columns.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cpu/cpu_backend.h"
#include "core/gpu/tiled_kernel.h"
#include "core/gpu/vulkan_attention.h"
#include "core/tiled/tiled_attention.h"
#include "tests/bench/bench_common.h"

namespace attnviz::bench {
namespace {

struct Options : ShapeOptions {
  Options() { sizes = {128, 512, 1024, 2048}; }
  std::optional<int> block;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (read_shape_flag(o, flag, value)) continue;
    if (flag == "--block") {
      o.block = std::stoi(value);
    } else {
      std::fprintf(stderr, "unknown option %s (see the comment at the top of tiled_bench.cpp)\n", flag.c_str());
      std::exit(2);
    }
  }
  return o;
}

// Deterministic inputs, scaled as attention_bench's.
Problem make_problem(const Options& o, int n, bool causal) {
  Problem p = random_problem({n, o.heads, o.d_k, o.d_model, 16.0f / static_cast<float>(o.d_model)});
  p.mask.causal = causal;
  return p;
}

// The largest difference between a tiled and the dense contexts (a check that both ran right).
double worst_difference(const Result& dense, const tiled::TiledResult& tiled) {
  double worst = 0.0;
  for (std::size_t h = 0; h < dense.heads.size(); ++h) {
    const std::vector<float>& a = dense.heads[h].context.data;
    const std::vector<float>& b = tiled.heads[h].context.data;
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, static_cast<double>(std::fabs(a[i] - b[i])));
  }
  return worst;
}

}  // namespace
}  // namespace attnviz::bench

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a line at a time: a run stopped by a timeout keeps its rows
  using namespace attnviz;
  using namespace attnviz::bench;
  const Options o = parse(argc, argv);
  vk::ContextOptions context_options;
  context_options.device_index = o.device;
  const auto context = vk::Context::create(context_options);
  gpu::VulkanAttention vulkan_dense(context);
  const auto vulkan_tiled = tiled::make_vulkan_tiled(context);
  const auto eigen_dense = make_cpu_backend();
  const auto eigen_tiled = tiled::make_cpu_tiled();
  const int cpu_block = o.block.value_or(eigen_tiled->preferred_block(o.d_k, o.d_k));
  const int gpu_block = o.block.value_or(vulkan_tiled->preferred_block(o.d_k, o.d_k));
  std::unique_ptr<tiled::TiledRunner> vulkan_fp16;
  if (context->matrix_cores().usable) {
    tiled::VulkanTiledOptions fp16;
    fp16.precision = tiled::TiledPrecision::Float16;
    vulkan_fp16 = tiled::make_vulkan_tiled(context, fp16);
  }
  const int fp16_block = vulkan_fp16 ? vulkan_fp16->preferred_block(o.d_k, o.d_k) : 0;

  std::printf(
      "Device: %s; %d heads, d_k = d_v = %d, d_model = %d; tiles: Eigen %d x %d, Vulkan %d x %d, fp16 %s; "
      "median of %d runs after a warm-up\n\n",
      context->device_name().c_str(), o.heads, o.d_k, o.d_model, cpu_block, cpu_block, gpu_block, gpu_block,
      vulkan_fp16 ? (std::to_string(fp16_block) + " x " + std::to_string(fp16_block)).c_str()
                  : ("not run: " + context->matrix_cores().reason).c_str(),
      o.runs);
  std::printf(
      "| N | mask | Eigen dense ms | Eigen tiled ms | tiled vs dense | Vulkan dense ms | Vulkan tiled ms | "
      "tiled vs dense | scores + weights held, dense | largest difference, Eigen / Vulkan | Vulkan fp16 tiled ms | "
      "largest difference, fp16 |\n");
  std::printf("|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|\n");
  for (const int n : o.sizes) {
    for (const bool causal : {false, true}) {
      const Problem problem = make_problem(o, n, causal);
      Result dense;
      tiled::TiledResult cpu_tiled;
      tiled::TiledResult gpu_tiled;
      Result gpu_dense;
      const double eigen_ms = median_ms(o.runs, [&] { eigen_dense->compute_into(problem, {}, dense); });
      const double eigen_tiled_ms = median_ms(o.runs, [&] {
        cpu_tiled = eigen_tiled->run(problem, {cpu_block, cpu_block, {}});
      });
      const double vulkan_ms = median_ms(o.runs, [&] { vulkan_dense.compute_into(problem, {}, gpu_dense); });
      const double vulkan_tiled_ms = median_ms(o.runs, [&] {
        gpu_tiled = vulkan_tiled->run(problem, {gpu_block, gpu_block, {}});
      });
      std::string fp16_columns = "n/a | n/a";
      if (vulkan_fp16) {
        tiled::TiledResult fp16_tiled;
        const double fp16_ms = median_ms(o.runs, [&] {
          fp16_tiled = vulkan_fp16->run(problem, {fp16_block, fp16_block, {}});
        });
        char text[64];
        std::snprintf(text, sizeof text, "%.1f | %.0e", fp16_ms, worst_difference(dense, fp16_tiled));
        fp16_columns = text;
      }
      const double dense_mib = 2.0 * o.heads * static_cast<double>(n) * n * 4.0 / (1024.0 * 1024.0);
      std::printf("| %d | %s | %.1f | %.1f | %.2f× | %.1f | %.1f | %.2f× | %.0f MiB | %.0e / %.0e | %s |\n", n,
                  causal ? "causal" : "none", eigen_ms, eigen_tiled_ms, eigen_ms / eigen_tiled_ms, vulkan_ms,
                  vulkan_tiled_ms, vulkan_ms / vulkan_tiled_ms, dense_mib, worst_difference(dense, cpu_tiled),
                  worst_difference(dense, gpu_tiled), fp16_columns.c_str());
      std::fflush(stdout);
    }
  }
  return 0;
}
