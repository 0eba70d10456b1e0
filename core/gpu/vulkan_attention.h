#pragma once
// The Vulkan compute backend: the attention of a Problem computed by GLSL compute shaders
// on the chosen Vulkan device (lavapipe on machines without a GPU).
//
//   run(problem)        records one command buffer, submits it once and waits; the results
//                       stay in device buffers (device_results()) for the window
//   result()            host copy of the last run, read back on the first call after it into
//                       storage reused from run to run
//   compute(problem)    run() + a host copy (read_back_into() fills a given Result)
//
// Buffers grow geometrically and are reused: recomputing a problem of the same shape
// allocates nothing (allocation_count() stays put).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/attention/backend.h"
#include "core/attention/device_results.h"
#include "core/gpu/kernels.h"
#include "core/vk/context.h"

namespace attnviz::gpu {

// Set by whoever creates the backend.
struct VulkanAttentionOptions {
  // Replaces the workgroup and tile shapes chosen from the device's limits (tests use it to
  // run the GPU variants on lavapipe).
  std::optional<TileConfig> tiles;
  // Fragment shaders in later submissions on the same queue read the result buffers (the
  // window's heatmaps): each run then starts with a fragment → compute dependency (earlier
  // draws finish reading before the buffers are overwritten) and ends with a compute-write →
  // fragment-read barrier (later draws see the new values). Needs a queue that does graphics.
  bool results_drawn_by_fragment_shaders = false;
  // Told after each kernel's pipeline is built (the constructor builds them all).
  KernelProgress kernel_progress = nullptr;
};

class VulkanAttention final : public Backend {
 public:
  explicit VulkanAttention(std::shared_ptr<vk::Context> context, const VulkanAttentionOptions& options = {});
  ~VulkanAttention() override;

  [[nodiscard]] std::string name() const override { return "vulkan"; }
  [[nodiscard]] std::string device_name() const override;

  void run(const Problem& problem, const ComputeOptions& options = {}) override;
  [[nodiscard]] const Result& result() const override;
  // Reads back that head alone (its scores, weights and context), once per run.
  [[nodiscard]] const HeadResult& head_result(int head) const override;
  [[nodiscard]] const DeviceResults* device_results() const override;
  // GPU time of the last run (timestamps when the queue has them, else wall time), by stage.
  [[nodiscard]] const Timing& timing() const override;
  [[nodiscard]] std::uint64_t allocation_count() const override;
  // run() + read_back_into(result), with the read-back as a timed stage.
  void compute_into(const Problem& problem, const ComputeOptions& options, Result& result) override;

  // A fresh host copy of the last run (read_back_into() reuses `result`'s storage).
  [[nodiscard]] Result read_back() const;
  void read_back_into(Result& result) const;

  [[nodiscard]] const vk::Context& context() const;
  // Dispatches recorded by the last run (more than one per stage when limits split it).
  [[nodiscard]] std::size_t last_dispatch_count() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace attnviz::gpu

namespace attnviz {

// A VulkanAttention on `context`, or on a headless context made from `options`. Throws
// BackendUnavailable (no driver or device: the message says what was tried and how to
// install one) or InputError (a bad --device index).
std::unique_ptr<Backend> make_vulkan_backend(std::shared_ptr<vk::Context> context,
                                             const gpu::VulkanAttentionOptions& attention = {});
std::unique_ptr<Backend> make_vulkan_backend(const vk::ContextOptions& options = {});

}  // namespace attnviz
