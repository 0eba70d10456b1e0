#pragma once
// The frame loop's Vulkan side: acquire a swapchain image, record one command buffer inside
// the render pass, submit, present; rebuild the swapchain when the window changed size.
//
//   if (VkCommandBuffer cmd = renderer.begin_frame(size)) {
//     ... record draws (ImGui and the heatmap callbacks) ...
//     renderer.end_frame(capture);   // capture may be null
//   }
//
// Two frames in flight, each with its own command buffer, fence and acquire semaphore, so the
// CPU records frame k+1 while the GPU still draws frame k; render-complete semaphores belong
// to swapchain images (an image is not re-acquired before its present finished with them).

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "app/window/glfw_window.h"
#include "app/window/swapchain.h"
#include "core/vk/handle.h"

namespace attnviz::window {

class FrameCapture;

class FrameRenderer {
 public:
  FrameRenderer(const vk::Context& context, Extent framebuffer, PresentPacing pacing);
  ~FrameRenderer();
  FrameRenderer(const FrameRenderer&) = delete;
  FrameRenderer& operator=(const FrameRenderer&) = delete;

  // The command buffer of the new frame, inside the render pass with the framebuffer cleared
  // to `clear`, or VK_NULL_HANDLE when the swapchain had to be rebuilt (skip this frame).
  // `before_pass` records into the command buffer before the render pass begins (the
  // heatmaps' cached images are drawn there).
  VkCommandBuffer begin_frame(Extent framebuffer, const float clear[4],
                              const std::function<void(VkCommandBuffer)>& before_pass = {});
  // Ends the render pass; when `capture` is given, copies the image into it and waits for the
  // GPU so the pixels can be read. Returns false when the swapchain went out of date.
  bool end_frame(FrameCapture* capture);

  // Called after the swapchain was rebuilt (ImGui needs the new image count).
  void on_swapchain_rebuilt(std::function<void(const Swapchain&)> callback) { rebuilt_ = std::move(callback); }

  [[nodiscard]] const Swapchain& swapchain() const { return swapchain_; }
  [[nodiscard]] VkCommandBuffer current_command_buffer() const { return current_; }
  // Increases by one per submitted frame.
  [[nodiscard]] std::uint64_t frame_number() const { return frame_number_; }

 private:
  struct Frame {
    vk::CommandPool pool;
    VkCommandBuffer cmd = VK_NULL_HANDLE;  // freed with the pool
    vk::Fence fence;
    vk::Semaphore image_acquired;
  };
  static constexpr std::uint32_t kFramesInFlight = 2;
  void create_frames();
  void create_render_semaphores();
  void rebuild(Extent framebuffer);

  const vk::Context* context_;
  VkDevice device_;
  VkQueue queue_;
  Swapchain swapchain_;
  std::vector<Frame> frames_;                   // kFramesInFlight
  std::vector<vk::Semaphore> render_complete_;  // one per swapchain image
  std::uint32_t frame_index_ = 0;
  std::uint32_t image_index_ = 0;
  VkCommandBuffer current_ = VK_NULL_HANDLE;
  Extent last_size_{};
  bool needs_rebuild_ = false;
  std::uint64_t frame_number_ = 0;
  std::function<void(const Swapchain&)> rebuilt_;
};

}  // namespace attnviz::window
