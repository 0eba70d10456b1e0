#pragma once
// Results that stay in device buffers: what a backend that computes on a Vulkan device hands
// to whoever draws them (the window's heatmaps) without a host copy. Plain data: buffer
// handles, offsets and shapes; valid until that backend's next run.

#include <vulkan/vulkan.h>

#include <vector>

#include "core/attention/mask.h"

namespace attnviz {

struct DeviceMask;

// A row-major float32 matrix inside a device buffer. Element (r, c) is the float at byte
// offset + 4·(r·row_pitch + c); `range` bytes from `offset` cover the whole matrix.
struct DeviceMatrix {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize range = 0;
  int rows = 0;
  int cols = 0;
  int row_pitch = 0;  // floats from one row to the next (≥ cols)
  // The scores and weights of a result: the mask they were computed under, its global-token
  // table on the device, so that a drawer hatches with them rather than rebuilding the table.
  // Null for other matrices.
  const DeviceMask* mask = nullptr;
};

// A mask and the global-token table the shaders read (Mask::write_globals_table: RGBA32UI
// texels, `table` has a row of 4 uint32 per texel, bound at its offset).
struct DeviceMask {
  Mask mask;
  DeviceMatrix table;
};

struct DeviceHead {
  DeviceMatrix scores;   // N × M
  DeviceMatrix weights;  // N × M (after dropout, with dropout)
  DeviceMatrix context;  // N × d_v (a block of columns of the concatenated output)
  // With dropout only (else no buffer): the softmax's weights, and 1.0 / 0.0 for each weight
  // dropout kept / dropped, in the weights' layout (the same row pitch).
  DeviceMatrix weights_before_dropout;
  DeviceMatrix kept;
};

// Everything needed to draw a run's results without a host copy. All result buffers have
// STORAGE_BUFFER and UNIFORM_TEXEL_BUFFER usage.
struct DeviceResults {
  std::vector<DeviceHead> heads;
  DeviceMatrix output;  // N × (H·d_v or d_out)
  // The mask the results were computed under, as the shaders read it
  // (shaders/common/mask.glsl); every head's scores and weights point at it.
  DeviceMask mask;
};

}  // namespace attnviz
