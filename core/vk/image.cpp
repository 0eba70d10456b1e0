#include "core/vk/image.h"

#include <cstdint>

#include "core/vk/buffer.h"
#include "core/vk/check.h"

namespace attnviz::vk {

DeviceImage create_device_image(const Context& context, VkExtent2D extent, VkFormat format, VkImageUsageFlags usage,
                                const char* what) {
  const VkDevice device = context.device();
  VkImageCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {extent.width, extent.height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImage image = VK_NULL_HANDLE;
  check(vkCreateImage(device, &info, nullptr, &image), "vkCreateImage");
  DeviceImage made;
  made.image = Image(device, image);

  VkMemoryRequirements requirements{};
  vkGetImageMemoryRequirements(device, image, &requirements);
  const int type = find_memory_type(context.memory_properties(), requirements.memoryTypeBits, 0,
                                    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (type < 0) {
    throw VulkanError(std::string("vkAllocateMemory (no memory type for ") + what + ")", VK_ERROR_OUT_OF_DEVICE_MEMORY);
  }
  VkMemoryAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = static_cast<std::uint32_t>(type);
  VkDeviceMemory memory = VK_NULL_HANDLE;
  check(vkAllocateMemory(device, &allocate, nullptr, &memory), "vkAllocateMemory");
  made.memory = DeviceMemory(device, memory);
  made.bytes = requirements.size;
  check(vkBindImageMemory(device, image, memory, 0), "vkBindImageMemory");
  return made;
}

ImageView create_image_view_2d(VkDevice device, VkImage image, VkFormat format) {
  VkImageViewCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
  info.image = image;
  info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  info.format = format;
  info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  check(vkCreateImageView(device, &info, nullptr, &view), "vkCreateImageView");
  return {device, view};
}

RenderPass create_colour_pass(VkDevice device, VkFormat format, VkImageLayout final_layout,
                              std::span<const VkSubpassDependency> dependencies) {
  VkAttachmentDescription colour{};
  colour.format = format;
  colour.samples = VK_SAMPLE_COUNT_1_BIT;
  colour.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  colour.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  colour.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  colour.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  colour.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;  // cleared: the old texels do not matter
  colour.finalLayout = final_layout;
  const VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &reference;
  VkRenderPassCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  info.attachmentCount = 1;
  info.pAttachments = &colour;
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  info.dependencyCount = static_cast<std::uint32_t>(dependencies.size());
  info.pDependencies = dependencies.data();
  VkRenderPass pass = VK_NULL_HANDLE;
  check(vkCreateRenderPass(device, &info, nullptr, &pass), "vkCreateRenderPass");
  return {device, pass};
}

Framebuffer create_framebuffer(VkDevice device, VkRenderPass pass, VkImageView view, VkExtent2D extent) {
  VkFramebufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
  info.renderPass = pass;
  info.attachmentCount = 1;
  info.pAttachments = &view;
  info.width = extent.width;
  info.height = extent.height;
  info.layers = 1;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  check(vkCreateFramebuffer(device, &info, nullptr, &framebuffer), "vkCreateFramebuffer");
  return {device, framebuffer};
}

Sampler create_nearest_sampler(VkDevice device) {
  VkSamplerCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
  info.magFilter = VK_FILTER_NEAREST;
  info.minFilter = VK_FILTER_NEAREST;
  info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  info.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  info.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  VkSampler sampler = VK_NULL_HANDLE;
  check(vkCreateSampler(device, &info, nullptr, &sampler), "vkCreateSampler");
  return {device, sampler};
}

}  // namespace attnviz::vk
