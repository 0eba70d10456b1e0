#pragma once
// Every VkResult goes through check(): a failure becomes a VulkanError whose message names the
// call and the result, e.g. "vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY".

#include <vulkan/vulkan.h>

#include <stdexcept>
#include <string>

namespace attnviz::vk {

class VulkanError : public std::runtime_error {
 public:
  VulkanError(const std::string& call, VkResult result);
  [[nodiscard]] VkResult result() const { return result_; }

 private:
  VkResult result_;
};

// "VK_ERROR_OUT_OF_DEVICE_MEMORY", or "VkResult(-42)" for codes this build does not know.
std::string result_name(VkResult result);

// Throws VulkanError(call, result) unless result is VK_SUCCESS (or another non-error code).
inline void check(VkResult result, const char* call) {
  if (result < VK_SUCCESS) throw VulkanError(call, result);
}

// For destructors and other places that must not throw: a failure is written to stderr
// ("attnviz: vkDeviceWaitIdle failed: VK_ERROR_DEVICE_LOST") and otherwise ignored.
void check_or_report(VkResult result, const char* call) noexcept;

}  // namespace attnviz::vk
