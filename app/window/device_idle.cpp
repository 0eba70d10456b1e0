#include "app/window/device_idle.h"

#include <cstdio>
#include <exception>
#include <string>

#include "core/vk/check.h"

namespace attnviz::window {

void wait_idle_or_report(VkDevice device, const char* who) noexcept {
  if (device == VK_NULL_HANDLE) return;
  const VkResult result = vkDeviceWaitIdle(device);
  if (result >= VK_SUCCESS) return;
  try {
    std::fprintf(stderr, "attnviz: vkDeviceWaitIdle failed while closing the %s: %s\n", who,
                 vk::result_name(result).c_str());
  } catch (const std::exception&) {  // result_name may allocate; the report is not worth a terminate
    std::fprintf(stderr, "attnviz: vkDeviceWaitIdle failed while closing the %s: VkResult(%d)\n", who,
                 static_cast<int>(result));
  }
}

}  // namespace attnviz::window
