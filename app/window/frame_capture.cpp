#include "app/window/frame_capture.h"

#include <stb_image_write.h>

#include <stdexcept>

#include "core/vk/context.h"

namespace attnviz::window {
namespace {

void transition(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                VkPipelineStageFlags src_stage, VkAccessFlags src_access, VkPipelineStageFlags dst_stage,
                VkAccessFlags dst_access) {
  VkImageMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
  barrier.srcAccessMask = src_access;
  barrier.dstAccessMask = dst_access;
  barrier.oldLayout = from;
  barrier.newLayout = to;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 0, nullptr, 0, nullptr, 1, &barrier);
}

bool is_bgra(VkFormat format) { return format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB; }

}  // namespace

void FrameCapture::record(VkCommandBuffer cmd, VkImage image, VkExtent2D extent, VkFormat format,
                          VkImageLayout layout) {
  const VkDeviceSize bytes = VkDeviceSize{extent.width} * extent.height * 4;
  if (!buffer_ || buffer_.size() < bytes) {
    buffer_ = vk::Buffer(*context_, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, vk::MemoryKind::HostReadback);
  }
  extent_ = extent;
  format_ = format;

  transition(cmd, image, layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
             VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {extent.width, extent.height, 1};
  vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer_.handle(), 1, &region);
  transition(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, layout, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
             VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0);

  VkBufferMemoryBarrier to_host{};
  to_host.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
  to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  to_host.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  to_host.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  to_host.buffer = buffer_.handle();
  to_host.size = VK_WHOLE_SIZE;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, nullptr, 1, &to_host, 0,
                       nullptr);
}

std::vector<std::uint8_t> FrameCapture::rgba() const {
  const std::size_t pixels = std::size_t{extent_.width} * extent_.height;
  std::vector<std::uint8_t> out(pixels * 4);
  buffer_.invalidate();
  buffer_.read(0, out.data(), out.size());
  const bool swap = is_bgra(format_);
  for (std::size_t p = 0; p < pixels; ++p) {
    std::uint8_t* px = &out[p * 4];
    if (swap) std::swap(px[0], px[2]);
    px[3] = 255;  // the window is opaque; its alpha channel means nothing
  }
  return out;
}

void FrameCapture::save_png(const std::filesystem::path& path) const {
  if (!recorded()) throw std::logic_error("FrameCapture::save_png before a frame was captured");
  const std::vector<std::uint8_t> pixels = rgba();
  const int width = static_cast<int>(extent_.width);
  const int height = static_cast<int>(extent_.height);
  if (stbi_write_png(path.c_str(), width, height, 4, pixels.data(), width * 4) == 0) {
    throw std::runtime_error("cannot write the screenshot " + path.string() + " (is the folder there and writable?)");
  }
}

}  // namespace attnviz::window
