#pragma once
// The owner of the one Vulkan object only the window makes, the swapchain, built on
// core/vk/handle.h's DeviceHandle like every other owner (images, views, render passes and
// framebuffers are core/vk/image.h's).

#include <vulkan/vulkan.h>

#include "core/vk/handle.h"

namespace attnviz::window {

using SwapchainHandle = vk::DeviceHandle<VkSwapchainKHR, vkDestroySwapchainKHR>;

}  // namespace attnviz::window
