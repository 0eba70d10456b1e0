#pragma once
// Results that stay in device buffers: what a backend that computes on a Vulkan device hands
// to whoever draws them (the window's heatmaps) without a host copy. Plain data: buffer
// handles, offsets and shapes; valid until that backend's next run.

#include <vulkan/vulkan.h>

#include <vector>

#include "core/attention/mask.h"

namespace attnviz {

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

// Everything needed to draw a run's results without a host copy. All result buffers have
// STORAGE_BUFFER and UNIFORM_TEXEL_BUFFER usage.
struct DeviceResults {
  std::vector<DeviceHead> heads;
  DeviceMatrix output;  // N × (H·d_v or d_out)
  // The mask the results were computed under, and its global-token table on the device
  // (Mask::write_globals_table: RGBA32UI texels, a row of 4 uint32 per texel), as the shaders
  // read them (shaders/common/mask.glsl).
  Mask mask;
  DeviceMatrix globals;
};

}  // namespace attnviz
