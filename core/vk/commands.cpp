#include "core/vk/commands.h"

#include <algorithm>
#include <limits>

#include "core/vk/check.h"
#include "core/vk/context.h"

namespace attnviz::vk {

CommandStream::CommandStream(const Context& context) : device_(context.device()), queue_(context.queue()) {
  VkCommandPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = context.queue_family();
  VkCommandPool pool = VK_NULL_HANDLE;
  check(vkCreateCommandPool(device_, &pool_info, nullptr, &pool), "vkCreateCommandPool");
  pool_ = CommandPool(device_, pool);

  VkCommandBufferAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  allocate.commandPool = pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  check(vkAllocateCommandBuffers(device_, &allocate, &command_buffer_), "vkAllocateCommandBuffers");

  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  VkFence fence = VK_NULL_HANDLE;
  check(vkCreateFence(device_, &fence_info, nullptr, &fence), "vkCreateFence");
  fence_ = Fence(device_, fence);
}

VkCommandBuffer CommandStream::begin() {
  check(vkResetCommandBuffer(command_buffer_, 0), "vkResetCommandBuffer");
  VkCommandBufferBeginInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(command_buffer_, &info), "vkBeginCommandBuffer");
  return command_buffer_;
}

void CommandStream::submit_and_wait() {
  check(vkEndCommandBuffer(command_buffer_), "vkEndCommandBuffer");
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &command_buffer_;
  VkFence fence = fence_.get();
  check(vkQueueSubmit(queue_, 1, &submit, fence), "vkQueueSubmit");
  check(vkWaitForFences(device_, 1, &fence, VK_TRUE, std::numeric_limits<std::uint64_t>::max()), "vkWaitForFences");
  check(vkResetFences(device_, 1, &fence), "vkResetFences");
}

TimestampQueries::TimestampQueries(const Context& context, std::uint32_t capacity)
    : capacity_(std::min<std::uint32_t>(capacity, 64)), period_ns_(context.limits().timestamp_period_ns) {
  if (!context.limits().timestamps) return;
  const std::uint32_t bits = context.limits().timestamp_valid_bits;
  mask_ = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
  VkQueryPoolCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = capacity_;
  VkQueryPool pool = VK_NULL_HANDLE;
  check(vkCreateQueryPool(context.device(), &info, nullptr, &pool), "vkCreateQueryPool");
  pool_ = QueryPool(context.device(), pool);
}

void TimestampQueries::reset(VkCommandBuffer cmd) {
  if (pool_) vkCmdResetQueryPool(cmd, pool_.get(), 0, capacity_);
}

void TimestampQueries::write(VkCommandBuffer cmd, std::uint32_t index) {
  if (pool_ && index < capacity_) {
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_.get(), index);
  }
}

void TimestampQueries::fetch(std::uint32_t count) {
  if (!pool_ || count == 0) return;
  count = std::min(count, capacity_);
  check(vkGetQueryPoolResults(pool_.device(), pool_.get(), 0, count, sizeof(values_), values_, sizeof(std::uint64_t),
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
        "vkGetQueryPoolResults");
}

double TimestampQueries::milliseconds(std::uint32_t from, std::uint32_t to) const {
  const std::uint64_t ticks = (values_[to] - values_[from]) & mask_;
  return static_cast<double>(ticks) * period_ns_ * 1e-6;
}

}  // namespace attnviz::vk
