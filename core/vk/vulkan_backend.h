#pragma once
// The Vulkan compute backend: the attention of a Problem computed by GLSL compute shaders
// on the chosen Vulkan device (lavapipe on machines without a GPU).
//
//   compute(problem)            run() + read_back(): the Result on the host
//   run(problem)                records one command buffer, submits it once and waits; the
//                               results stay in device buffers (device_results()) for the window
//   read_back()                 host copy of the last run, only when asked (read_back_into()
//                               reuses a Result's storage)
//
// Buffers grow geometrically and are reused: recomputing a problem of the same shape
// allocates nothing (allocation_count() stays put).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/attention/backend.h"
#include "core/attention/mask.h"
#include "core/vk/context.h"
#include "core/vk/kernels.h"

namespace attnviz::vk {

// A row-major float32 matrix inside a device buffer. Element (r, c) is the float at byte
// offset + 4·(r·row_pitch + c); `range` bytes from `offset` cover the whole matrix.
struct DeviceMatrix {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize range = 0;
  int rows = 0;
  int cols = 0;
  int row_pitch = 0;  // floats from one row to the next (≥ cols)
};

struct DeviceHead {
  DeviceMatrix scores;   // N × M
  DeviceMatrix weights;  // N × M
  DeviceMatrix context;  // N × d_v (a block of columns of the concatenated output)
};

// Everything the window needs to draw the last run's results without a host copy.
struct DeviceResultView {
  std::vector<DeviceHead> heads;
  DeviceMatrix output;  // N × (H·d_v or d_out)
  // The mask the results were computed under, and its global-token table on the device
  // (Mask::write_globals_table: RGBA32UI texels, one row of 4 uint32 per texel), as the
  // shaders read them (shaders/common/mask.glsl).
  Mask mask;
  DeviceMatrix globals;
};

class VulkanAttention final : public Backend {
 public:
  // `tiles` replaces the workgroup and tile shapes chosen from the device's limits (tests use
  // it to run the GPU variants on lavapipe).
  explicit VulkanAttention(std::shared_ptr<Context> context, std::optional<TileConfig> tiles = std::nullopt);
  ~VulkanAttention() override;

  [[nodiscard]] std::string name() const override { return "vulkan"; }
  [[nodiscard]] std::string device_name() const override;
  void compute_into(const Problem& problem, const ComputeOptions& options, Result& result) override;

  void run(const Problem& problem, const ComputeOptions& options = {});
  [[nodiscard]] DeviceResultView device_results() const;
  [[nodiscard]] Result read_back() const;
  void read_back_into(Result& result) const;  // reusing `result`'s storage

  // Device memory allocations and buffer creations so far (the zero-allocation tests).
  [[nodiscard]] std::uint64_t allocation_count() const;
  // GPU time of the last run (timestamps when the queue has them, else wall time), by stage.
  [[nodiscard]] const Timing& last_timing() const;
  [[nodiscard]] const Context& context() const;
  // Dispatches recorded by the last run (more than one per stage when limits split it).
  [[nodiscard]] std::size_t last_dispatch_count() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace attnviz::vk

namespace attnviz {

// A VulkanAttention on `context`, or on a headless context made from `options`. Throws
// BackendUnavailable (no driver or device: the message says what was tried and how to
// install one) or InputError (a bad --device index).
std::unique_ptr<Backend> make_vulkan_backend(std::shared_ptr<vk::Context> context);
std::unique_ptr<Backend> make_vulkan_backend(const vk::ContextOptions& options = {});

}  // namespace attnviz
