#include "app/window/frame_renderer.h"

#include <limits>

#include "app/window/device_idle.h"
#include "app/window/frame_capture.h"
#include "core/vk/check.h"
#include "core/vk/context.h"

namespace attnviz::window {
namespace {

constexpr std::uint64_t kNoTimeout = std::numeric_limits<std::uint64_t>::max();

VkExtent2D to_vk(Extent e) { return {static_cast<std::uint32_t>(e.width), static_cast<std::uint32_t>(e.height)}; }

vk::Semaphore make_semaphore(VkDevice device) {
  VkSemaphoreCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
  VkSemaphore semaphore = VK_NULL_HANDLE;
  vk::check(vkCreateSemaphore(device, &info, nullptr, &semaphore), "vkCreateSemaphore");
  return {device, semaphore};
}

bool out_of_date(VkResult result) { return result == VK_ERROR_OUT_OF_DATE_KHR || result == VK_SUBOPTIMAL_KHR; }

}  // namespace

FrameRenderer::FrameRenderer(const vk::Context& context, Extent framebuffer, PresentPacing pacing)
    : context_(&context),
      device_(context.device()),
      queue_(context.queue()),
      swapchain_(context, to_vk(framebuffer), pacing),
      last_size_(framebuffer) {
  create_frames();
  create_render_semaphores();
}

FrameRenderer::~FrameRenderer() { wait_idle_or_report(device_, "frame renderer"); }

void FrameRenderer::create_frames() {
  frames_.resize(kFramesInFlight);
  for (Frame& frame : frames_) {
    VkCommandPoolCreateInfo pool_info{};
    pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pool_info.queueFamilyIndex = context_->queue_family();
    VkCommandPool pool = VK_NULL_HANDLE;
    vk::check(vkCreateCommandPool(device_, &pool_info, nullptr, &pool), "vkCreateCommandPool");
    frame.pool = vk::CommandPool(device_, pool);

    VkCommandBufferAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    vk::check(vkAllocateCommandBuffers(device_, &alloc, &frame.cmd), "vkAllocateCommandBuffers");

    VkFenceCreateInfo fence_info{};
    fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    fence_info.flags = VK_FENCE_CREATE_SIGNALED_BIT;
    VkFence fence = VK_NULL_HANDLE;
    vk::check(vkCreateFence(device_, &fence_info, nullptr, &fence), "vkCreateFence");
    frame.fence = vk::Fence(device_, fence);
    frame.image_acquired = make_semaphore(device_);
  }
}

void FrameRenderer::create_render_semaphores() {
  render_complete_.clear();
  for (std::uint32_t i = 0; i < swapchain_.image_count(); ++i) render_complete_.push_back(make_semaphore(device_));
}

void FrameRenderer::rebuild(Extent framebuffer) {
  swapchain_.recreate(to_vk(framebuffer));  // waits for the device to go idle
  create_render_semaphores();
  // Acquire semaphores may be left signalled by an acquire whose frame was skipped.
  for (Frame& frame : frames_) frame.image_acquired = make_semaphore(device_);
  last_size_ = framebuffer;
  needs_rebuild_ = false;
  if (rebuilt_) rebuilt_(swapchain_);
}

VkCommandBuffer FrameRenderer::begin_frame(Extent framebuffer, const float clear[4],
                                           const std::function<void(VkCommandBuffer)>& before_pass) {
  current_ = VK_NULL_HANDLE;
  if (needs_rebuild_ || !(framebuffer == last_size_)) rebuild(framebuffer);

  Frame& frame = frames_[frame_index_];
  // The frame's previous submission consumed its acquire semaphore and used its command buffer.
  const VkFence fence = frame.fence.get();
  vk::check(vkWaitForFences(device_, 1, &fence, VK_TRUE, kNoTimeout), "vkWaitForFences");

  const VkResult acquired = vkAcquireNextImageKHR(device_, swapchain_.handle(), kNoTimeout, frame.image_acquired.get(),
                                                  VK_NULL_HANDLE, &image_index_);
  if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
    needs_rebuild_ = true;
    return VK_NULL_HANDLE;
  }
  if (acquired == VK_SUBOPTIMAL_KHR)
    needs_rebuild_ = true;  // draw this one, rebuild after
  else
    vk::check(acquired, "vkAcquireNextImageKHR");

  vk::check(vkResetFences(device_, 1, &fence), "vkResetFences");
  vk::check(vkResetCommandPool(device_, frame.pool.get(), 0), "vkResetCommandPool");
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vk::check(vkBeginCommandBuffer(frame.cmd, &begin), "vkBeginCommandBuffer");
  if (before_pass) before_pass(frame.cmd);

  VkClearValue clear_value{};
  for (int i = 0; i < 4; ++i) clear_value.color.float32[i] = clear[i];
  VkRenderPassBeginInfo pass{};
  pass.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
  pass.renderPass = swapchain_.render_pass();
  pass.framebuffer = swapchain_.framebuffer(image_index_);
  pass.renderArea.extent = swapchain_.extent();
  pass.clearValueCount = 1;
  pass.pClearValues = &clear_value;
  vkCmdBeginRenderPass(frame.cmd, &pass, VK_SUBPASS_CONTENTS_INLINE);
  current_ = frame.cmd;
  return current_;
}

bool FrameRenderer::end_frame(FrameCapture* capture) {
  Frame& frame = frames_[frame_index_];
  vkCmdEndRenderPass(frame.cmd);
  if (capture != nullptr) {
    capture->record(frame.cmd, swapchain_.image(image_index_), swapchain_.extent(), swapchain_.format());
  }
  vk::check(vkEndCommandBuffer(frame.cmd), "vkEndCommandBuffer");

  const VkSemaphore wait = frame.image_acquired.get();
  const VkSemaphore signal = render_complete_[image_index_].get();
  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &wait;
  submit.pWaitDstStageMask = &wait_stage;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &frame.cmd;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &signal;
  vk::check(vkQueueSubmit(queue_, 1, &submit, frame.fence.get()), "vkQueueSubmit");
  current_ = VK_NULL_HANDLE;
  ++frame_number_;

  const VkSwapchainKHR swapchain = swapchain_.handle();
  VkPresentInfoKHR present{};
  present.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR;
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &signal;
  present.swapchainCount = 1;
  present.pSwapchains = &swapchain;
  present.pImageIndices = &image_index_;
  const VkResult presented = vkQueuePresentKHR(queue_, &present);
  frame_index_ = (frame_index_ + 1) % kFramesInFlight;
  if (capture != nullptr) {
    const VkFence fence = frame.fence.get();
    vk::check(vkWaitForFences(device_, 1, &fence, VK_TRUE, kNoTimeout), "vkWaitForFences");
  }
  if (out_of_date(presented)) {
    needs_rebuild_ = true;
    return false;
  }
  vk::check(presented, "vkQueuePresentKHR");
  return true;
}

}  // namespace attnviz::window
