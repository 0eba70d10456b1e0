#pragma once
// The device buffers of the attention pipeline, one per Slot, grown geometrically and reused
// so that recomputing a problem of the same shape allocates nothing; plus the host-visible
// staging used for uploads and read-back when the device memory is not mapped.

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/gpu/attention_layout.h"
#include "core/vk/buffer.h"
#include "core/vk/commands.h"

namespace attnviz::vk {
class Context;
}  // namespace attnviz::vk

namespace attnviz::gpu {

class Workspace {
 public:
  explicit Workspace(const vk::Context& context) : context_(&context) {}

  // Grows every slot the layout needs. Returns true when a buffer was (re)created, so views
  // and descriptor sets bound to the old ones must be rebuilt.
  bool reserve(const AttentionLayout& layout);

  [[nodiscard]] const vk::Buffer& slot(Slot slot) const { return slots_[static_cast<std::size_t>(slot)]; }
  [[nodiscard]] bool mapped() const;  // all slots host-visible (lavapipe, integrated GPUs)

  // Uploads: begin_uploads(total) once per recompute, then upload() per slot. `fill`
  // receives where to put the bytes: the mapped slot, or staging memory whose copy
  // record_uploads() records.
  void begin_uploads(std::int64_t total_bytes);
  void upload(Slot slot, std::int64_t bytes, const std::function<void(std::byte*)>& fill);
  void record_uploads(VkCommandBuffer cmd);  // staging → slots, then clears the list

  // Host pointers to slot contents after a recompute: the mapped memory itself, or a copy
  // made through the read-back staging buffer (one extra submission).
  struct HostCopy {
    std::array<const std::byte*, kSlotCount> data{};
  };
  HostCopy host_copy(const std::vector<std::pair<Slot, std::int64_t>>& wanted, vk::CommandStream& stream);

  // Host pointers to byte ranges of slots (one head's matrices): ranges[i] points at
  // wanted[i]'s first byte, in mapped memory or in a copy of just those ranges.
  struct Range {
    Slot slot = Slot::X;
    std::int64_t first = 0;  // bytes from the slot's start
    std::int64_t bytes = 0;
  };
  std::vector<const std::byte*> host_ranges(const std::vector<Range>& wanted, vk::CommandStream& stream);

  [[nodiscard]] std::uint64_t allocations() const { return allocations_; }

 private:
  vk::Buffer& grow(vk::Buffer& buffer, std::int64_t bytes, VkBufferUsageFlags usage, vk::MemoryKind kind);

  const vk::Context* context_;
  std::array<vk::Buffer, kSlotCount> slots_;
  vk::Buffer upload_staging_;
  vk::Buffer readback_staging_;
  std::int64_t upload_used_ = 0;
  std::vector<std::pair<Slot, VkBufferCopy>> pending_copies_;
  std::uint64_t allocations_ = 0;
};

}  // namespace attnviz::gpu
