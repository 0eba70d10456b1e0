#pragma once
// The swapchain of the window's surface, its render pass and framebuffers. Images are created
// with TRANSFER_SRC usage (where the surface allows it) so a frame can be read back for
// --screenshot. recreate() follows window resizes.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

#include "app/window/vk_owners.h"
#include "core/vk/image.h"

namespace attnviz::vk {
class Context;
}

namespace attnviz::window {

enum class PresentPacing {
  VSync,      // FIFO: the interactive default, no wasted frames
  Unlimited,  // IMMEDIATE or MAILBOX when available: screenshots and frame-time reports
};

class Swapchain {
 public:
  Swapchain(const vk::Context& context, VkExtent2D wanted, PresentPacing pacing);
  ~Swapchain();
  Swapchain(const Swapchain&) = delete;
  Swapchain& operator=(const Swapchain&) = delete;

  // Waits for the device to go idle, then rebuilds images, views and framebuffers.
  void recreate(VkExtent2D wanted);

  [[nodiscard]] VkSwapchainKHR handle() const { return swapchain_.get(); }
  [[nodiscard]] VkRenderPass render_pass() const { return render_pass_.get(); }
  [[nodiscard]] VkFormat format() const { return format_.format; }
  [[nodiscard]] VkExtent2D extent() const { return extent_; }
  [[nodiscard]] std::uint32_t image_count() const { return static_cast<std::uint32_t>(images_.size()); }
  [[nodiscard]] std::uint32_t min_image_count() const { return min_image_count_; }
  [[nodiscard]] VkImage image(std::uint32_t index) const { return images_[index]; }
  [[nodiscard]] VkFramebuffer framebuffer(std::uint32_t index) const { return framebuffers_[index].get(); }
  [[nodiscard]] VkPresentModeKHR present_mode() const { return present_mode_; }
  // The images can be copied from (the surface supports TRANSFER_SRC).
  [[nodiscard]] bool capturable() const { return capturable_; }

 private:
  void create_render_pass();
  void create_swapchain(VkExtent2D wanted);

  const vk::Context* context_;
  VkDevice device_;
  VkSurfaceFormatKHR format_{};
  VkPresentModeKHR present_mode_ = VK_PRESENT_MODE_FIFO_KHR;
  std::uint32_t min_image_count_ = 2;
  bool capturable_ = false;
  VkExtent2D extent_{};
  vk::RenderPass render_pass_;
  SwapchainHandle swapchain_;
  std::vector<VkImage> images_;  // owned by the swapchain
  std::vector<vk::ImageView> views_;
  std::vector<vk::Framebuffer> framebuffers_;
};

}  // namespace attnviz::window
