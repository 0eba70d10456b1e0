#pragma once
// One primary command buffer re-recorded per submission, with the fence the host waits on.

#include <vulkan/vulkan.h>

#include <cstdint>

#include "core/vk/handle.h"

namespace attnviz::vk {

class Context;

class CommandStream {
 public:
  CommandStream() = default;
  explicit CommandStream(const Context& context);

  // Resets and begins the command buffer (the previous submission has been waited for).
  VkCommandBuffer begin();
  // Ends, submits once and blocks until the queue has finished it.
  void submit_and_wait();

  [[nodiscard]] VkCommandBuffer command_buffer() const { return command_buffer_; }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  CommandPool pool_;
  VkCommandBuffer command_buffer_ = VK_NULL_HANDLE;  // freed with the pool
  Fence fence_;
};

// Timestamps written at stage boundaries of a command buffer; read after the fence.
class TimestampQueries {
 public:
  TimestampQueries() = default;
  TimestampQueries(const Context& context, std::uint32_t capacity);

  [[nodiscard]] bool enabled() const { return static_cast<bool>(pool_); }
  void reset(VkCommandBuffer cmd);  // before the first write()
  // Writes timestamp number `index` once the compute work recorded so far has finished.
  void write(VkCommandBuffer cmd, std::uint32_t index);
  // Milliseconds between timestamp `from` and `to` (both written in the last submission).
  [[nodiscard]] double milliseconds(std::uint32_t from, std::uint32_t to) const;
  void fetch(std::uint32_t count);  // reads the first `count` values after the fence

  [[nodiscard]] std::uint32_t capacity() const { return capacity_; }

 private:
  QueryPool pool_;
  std::uint32_t capacity_ = 0;
  double period_ns_ = 1.0;
  std::uint64_t mask_ = ~0ull;
  std::uint64_t values_[64] = {};
};

}  // namespace attnviz::vk
