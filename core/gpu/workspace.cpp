#include "core/gpu/workspace.h"

#include <algorithm>

#include "core/vk/barriers.h"
#include "core/vk/context.h"

namespace attnviz::gpu {
namespace {

// Every slot can be read and written as a texel buffer by the kernels, bound as a storage
// buffer by the window's heatmap shaders, and copied for uploads and read-back.
constexpr VkBufferUsageFlags kSlotUsage =
    VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT |
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

std::int64_t align256(std::int64_t bytes) { return (bytes + 255) / 256 * 256; }

}  // namespace

vk::Buffer& Workspace::grow(vk::Buffer& buffer, std::int64_t bytes, VkBufferUsageFlags usage, vk::MemoryKind kind) {
  if (buffer && static_cast<std::int64_t>(buffer.size()) >= bytes) return buffer;
  // Geometric growth: a sequence that grows token by token reallocates O(log N) times.
  const std::int64_t grown = buffer ? static_cast<std::int64_t>(buffer.size()) * 3 / 2 : 0;
  buffer = vk::Buffer(*context_, static_cast<VkDeviceSize>(align256(std::max(bytes, grown))), usage, kind);
  ++allocations_;
  return buffer;
}

bool Workspace::reserve(const AttentionLayout& layout) {
  bool changed = false;
  for (std::size_t s = 0; s < kSlotCount; ++s) {
    const std::int64_t bytes = layout.slot_bytes[s];
    if (bytes == 0) continue;
    const VkBuffer before = slots_[s].handle();
    grow(slots_[s], bytes, kSlotUsage, vk::MemoryKind::DeviceLocal);
    changed = changed || slots_[s].handle() != before;
  }
  return changed;
}

bool Workspace::mapped() const {
  return std::all_of(slots_.begin(), slots_.end(), [](const vk::Buffer& b) { return !b || b.host_visible(); });
}

void Workspace::begin_uploads(std::int64_t total_bytes) {
  upload_used_ = 0;
  pending_copies_.clear();
  if (!mapped()) grow(upload_staging_, total_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, vk::MemoryKind::HostUpload);
}

void Workspace::upload(Slot slot, std::int64_t bytes, const std::function<void(std::byte*)>& fill) {
  const vk::Buffer& target = slots_[static_cast<std::size_t>(slot)];
  if (target.host_visible()) {
    fill(target.mapped());
    target.flush();
    return;
  }
  fill(upload_staging_.mapped() + upload_used_);
  pending_copies_.push_back(
      {slot, VkBufferCopy{static_cast<VkDeviceSize>(upload_used_), 0, static_cast<VkDeviceSize>(bytes)}});
  upload_used_ += align256(bytes);
}

void Workspace::record_uploads(VkCommandBuffer cmd) {
  if (pending_copies_.empty()) return;
  upload_staging_.flush();
  vk::barriers::compute_to_transfer_write(cmd);
  for (const auto& [slot, region] : pending_copies_) {
    vkCmdCopyBuffer(cmd, upload_staging_.handle(), slots_[static_cast<std::size_t>(slot)].handle(), 1, &region);
  }
  vk::barriers::transfer_to_compute(cmd);
  pending_copies_.clear();
}

Workspace::HostCopy Workspace::host_copy(const std::vector<std::pair<Slot, std::int64_t>>& wanted,
                                         vk::CommandStream& stream) {
  std::vector<Range> ranges;
  ranges.reserve(wanted.size());
  for (const auto& [slot, bytes] : wanted) ranges.push_back({slot, 0, bytes});
  const std::vector<const std::byte*> pointers = host_ranges(ranges, stream);
  HostCopy copy;
  for (std::size_t i = 0; i < wanted.size(); ++i) copy.data[static_cast<std::size_t>(wanted[i].first)] = pointers[i];
  return copy;
}

std::vector<const std::byte*> Workspace::host_ranges(const std::vector<Range>& wanted, vk::CommandStream& stream) {
  std::vector<const std::byte*> out;
  if (mapped()) {
    for (const Range& range : wanted) {
      const vk::Buffer& buffer = slots_[static_cast<std::size_t>(range.slot)];
      buffer.invalidate();
      out.push_back(buffer.mapped() + range.first);
    }
    return out;
  }
  std::int64_t total = 0;
  for (const Range& range : wanted) total += align256(range.bytes);
  grow(readback_staging_, total, VK_BUFFER_USAGE_TRANSFER_DST_BIT, vk::MemoryKind::HostReadback);
  const VkCommandBuffer cmd = stream.begin();
  vk::barriers::compute_to_transfer(cmd);
  std::int64_t offset = 0;
  for (const Range& range : wanted) {
    const VkBufferCopy region{static_cast<VkDeviceSize>(range.first), static_cast<VkDeviceSize>(offset),
                              static_cast<VkDeviceSize>(range.bytes)};
    vkCmdCopyBuffer(cmd, slots_[static_cast<std::size_t>(range.slot)].handle(), readback_staging_.handle(), 1, &region);
    offset += align256(range.bytes);
  }
  vk::barriers::device_to_host(cmd);
  stream.submit_and_wait();
  readback_staging_.invalidate();
  offset = 0;
  for (const Range& range : wanted) {
    out.push_back(readback_staging_.mapped() + offset);
    offset += align256(range.bytes);
  }
  return out;
}

}  // namespace attnviz::gpu
