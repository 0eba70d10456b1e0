#pragma once
// Reads a rendered swapchain image back to the host (--screenshot): the frame renderer
// records the copy after the render pass; once the frame's fence signalled, save_png()
// writes the pixels as an RGBA PNG.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <filesystem>
#include <vector>

#include "core/vk/buffer.h"

namespace attnviz::vk {
class Context;
}

namespace attnviz::window {

class FrameCapture {
 public:
  explicit FrameCapture(const vk::Context& context) : context_(&context) {}

  // Records: image (`layout`, after colour writes) → TRANSFER_SRC → copy into a host buffer →
  // `layout` again. A swapchain image is PRESENT_SRC; an offscreen one (tests) may be another.
  void record(VkCommandBuffer cmd, VkImage image, VkExtent2D extent, VkFormat format,
              VkImageLayout layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
  [[nodiscard]] bool recorded() const { return extent_.width > 0; }

  // RGBA, 8 bits per channel, rows top to bottom (after the frame's fence signalled).
  [[nodiscard]] std::vector<std::uint8_t> rgba() const;
  [[nodiscard]] VkExtent2D extent() const { return extent_; }
  // Throws std::runtime_error naming the path when the file cannot be written.
  void save_png(const std::filesystem::path& path) const;

 private:
  const vk::Context* context_;
  vk::Buffer buffer_;
  VkExtent2D extent_{};
  VkFormat format_ = VK_FORMAT_UNDEFINED;
};

}  // namespace attnviz::window
