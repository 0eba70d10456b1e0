// attnviz_mask_bench: a mask given as an expression (docs/design.md "Mask expressions") against
// the same pattern given by the named fields, on the CPU (Eigen) and on the Vulkan device, side
// by side, printed as a markdown table for the README. The bar: at most 1.5× at
// N = 4096, 8 heads. Not a test (no pass/fail): run it and read the figures.
//
//   attnviz_mask_bench [--n 4096] [--runs 3] [--heads 8] [--dk 64] [--dmodel 512] [--window 64]
//                      [--device N]
//
// Each figure is a whole recompute: the Mask built (for an expression, its runs by bisection),
// projections, scores, softmax, context; Eigen into host matrices, Vulkan into its device
// buffers (run(), what the window does; no read-back). Both score modes: every raw score (the
// default) and --skip-masked-scores (hidden tiles skipped).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "core/cpu/cpu_backend.h"
#include "core/gpu/vulkan_attention.h"
#include "tests/bench/bench_common.h"

namespace attnviz::bench {
namespace {

struct Options {
  int n = 4096;
  int runs = 3;
  int heads = 8;
  int d_k = 64;
  int d_model = 512;
  int window = 64;
  std::optional<int> device;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const int value = std::stoi(argv[i + 1]);
    if (flag == "--n")
      o.n = value;
    else if (flag == "--runs")
      o.runs = std::max(1, value);
    else if (flag == "--heads")
      o.heads = value;
    else if (flag == "--dk")
      o.d_k = value;
    else if (flag == "--dmodel")
      o.d_model = value;
    else if (flag == "--window")
      o.window = value;
    else if (flag == "--device")
      o.device = value;
    else {
      std::fprintf(stderr, "unknown option %s (see the comment at the top of mask_expression_bench.cpp)\n",
                   flag.c_str());
      std::exit(2);
    }
  }
  return o;
}

// Deterministic inputs, scaled as the other benchmarks'.
Problem make_problem(const Options& o, const MaskSetting& mask) {
  Problem p = random_problem({o.n, o.heads, o.d_k, o.d_model, 16.0f / static_cast<float>(o.d_model)});
  p.mask = mask;
  return p;
}

double worst_difference(const Result& a, const Result& b) {
  double worst = 0.0;
  for (std::size_t h = 0; h < a.heads.size(); ++h) {
    for (std::size_t i = 0; i < a.heads[h].context.data.size(); ++i) {
      worst = std::max(worst, static_cast<double>(std::fabs(a.heads[h].context.data[i] - b.heads[h].context.data[i])));
    }
  }
  return worst;
}

struct Pattern {
  std::string name;
  MaskSetting fields;
  MaskSetting expression;
};

std::vector<Pattern> patterns(int r) {
  const std::string rs = std::to_string(r);
  auto fields = [](bool causal, std::optional<int> window, std::vector<int> global) {
    MaskSetting m;
    m.causal = causal;
    m.window = window;
    m.global = std::move(global);
    return m;
  };
  auto expression = [](std::string text, std::vector<int> global = {}) {
    MaskSetting m;
    m.expression = std::move(text);
    m.global = std::move(global);
    return m;
  };
  return {
      {"causal", fields(true, std::nullopt, {}), expression("k <= q")},
      {"sliding window " + rs, fields(true, r, {}), expression("k <= q && q - k <= " + rs)},
      {"sinks 4 + window " + rs, fields(true, r, {0, 1, 2, 3}), expression("k <= q && (k < 4 || q - k <= " + rs + ")")},
      {"Longformer " + rs + ", globals 0", fields(false, r, {0}),
       expression("abs(q - k) <= " + rs + " || global(q) || global(k)", {0})},
  };
}

}  // namespace
}  // namespace attnviz::bench

int main(int argc, char** argv) {
  using namespace attnviz;
  using namespace attnviz::bench;
  const Options o = parse(argc, argv);
  vk::ContextOptions context_options;
  context_options.device_index = o.device;
  const auto context = vk::Context::create(context_options);
  gpu::VulkanAttention vulkan(context);
  const auto eigen = make_cpu_backend();

  std::printf(
      "N = %d, %d heads, d_k = d_v = %d, d_model = %d; Eigen (%s) and Vulkan (%s); median of %d runs after a "
      "warm-up; a whole recompute, the mask's runs included\n\n",
      o.n, o.heads, o.d_k, o.d_model, eigen->device_name().c_str(), context->device_name().c_str(), o.runs);
  std::printf(
      "| pattern | raw scores | Eigen fields ms | Eigen expression ms | ratio | Vulkan fields ms | "
      "Vulkan expression ms | ratio | largest difference (Eigen) |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const Pattern& pattern : patterns(o.window)) {
    const Problem fields = make_problem(o, pattern.fields);
    const Problem expression = make_problem(o, pattern.expression);
    for (const bool all_scores : {true, false}) {
      ComputeOptions options;
      options.scores_under_mask = all_scores;
      Result a;
      Result b;
      const double eigen_fields = median_ms(o.runs, [&] { eigen->compute_into(fields, options, a); });
      const double eigen_expression = median_ms(o.runs, [&] { eigen->compute_into(expression, options, b); });
      const double vulkan_fields = median_ms(o.runs, [&] { vulkan.run(fields, options); });
      const double vulkan_expression = median_ms(o.runs, [&] { vulkan.run(expression, options); });
      std::printf("| %s | %s | %.0f | %.0f | %.2f× | %.0f | %.0f | %.2f× | %.0e |\n", pattern.name.c_str(),
                  all_scores ? "all" : "visible only", eigen_fields, eigen_expression, eigen_expression / eigen_fields,
                  vulkan_fields, vulkan_expression, vulkan_expression / vulkan_fields, worst_difference(a, b));
      std::fflush(stdout);
    }
  }
  return 0;
}
