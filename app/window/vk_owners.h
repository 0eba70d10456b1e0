#pragma once
// Owners for the Vulkan objects only the window makes (swapchain, render pass, image views,
// framebuffers), built on core/vk/handle.h's DeviceHandle like every other owner.

#include <vulkan/vulkan.h>

#include "core/vk/handle.h"

namespace attnviz::window {

using ImageView = vk::DeviceHandle<VkImageView, vkDestroyImageView>;
using Framebuffer = vk::DeviceHandle<VkFramebuffer, vkDestroyFramebuffer>;
using RenderPass = vk::DeviceHandle<VkRenderPass, vkDestroyRenderPass>;
using SwapchainHandle = vk::DeviceHandle<VkSwapchainKHR, vkDestroySwapchainKHR>;

}  // namespace attnviz::window
