#pragma once
// Images and what draws into them: a device-local image with its memory, 2D colour views,
// one-attachment colour render passes, framebuffers and samplers, each made once here with its
// VkResult checked and named, so the window's swapchain and the heatmaps' cached images do not
// each spell out the create-info structures.

#include <vulkan/vulkan.h>

#include <span>

#include "core/vk/context.h"
#include "core/vk/handle.h"

namespace attnviz::vk {

using Image = DeviceHandle<VkImage, vkDestroyImage>;
using ImageView = DeviceHandle<VkImageView, vkDestroyImageView>;
using Framebuffer = DeviceHandle<VkFramebuffer, vkDestroyFramebuffer>;
using RenderPass = DeviceHandle<VkRenderPass, vkDestroyRenderPass>;

// A 2D image in device-local memory (bound). Members are destroyed bottom-up: the image goes
// before the memory it is bound to.
struct DeviceImage {
  DeviceMemory memory;
  Image image;
  VkDeviceSize bytes = 0;  // the memory it holds
};
// `what` names it in the error when no memory type fits ("a heatmap image").
DeviceImage create_device_image(const Context& context, VkExtent2D extent, VkFormat format, VkImageUsageFlags usage,
                                const char* what);

ImageView create_image_view_2d(VkDevice device, VkImage image, VkFormat format);

// One colour attachment, cleared at the start, stored, left in `final_layout`; the subpass
// dependencies are the caller's (they say what waits for what).
RenderPass create_colour_pass(VkDevice device, VkFormat format, VkImageLayout final_layout,
                              std::span<const VkSubpassDependency> dependencies);

Framebuffer create_framebuffer(VkDevice device, VkRenderPass pass, VkImageView view, VkExtent2D extent);

// Nearest texels, clamped at the edges: a cached image copied to the window pixel for pixel.
Sampler create_nearest_sampler(VkDevice device);

}  // namespace attnviz::vk
