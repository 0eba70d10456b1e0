#pragma once
// vkDeviceWaitIdle where nothing may be thrown: in destructors, which must free what the GPU
// may still read. A failure (a lost device) is reported on stderr with the call's name and
// who waited, and the destruction goes on: the objects are freed either way.

#include <vulkan/vulkan.h>

namespace attnviz::window {

void wait_idle_or_report(VkDevice device, const char* who) noexcept;

}  // namespace attnviz::window
