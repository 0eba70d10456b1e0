#pragma once
// The compute interface shared by the Eigen and Vulkan paths: a Problem goes in, a Result
// comes out.

#include <memory>
#include <string>

#include "core/attention/result.h"
#include "core/scenario/problem.h"

namespace attnviz {

struct ComputeOptions {
  // DESIGN.md reports raw scores Q·Kᵀ for every (query, key) pair, masked or not, and the
  // raw-score heatmap shows them. When false, tiles the mask hides entirely are skipped in
  // the score pass too (the fast path for long causal or windowed sequences) and the raw
  // scores of masked entries read as 0. Weights, contexts and output are identical either way.
  bool scores_under_mask = true;
};

class Backend {
 public:
  virtual ~Backend() = default;
  Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  [[nodiscard]] virtual std::string name() const = 0;         // "cpu" or "vulkan"
  [[nodiscard]] virtual std::string device_name() const = 0;  // shown to users
  // Computes into `result`, reusing its matrices' storage when the shapes match: the window
  // recomputes on every edit, and a recompute of the same shape then allocates no host memory.
  virtual void compute_into(const Problem& problem, const ComputeOptions& options, Result& result) = 0;

  Result compute(const Problem& problem, const ComputeOptions& options = {}) {
    Result result;
    compute_into(problem, options, result);
    return result;
  }
};

}  // namespace attnviz
