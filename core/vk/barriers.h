#pragma once
// Every pipeline barrier attnviz records, in one place. Compute-to-compute hazards use global
// memory barriers (cheaper to reason about than per-buffer ones, and as fast on every driver).

#include <vulkan/vulkan.h>

#include <span>

namespace attnviz::vk::barriers {

// A compute pass reads (or overwrites) what an earlier compute pass wrote.
void compute_to_compute(VkCommandBuffer cmd);

// Shaders read what vkCmdCopyBuffer / vkCmdFillBuffer / vkCmdUpdateBuffer wrote.
void transfer_to_compute(VkCommandBuffer cmd);

// vkCmdCopyBuffer reads what shaders wrote (read-back through a staging buffer).
void compute_to_transfer(VkCommandBuffer cmd);

// The host reads (after the fence) what shaders or copies wrote.
void device_to_host(VkCommandBuffer cmd);

// A later submission on the same queue draws from these buffers in a fragment shader (the
// heatmaps): compute writes become visible to fragment-shader reads.
void compute_to_fragment(VkCommandBuffer cmd, std::span<const VkBuffer> buffers);

// A recompute overwrites buffers that draws submitted earlier on the same queue may still be
// reading (write-after-read: an execution dependency suffices).
void fragment_to_compute(VkCommandBuffer cmd);

// Transfers (copies, fills) wait for earlier shader reads and writes of the same buffers, so a
// new upload never races the previous recompute.
void compute_to_transfer_write(VkCommandBuffer cmd);

}  // namespace attnviz::vk::barriers
