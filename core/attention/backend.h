#pragma once
// The compute interface shared by the Eigen and Vulkan paths: a Problem goes in, results come
// out. Everything the window needs goes through it:
//
//   run(problem)         computes; the results stay with the backend until the next run
//                        (device buffers for Vulkan, host matrices for Eigen)
//   result()             the last run's results on the host (Vulkan reads them back on the
//                        first call after a run, into storage reused from run to run)
//   device_results()     the last run's results in device buffers, for drawing without a
//                        host copy (null for Eigen)
//   timing()             how long the last run took, by stage
//   allocation_count()   device buffers and memory allocated so far
//
// compute() and compute_into() (the command line, tests) are a run and a host copy in one.

#include <cstdint>
#include <memory>
#include <string>

#include "core/attention/device_results.h"
#include "core/attention/result.h"
#include "core/scenario/problem.h"

namespace attnviz {

struct ComputeOptions {
  // docs/design.md reports raw scores Q·Kᵀ for every (query, key) pair, masked or not, and the
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

  // Computes `problem`, keeping the results until the next run. A run that throws leaves no
  // result. A recompute of the same shape allocates no device memory (allocation_count()).
  virtual void run(const Problem& problem, const ComputeOptions& options = {}) = 0;
  // The last run's results on the host; throws std::logic_error when there is none.
  [[nodiscard]] virtual const Result& result() const = 0;
  // One head's host matrices of the last run: a device backend reads back only that head (the
  // window keeps on the host only what it draws). Throws as result() does.
  [[nodiscard]] virtual const HeadResult& head_result(int head) const {
    return result().heads.at(static_cast<std::size_t>(head));
  }
  // The last run's results in device buffers (valid until the next run), or null: the
  // backend computes on the host, or there is no result.
  [[nodiscard]] virtual const DeviceResults* device_results() const { return nullptr; }
  // How long the last run took, by stage (GPU timestamps for Vulkan when the queue has them).
  [[nodiscard]] virtual const Timing& timing() const = 0;
  // Device memory allocations and buffer creations so far (0 for a host backend).
  [[nodiscard]] virtual std::uint64_t allocation_count() const { return 0; }

  // A run whose host results go into `result`, reusing its matrices' storage when the shapes
  // match (a recompute of the same shape then allocates no host memory). A host backend then
  // keeps no result of its own (result() throws); a device backend keeps its device results.
  virtual void compute_into(const Problem& problem, const ComputeOptions& options, Result& result) = 0;

  Result compute(const Problem& problem, const ComputeOptions& options = {}) {
    Result result;
    compute_into(problem, options, result);
    return result;
  }
};

}  // namespace attnviz
