// attnviz_bench: Vulkan vs Eigen vs a naive triple loop on the same Problems, printed as
// markdown tables for the README. Not a test (no pass/fail): run it and read the figures.
//
//   attnviz_bench [--sizes 128,512,1024,2048,4096] [--backends vulkan,eigen,naive]
//                 [--naive-max 1024] [--runs 5] [--heads 8] [--dk 64] [--dmodel 512] [--device N]
//
// The naive loops take minutes beyond N = 1024 (O(N²·d_k) per head on one thread), so they
// run only up to --naive-max.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <Eigen/Core>

#include "core/cpu/cpu_backend.h"
#include "core/gpu/vulkan_attention.h"
#include "tests/bench/bench_common.h"
#include "tests/bench/naive_attention.h"

namespace attnviz::bench {
namespace {

struct Options : ShapeOptions {
  Options() {
    sizes = {128, 512, 1024, 2048, 4096};
    runs = 5;
  }
  std::vector<std::string> backends = {"vulkan", "eigen", "naive"};
  int naive_max = 1024;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (read_shape_flag(o, flag, value)) continue;
    if (flag == "--backends") {
      o.backends = split(value);
    } else if (flag == "--naive-max") {
      o.naive_max = std::stoi(value);
    } else {
      std::fprintf(stderr, "unknown option %s (see the comment at the top of attention_bench.cpp)\n", flag.c_str());
      std::exit(2);
    }
  }
  return o;
}

bool wants(const Options& o, const std::string& backend) {
  return std::find(o.backends.begin(), o.backends.end(), backend) != o.backends.end();
}

// Deterministic inputs, scaled so that scores stay moderate.
Problem make_problem(const Options& o, int n, bool causal) {
  Problem p = random_problem({n, o.heads, o.d_k, o.d_model, 16.0f / static_cast<float>(o.d_model)});
  p.mask.causal = causal;
  return p;
}

struct Row {
  int n = 0;
  std::string mask;
  std::map<std::string, double> ms;  // backend → median ms (absent: not run)
};

std::string cell(const Row& row, const std::string& key, int precision = 1) {
  const auto it = row.ms.find(key);
  if (it == row.ms.end()) return "–";
  char text[32];
  std::snprintf(text, sizeof(text), "%.*f", precision, it->second);
  return text;
}

std::string ratio(const Row& row, const std::string& slow, const std::string& fast) {
  if (!row.ms.count(slow) || !row.ms.count(fast)) return "–";
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f×", row.ms.at(slow) / row.ms.at(fast));
  return text;
}

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The Eigen path's matrix products alone, with Eigen's own threads, for the same shapes: the
// projections X·W_Q, X·W_K, X·W_V, then per head Q_h·K_hᵀ and A_h·V_h. What the path takes
// beyond this is its softmax, masking and copying; the issue asks for at least 0.85 × this
// rate from N = 1,024. Returned as work to time beside the path's own recompute.
struct BareProducts {
  BareProducts(const Options& o, int n)
      : heads(o.heads),
        d_k(o.d_k),
        x(RowMajor::Random(n, o.d_model)),
        w(RowMajor::Random(o.d_model, o.heads * o.d_k)),
        q(n, o.heads * o.d_k),
        k(n, o.heads * o.d_k),
        v(n, o.heads * o.d_k),
        weights(n, n),
        context(n, o.d_k) {}
  void operator()() {
    q.noalias() = x * w;
    k.noalias() = x * w;
    v.noalias() = x * w;
    for (int h = 0; h < heads; ++h) {
      weights.noalias() = q.middleCols(h * d_k, d_k) * k.middleCols(h * d_k, d_k).transpose();
      context.noalias() = weights * v.middleCols(h * d_k, d_k);
    }
  }
  int heads, d_k;
  RowMajor x, w, q, k, v, weights, context;
};

}  // namespace
}  // namespace attnviz::bench

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a line at a time: a run stopped by a timeout keeps its rows
  using namespace attnviz;
  using namespace attnviz::bench;
  const Options o = parse(argc, argv);

  std::unique_ptr<gpu::VulkanAttention> vulkan;
  if (wants(o, "vulkan")) {
    vk::ContextOptions context_options;
    context_options.device_index = o.device;
    vulkan = std::make_unique<gpu::VulkanAttention>(vk::Context::create(context_options));
  }
  const auto eigen = make_cpu_backend();

  std::vector<Row> rows;
  for (const int n : o.sizes) {
    const double flop = 4.0 * n * static_cast<double>(n) * o.d_k * o.heads;
    for (const std::string mask : {"none", "causal", "causal, fast"}) {
      const Problem problem = make_problem(o, n, mask != "none");
      ComputeOptions options;
      options.scores_under_mask = mask != "causal, fast";
      Row row{n, mask, {}};
      const int runs = n >= 2048 ? std::max(1, o.runs / 2 + 1) : o.runs;
      // A recompute as the window makes one after an edit: into the same Result (host
      // memory touched before), after a warm-up (pipelines, buffers, caches).
      if (vulkan) {
        Result result;
        vulkan->compute_into(problem, options, result);
        row.ms["vulkan"] = median_ms(
            runs, [&] { vulkan->compute_into(problem, options, result); }, false);
        row.ms["vulkan-run"] = median_ms(
            runs, [&] { vulkan->run(problem, options); }, false);
        row.ms["vulkan-gpu"] = vulkan->timing().total_ms;
      }
      if (wants(o, "eigen")) {
        Result result;
        eigen->compute_into(problem, options, result);
        if (mask == "none") {
          // Timed in turn, so that the ratio compares like moments of a shared machine.
          BareProducts products(o, n);
          products();
          std::tie(row.ms["eigen"], row.ms["products"]) = interleaved_median_ms(
              runs, [&] { eigen->compute_into(problem, options, result); }, std::ref(products));
        } else {
          row.ms["eigen"] = median_ms(
              runs, [&] { eigen->compute_into(problem, options, result); }, false);
        }
      }
      if (wants(o, "naive") && n <= o.naive_max && mask != "causal, fast") {
        row.ms["naive"] = median_ms(
            n >= 1024 ? 1 : 3, [&] { (void)naive_attention(problem); }, false);
      }
      rows.push_back(row);
      std::fprintf(stderr, "N=%d %s: vulkan %s ms, eigen %s ms, naive %s ms\n", n, mask.c_str(),
                   cell(row, "vulkan").c_str(), cell(row, "eigen").c_str(), cell(row, "naive").c_str());
      // Where the Vulkan time goes (its last run's stages), to see which kernel to work on.
      if (vulkan) {
        std::fprintf(stderr, "  vulkan stages:");
        for (const auto& [stage, ms] : vulkan->timing().stages_ms)
          std::fprintf(stderr, " %s %.1f ms;", stage.c_str(), ms);
        std::fprintf(stderr, "\n");
      }
      (void)flop;
    }
  }

  std::printf("## Attention recompute: Vulkan vs Eigen vs naive loops\n\n");
  std::printf("- Vulkan device: %s\n", vulkan ? vulkan->device_name().c_str() : "(not run)");
  std::printf("- host: %s, %u hardware threads\n", cpu_model().c_str(), std::thread::hardware_concurrency());
  std::printf("- Eigen: %s\n- naive: textbook triple loops, 1 thread\n", eigen->device_name().c_str());
  std::printf("- %d heads, d_k = d_v = %d, d_model = %d, self-attention; median of up to %d runs after a warm-up\n",
              o.heads, o.d_k, o.d_model, o.runs);
  std::printf("- GFLOP/s counts 4·N²·d_k per head (Q·Kᵀ and A·V), the usual convention, also for causal masks\n");
  std::printf(
      "- \"ms\" is a full recompute into a Result kept from the last one (as the window recomputes after an\n"
      "  edit), read back to the host for Vulkan; \"run\" leaves it on the device (the window's path);\n"
      "  \"fast\" is scores_under_mask = false (scores the mask hides are not computed)\n\n");
  std::printf(
      "| N | mask | Vulkan ms | Vulkan GFLOP/s | Vulkan run ms | Eigen ms | Eigen GFLOP/s | naive ms | naive GFLOP/s | Vulkan vs Eigen | Vulkan vs naive |\n");
  std::printf("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const Row& row : rows) {
    const double flop = 4.0 * row.n * static_cast<double>(row.n) * o.d_k * o.heads;
    auto rate = [&](const std::string& key) {
      if (!row.ms.count(key)) return std::string("–");
      char text[32];
      std::snprintf(text, sizeof(text), "%.1f", flop / row.ms.at(key) / 1e6);
      return std::string(text);
    };
    std::printf("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", row.n, row.mask.c_str(),
                cell(row, "vulkan").c_str(), rate("vulkan").c_str(), cell(row, "vulkan-run").c_str(),
                cell(row, "eigen").c_str(), rate("eigen").c_str(), cell(row, "naive").c_str(), rate("naive").c_str(),
                ratio(row, "eigen", "vulkan").c_str(), ratio(row, "naive", "vulkan").c_str());
  }
  std::printf("\n\"Vulkan vs X\" is X's time over Vulkan's (above 1: Vulkan is faster).\n\n");

  std::printf(
      "## Eigen path against its bare matrix products: no mask\n\n"
      "\"products ms\": Eigen's products alone for the same shapes in the same run (projections, then Q·Kᵀ and\n"
      "A·V per head); \"share\" is products ms over Eigen ms (1 would be no cost beyond the products).\n\n"
      "| N | Eigen ms | Eigen GFLOP/s | products ms | share |\n|---:|---:|---:|---:|---:|\n");
  for (const Row& row : rows) {
    if (row.mask != "none" || !row.ms.count("eigen")) continue;
    const double flop = 4.0 * row.n * static_cast<double>(row.n) * o.d_k * o.heads;
    std::printf("| %d | %.1f | %.1f | %s | %s |\n", row.n, row.ms.at("eigen"), flop / row.ms.at("eigen") / 1e6,
                cell(row, "products").c_str(), ratio(row, "products", "eigen").c_str());
  }
  return 0;
}
