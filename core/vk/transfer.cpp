#include "core/vk/transfer.h"

#include <algorithm>

#include "core/vk/barriers.h"

namespace attnviz::vk {
namespace {

bool in_place(const Buffer& buffer, Transfer transfer) {
  return transfer == Transfer::Automatic && buffer.host_visible();
}

}  // namespace

Buffer upload_buffer(const Context& context, const void* data, std::size_t bytes, VkBufferUsageFlags usage,
                     CommandStream& stream, Transfer transfer) {
  const VkDeviceSize size = std::max<VkDeviceSize>(bytes, 16);
  Buffer buffer(context, size, usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind::DeviceLocal);
  if (in_place(buffer, transfer)) {
    buffer.write(0, data, bytes);
    buffer.flush();
    return buffer;
  }
  const Buffer staging(context, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind::HostUpload);
  staging.write(0, data, bytes);
  staging.flush();
  const VkCommandBuffer cmd = stream.begin();
  const VkBufferCopy region{0, 0, size};
  vkCmdCopyBuffer(cmd, staging.handle(), buffer.handle(), 1, &region);
  barriers::transfer_to_compute(cmd);
  stream.submit_and_wait();
  return buffer;
}

Buffer output_buffer(const Context& context, std::size_t bytes, VkBufferUsageFlags usage) {
  return Buffer(context, std::max<VkDeviceSize>(bytes, 16), usage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                MemoryKind::DeviceLocal);
}

void read_back(const Context& context, const Buffer& buffer, void* out, std::size_t bytes, CommandStream& stream,
               Transfer transfer) {
  if (in_place(buffer, transfer)) {
    buffer.invalidate();
    buffer.read(0, out, bytes);
    return;
  }
  const Buffer staging(context, std::max<VkDeviceSize>(bytes, 16), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                       MemoryKind::HostReadback);
  const VkCommandBuffer cmd = stream.begin();
  barriers::compute_to_transfer(cmd);
  const VkBufferCopy region{0, 0, static_cast<VkDeviceSize>(bytes)};
  vkCmdCopyBuffer(cmd, buffer.handle(), staging.handle(), 1, &region);
  barriers::device_to_host(cmd);
  stream.submit_and_wait();
  staging.invalidate();
  staging.read(0, out, bytes);
}

}  // namespace attnviz::vk
