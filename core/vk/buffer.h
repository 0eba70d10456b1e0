#pragma once
// Buffer: one VkBuffer with its own VkDeviceMemory, move-only. Used for the attention
// workspace, the staging copies, and the window's heatmap uploads.

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>

#include "core/vk/handle.h"

namespace attnviz::vk {

class Context;

enum class MemoryKind {
  DeviceLocal,   // fastest for shaders; also mapped when the device shares host memory (CPU, UMA)
  HostUpload,    // host-visible, preferably coherent: staging for uploads, small uniform data
  HostReadback,  // host-visible, preferably cached: staging for read-back
};

class Buffer {
 public:
  Buffer() = default;
  // Throws VulkanError naming the failing call (vkCreateBuffer, vkAllocateMemory, ...).
  Buffer(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage, MemoryKind kind);

  // A buffer over `size` bytes of host memory at `data`, which the caller owns: no copy
  // (VK_EXT_external_memory_host; Context::host_import_alignment() is non-zero). `data` and
  // `size` are multiples of that alignment, and the memory outlives the buffer. Throws
  // VulkanError naming the failing call.
  static Buffer import_host(const Context& context, void* data, VkDeviceSize size, VkBufferUsageFlags usage);

  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() = default;

  [[nodiscard]] VkBuffer handle() const { return buffer_.get(); }
  [[nodiscard]] VkDeviceSize size() const { return size_; }
  [[nodiscard]] VkBufferUsageFlags usage() const { return usage_; }
  explicit operator bool() const { return static_cast<bool>(buffer_); }

  // Host access: non-null when the memory is host-visible (always for the Host* kinds).
  [[nodiscard]] bool host_visible() const { return mapped_ != nullptr; }
  [[nodiscard]] std::byte* mapped() const { return mapped_; }
  // Copies to or from mapped memory, flushing or invalidating when it is not coherent.
  void write(VkDeviceSize offset, const void* data, VkDeviceSize bytes) const;
  void read(VkDeviceSize offset, void* data, VkDeviceSize bytes) const;
  void flush() const;       // host writes → device (no-op when coherent)
  void invalidate() const;  // device writes → host (no-op when coherent)

 private:
  // The memory is freed after the buffer: members are destroyed bottom-up.
  DeviceMemory memory_;
  RawBuffer buffer_;
  VkDeviceSize size_ = 0;
  VkBufferUsageFlags usage_ = 0;
  std::byte* mapped_ = nullptr;
  bool coherent_ = true;
};

// Index of a memory type allowed by `type_bits` with all of `required` (and as many of
// `preferred` as possible), or -1.
int find_memory_type(const VkPhysicalDeviceMemoryProperties& memory, std::uint32_t type_bits,
                     VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred);

}  // namespace attnviz::vk
