#pragma once
// One heatmap's cached image: an RGBA8 image the size of the heatmap's visible cells in
// framebuffer pixels, the framebuffer the image pass draws it through, and the descriptor set
// the window's pass samples it with. One owner per image (move-only through unique_ptr);
// the renderer makes a new one only when the heatmap's size changes.

#include <vulkan/vulkan.h>

#include "core/vk/handle.h"
#include "core/vk/image.h"

namespace attnviz::heatmap {

// The cached images' format: the window's 8-bit UNORM encoding (swapchain.cpp picks B8G8R8A8
// or R8G8B8A8 UNORM), so a texel copied to the window is the colour the fragment shader gave.
inline constexpr VkFormat kImageFormat = VK_FORMAT_R8G8B8A8_UNORM;

// The render pass that draws into a cached image: cleared (to the widget's background), left ready to be
// sampled by fragment shaders; its dependencies order it after earlier frames' sampling of the
// same image and before this frame's.
vk::RenderPass create_image_pass(VkDevice device);

class HeatmapImage {
 public:
  // The descriptor set comes from `pool` (created with FREE_DESCRIPTOR_SET) and goes back to it.
  HeatmapImage(const vk::Context& context, VkRenderPass image_pass, VkDescriptorPool pool, VkDescriptorSetLayout layout,
               VkSampler sampler, int width, int height);
  ~HeatmapImage();
  HeatmapImage(const HeatmapImage&) = delete;
  HeatmapImage& operator=(const HeatmapImage&) = delete;

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }
  [[nodiscard]] VkFramebuffer framebuffer() const { return framebuffer_.get(); }
  [[nodiscard]] VkImage image() const { return image_.image.get(); }
  [[nodiscard]] VkDescriptorSet sample_set() const { return set_; }
  // Device memory the image holds (for the window's memory figures).
  [[nodiscard]] VkDeviceSize bytes() const { return image_.bytes; }

 private:
  VkDevice device_;
  VkDescriptorPool pool_;
  int width_;
  int height_;
  // Destroyed bottom-up: the framebuffer and view before the image (and its memory).
  vk::DeviceImage image_;
  vk::ImageView view_;
  vk::Framebuffer framebuffer_;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
};

}  // namespace attnviz::heatmap
