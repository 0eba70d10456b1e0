#include "app/heatmap/heatmap_image.h"

#include "core/vk/check.h"
#include "core/vk/context.h"
#include "core/vk/descriptors.h"
#include "core/vk/image.h"

namespace attnviz::heatmap {

vk::RenderPass create_image_pass(VkDevice device) {
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
  return vk::create_colour_pass(device, kImageFormat, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, dependencies);
}

HeatmapImage::HeatmapImage(const vk::Context& context, VkRenderPass image_pass, VkDescriptorPool pool,
                           VkDescriptorSetLayout layout, VkSampler sampler, int width, int height)
    : device_(context.device()), pool_(pool), width_(width), height_(height) {
  const VkExtent2D extent{static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height)};
  // TRANSFER_SRC: tests read an image's pixels back (window::FrameCapture).
  image_ = vk::create_device_image(
      context, extent, kImageFormat,
      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
      "a heatmap image");
  view_ = vk::create_image_view_2d(device_, image_.image.get(), kImageFormat);
  framebuffer_ = vk::create_framebuffer(device_, image_pass, view_.get(), extent);

  set_ = vk::allocate_descriptor_set(device_, pool, layout);
  VkDescriptorImageInfo sampled{sampler, view_.get(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
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
