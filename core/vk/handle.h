#pragma once
// Move-only owners for Vulkan objects: exactly one owner per object, destroyed with the device
// that made it. Buffers (with their memory) live in buffer.h.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <utility>

#include "core/vk/check.h"

namespace attnviz::vk {

// Destroy: void(VkDevice, T, const VkAllocationCallbacks*), e.g. vkDestroyPipeline.
template <typename T, auto Destroy>
class DeviceHandle {
 public:
  DeviceHandle() = default;
  DeviceHandle(VkDevice device, T handle) : device_(device), handle_(handle) {}
  ~DeviceHandle() { reset(); }

  DeviceHandle(const DeviceHandle&) = delete;
  DeviceHandle& operator=(const DeviceHandle&) = delete;
  DeviceHandle(DeviceHandle&& other) noexcept
      : device_(std::exchange(other.device_, VK_NULL_HANDLE)), handle_(std::exchange(other.handle_, VK_NULL_HANDLE)) {}
  DeviceHandle& operator=(DeviceHandle&& other) noexcept {
    if (this != &other) {
      reset();
      device_ = std::exchange(other.device_, VK_NULL_HANDLE);
      handle_ = std::exchange(other.handle_, VK_NULL_HANDLE);
    }
    return *this;
  }

  [[nodiscard]] T get() const { return handle_; }
  [[nodiscard]] VkDevice device() const { return device_; }
  explicit operator bool() const { return handle_ != VK_NULL_HANDLE; }

  void reset() {
    if (handle_ != VK_NULL_HANDLE) Destroy(device_, handle_, nullptr);
    handle_ = VK_NULL_HANDLE;
  }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  T handle_ = VK_NULL_HANDLE;
};

// Every VkBuffer attnviz owns is destroyed through here and counted, so a cache of views onto
// buffers (the window's heatmap descriptor sets) can tell whether a handle it holds may have
// been destroyed, and perhaps reused by a new buffer, since it last looked.
void destroy_counted_buffer(VkDevice device, VkBuffer buffer, const VkAllocationCallbacks* allocator);
std::uint64_t destroyed_buffer_count();

using ShaderModule = DeviceHandle<VkShaderModule, vkDestroyShaderModule>;
using Pipeline = DeviceHandle<VkPipeline, vkDestroyPipeline>;
using PipelineLayout = DeviceHandle<VkPipelineLayout, vkDestroyPipelineLayout>;
using DescriptorSetLayout = DeviceHandle<VkDescriptorSetLayout, vkDestroyDescriptorSetLayout>;
using DescriptorPool = DeviceHandle<VkDescriptorPool, vkDestroyDescriptorPool>;
using CommandPool = DeviceHandle<VkCommandPool, vkDestroyCommandPool>;
using Fence = DeviceHandle<VkFence, vkDestroyFence>;
using Semaphore = DeviceHandle<VkSemaphore, vkDestroySemaphore>;
using QueryPool = DeviceHandle<VkQueryPool, vkDestroyQueryPool>;
using Sampler = DeviceHandle<VkSampler, vkDestroySampler>;
using BufferView = DeviceHandle<VkBufferView, vkDestroyBufferView>;
using DeviceMemory = DeviceHandle<VkDeviceMemory, vkFreeMemory>;
using RawBuffer = DeviceHandle<VkBuffer, destroy_counted_buffer>;

// Owners of instance-level and top-level objects, which have no VkDevice parent.
class InstanceOwner {
 public:
  InstanceOwner() = default;
  explicit InstanceOwner(VkInstance instance) : instance_(instance) {}
  ~InstanceOwner() { reset(); }
  InstanceOwner(const InstanceOwner&) = delete;
  InstanceOwner& operator=(const InstanceOwner&) = delete;
  InstanceOwner(InstanceOwner&& other) noexcept : instance_(std::exchange(other.instance_, VK_NULL_HANDLE)) {}
  InstanceOwner& operator=(InstanceOwner&& other) noexcept {
    if (this != &other) {
      reset();
      instance_ = std::exchange(other.instance_, VK_NULL_HANDLE);
    }
    return *this;
  }
  [[nodiscard]] VkInstance get() const { return instance_; }
  void reset() {
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
  }

 private:
  VkInstance instance_ = VK_NULL_HANDLE;
};

class DeviceOwner {
 public:
  DeviceOwner() = default;
  explicit DeviceOwner(VkDevice device) : device_(device) {}
  ~DeviceOwner() { reset(); }
  DeviceOwner(const DeviceOwner&) = delete;
  DeviceOwner& operator=(const DeviceOwner&) = delete;
  DeviceOwner(DeviceOwner&& other) noexcept : device_(std::exchange(other.device_, VK_NULL_HANDLE)) {}
  DeviceOwner& operator=(DeviceOwner&& other) noexcept {
    if (this != &other) {
      reset();
      device_ = std::exchange(other.device_, VK_NULL_HANDLE);
    }
    return *this;
  }
  [[nodiscard]] VkDevice get() const { return device_; }
  void reset() {
    if (device_ != VK_NULL_HANDLE) {
      check_or_report(vkDeviceWaitIdle(device_), "vkDeviceWaitIdle");
      vkDestroyDevice(device_, nullptr);
    }
    device_ = VK_NULL_HANDLE;
  }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
};

}  // namespace attnviz::vk
