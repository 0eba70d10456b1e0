#include "app/heatmap/heatmap_image.h"

#include "core/vk/buffer.h"
#include "core/vk/check.h"
#include "core/vk/context.h"
#include "core/vk/descriptors.h"

namespace attnviz::heatmap {

window::RenderPass create_image_pass(VkDevice device) {
  VkAttachmentDescription colour{};
  colour.format = kImageFormat;
  colour.samples = VK_SAMPLE_COUNT_1_BIT;
  colour.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  colour.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  colour.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  colour.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  colour.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;  // drawn whole: the old texels do not matter
  colour.finalLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  const VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &reference;
  // Before: an earlier frame (still in flight) may be sampling this image; its reads finish
  // before the clear and the writes (and the values the compute shaders wrote are visible:
  // the attention backend's own barrier covers the fragment stage). After: this frame's
  // window pass samples what was written.
  VkSubpassDependency dependencies[2]{};
  dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[0].dstSubpass = 0;
  dependencies[0].srcStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
  dependencies[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  dependencies[0].srcAccessMask = 0;
  dependencies[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  dependencies[1].srcSubpass = 0;
  dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  dependencies[1].dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
  dependencies[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  dependencies[1].dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
  VkRenderPassCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  info.attachmentCount = 1;
  info.pAttachments = &colour;
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  info.dependencyCount = 2;
  info.pDependencies = dependencies;
  VkRenderPass pass = VK_NULL_HANDLE;
  vk::check(vkCreateRenderPass(device, &info, nullptr, &pass), "vkCreateRenderPass");
  return {device, pass};
}

HeatmapImage::HeatmapImage(const vk::Context& context, VkRenderPass image_pass, VkDescriptorPool pool,
                           VkDescriptorSetLayout layout, VkSampler sampler, int width, int height)
    : device_(context.device()), pool_(pool), width_(width), height_(height) {
  VkImageCreateInfo image_info{};
  image_info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  image_info.imageType = VK_IMAGE_TYPE_2D;
  image_info.format = kImageFormat;
  image_info.extent = {static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height), 1};
  image_info.mipLevels = 1;
  image_info.arrayLayers = 1;
  image_info.samples = VK_SAMPLE_COUNT_1_BIT;
  image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
  // TRANSFER_SRC: tests read an image's pixels back (window::FrameCapture).
  image_info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  image_info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  image_info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImage image = VK_NULL_HANDLE;
  vk::check(vkCreateImage(device_, &image_info, nullptr, &image), "vkCreateImage");
  image_ = ImageHandle(device_, image);

  VkMemoryRequirements requirements{};
  vkGetImageMemoryRequirements(device_, image, &requirements);
  const int type = vk::find_memory_type(context.memory_properties(), requirements.memoryTypeBits, 0,
                                        VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (type < 0)
    throw vk::VulkanError("vkAllocateMemory (no memory type for a heatmap image)", VK_ERROR_OUT_OF_DEVICE_MEMORY);
  VkMemoryAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = static_cast<std::uint32_t>(type);
  VkDeviceMemory memory = VK_NULL_HANDLE;
  vk::check(vkAllocateMemory(device_, &allocate, nullptr, &memory), "vkAllocateMemory");
  // The memory must outlive the image: members are destroyed bottom-up, so the image (declared
  // after it) goes first.
  memory_ = vk::DeviceMemory(device_, memory);
  bytes_ = requirements.size;
  vk::check(vkBindImageMemory(device_, image, memory, 0), "vkBindImageMemory");

  VkImageViewCreateInfo view_info{};
  view_info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
  view_info.image = image;
  view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view_info.format = kImageFormat;
  view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  vk::check(vkCreateImageView(device_, &view_info, nullptr, &view), "vkCreateImageView");
  view_ = window::ImageView(device_, view);

  VkFramebufferCreateInfo framebuffer_info{};
  framebuffer_info.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
  framebuffer_info.renderPass = image_pass;
  framebuffer_info.attachmentCount = 1;
  framebuffer_info.pAttachments = &view;
  framebuffer_info.width = static_cast<std::uint32_t>(width);
  framebuffer_info.height = static_cast<std::uint32_t>(height);
  framebuffer_info.layers = 1;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  vk::check(vkCreateFramebuffer(device_, &framebuffer_info, nullptr, &framebuffer), "vkCreateFramebuffer");
  framebuffer_ = window::Framebuffer(device_, framebuffer);

  set_ = vk::allocate_descriptor_set(device_, pool, layout);
  VkDescriptorImageInfo sampled{sampler, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkWriteDescriptorSet write{};
  write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
  write.dstSet = set_;
  write.dstBinding = 0;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  write.pImageInfo = &sampled;
  vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
}

HeatmapImage::~HeatmapImage() {
  if (set_ != VK_NULL_HANDLE)
    vk::check_or_report(vkFreeDescriptorSets(device_, pool_, 1, &set_), "vkFreeDescriptorSets");
}

}  // namespace attnviz::heatmap
