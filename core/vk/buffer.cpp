#include "core/vk/buffer.h"

#include <atomic>
#include <bit>
#include <cstring>
#include <utility>

#include "core/vk/check.h"
#include "core/vk/context.h"

namespace attnviz::vk {
namespace {

std::atomic<std::uint64_t> destroyed_buffers{0};

}  // namespace

void destroy_counted_buffer(VkDevice device, VkBuffer buffer, const VkAllocationCallbacks* allocator) {
  vkDestroyBuffer(device, buffer, allocator);
  destroyed_buffers.fetch_add(1, std::memory_order_relaxed);
}

std::uint64_t destroyed_buffer_count() { return destroyed_buffers.load(std::memory_order_relaxed); }

int find_memory_type(const VkPhysicalDeviceMemoryProperties& memory, std::uint32_t type_bits,
                     VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) {
  int best = -1;
  int best_score = -1;
  for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    const VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
    if ((type_bits & (1u << i)) == 0 || (flags & required) != required) continue;
    const int score = std::popcount(flags & preferred);
    if (score > best_score) {
      best = static_cast<int>(i);
      best_score = score;
    }
  }
  return best;
}

Buffer::Buffer(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage, MemoryKind kind)
    : size_(size), usage_(usage) {
  const VkDevice device = context.device();
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  check(vkCreateBuffer(device, &info, nullptr, &buffer), "vkCreateBuffer");
  buffer_ = RawBuffer(device, buffer);

  VkMemoryRequirements requirements{};
  vkGetBufferMemoryRequirements(device, buffer, &requirements);
  VkMemoryPropertyFlags required = 0;
  VkMemoryPropertyFlags preferred = 0;
  switch (kind) {
    case MemoryKind::DeviceLocal: preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT; break;
    case MemoryKind::HostUpload:
      required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
      preferred = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      break;
    case MemoryKind::HostReadback:
      required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
      preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      break;
  }
  const VkPhysicalDeviceMemoryProperties& memory = context.memory_properties();
  const int type = find_memory_type(memory, requirements.memoryTypeBits, required, preferred);
  if (type < 0) throw VulkanError("vkAllocateMemory (no suitable memory type)", VK_ERROR_OUT_OF_DEVICE_MEMORY);

  VkMemoryAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = static_cast<std::uint32_t>(type);
  VkDeviceMemory handle = VK_NULL_HANDLE;
  check(vkAllocateMemory(device, &allocate, nullptr, &handle), "vkAllocateMemory");
  memory_ = DeviceMemory(device, handle);
  check(vkBindBufferMemory(device, buffer, handle, 0), "vkBindBufferMemory");

  const VkMemoryPropertyFlags flags = memory.memoryTypes[type].propertyFlags;
  coherent_ = (flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
  if ((flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0) {
    void* pointer = nullptr;
    check(vkMapMemory(device, handle, 0, VK_WHOLE_SIZE, 0, &pointer), "vkMapMemory");
    mapped_ = static_cast<std::byte*>(pointer);
  }
}

Buffer Buffer::import_host(const Context& context, void* data, VkDeviceSize size, VkBufferUsageFlags usage) {
  const VkDevice device = context.device();
  const auto properties_of = reinterpret_cast<PFN_vkGetMemoryHostPointerPropertiesEXT>(
      vkGetDeviceProcAddr(device, "vkGetMemoryHostPointerPropertiesEXT"));
  if (context.host_import_alignment() == 0 || properties_of == nullptr) {
    throw VulkanError("vkGetMemoryHostPointerPropertiesEXT (VK_EXT_external_memory_host is not enabled)",
                      VK_ERROR_EXTENSION_NOT_PRESENT);
  }
  VkMemoryHostPointerPropertiesEXT host{};
  host.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT;
  check(properties_of(device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, data, &host),
        "vkGetMemoryHostPointerPropertiesEXT");

  Buffer out;
  out.size_ = size;
  out.usage_ = usage;
  VkExternalMemoryBufferCreateInfo external{};
  external.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO;
  external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.pNext = &external;
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  check(vkCreateBuffer(device, &info, nullptr, &buffer), "vkCreateBuffer");
  out.buffer_ = RawBuffer(device, buffer);

  VkMemoryRequirements requirements{};
  vkGetBufferMemoryRequirements(device, buffer, &requirements);
  // Coherent: the host's writes through its own pointer need no flush.
  const int type = find_memory_type(context.memory_properties(), requirements.memoryTypeBits & host.memoryTypeBits,
                                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0);
  if (type < 0)
    throw VulkanError("vkAllocateMemory (no memory type imports this host memory)", VK_ERROR_OUT_OF_DEVICE_MEMORY);
  VkImportMemoryHostPointerInfoEXT import{};
  import.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT;
  import.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  import.pHostPointer = data;
  VkMemoryAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate.pNext = &import;
  allocate.allocationSize = size;
  allocate.memoryTypeIndex = static_cast<std::uint32_t>(type);
  VkDeviceMemory memory = VK_NULL_HANDLE;
  check(vkAllocateMemory(device, &allocate, nullptr, &memory), "vkAllocateMemory (host memory import)");
  out.memory_ = DeviceMemory(device, memory);
  check(vkBindBufferMemory(device, buffer, memory, 0), "vkBindBufferMemory");
  // Not mapped: the host reads and writes through its own pointer.
  return out;
}

Buffer::Buffer(Buffer&& other) noexcept
    : memory_(std::move(other.memory_)),
      buffer_(std::move(other.buffer_)),
      size_(std::exchange(other.size_, 0)),
      usage_(std::exchange(other.usage_, 0)),
      mapped_(std::exchange(other.mapped_, nullptr)),
      coherent_(other.coherent_) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    buffer_ = std::move(other.buffer_);
    memory_ = std::move(other.memory_);
    size_ = std::exchange(other.size_, 0);
    usage_ = std::exchange(other.usage_, 0);
    mapped_ = std::exchange(other.mapped_, nullptr);
    coherent_ = other.coherent_;
  }
  return *this;
}

void Buffer::write(VkDeviceSize offset, const void* data, VkDeviceSize bytes) const {
  if (bytes == 0) return;
  std::memcpy(mapped_ + offset, data, static_cast<std::size_t>(bytes));
}

void Buffer::read(VkDeviceSize offset, void* data, VkDeviceSize bytes) const {
  if (bytes == 0) return;
  std::memcpy(data, mapped_ + offset, static_cast<std::size_t>(bytes));
}

void Buffer::flush() const {
  if (coherent_ || mapped_ == nullptr) return;
  VkMappedMemoryRange range{};
  range.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE;
  range.memory = memory_.get();
  range.size = VK_WHOLE_SIZE;
  check(vkFlushMappedMemoryRanges(memory_.device(), 1, &range), "vkFlushMappedMemoryRanges");
}

void Buffer::invalidate() const {
  if (coherent_ || mapped_ == nullptr) return;
  VkMappedMemoryRange range{};
  range.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE;
  range.memory = memory_.get();
  range.size = VK_WHOLE_SIZE;
  check(vkInvalidateMappedMemoryRanges(memory_.device(), 1, &range), "vkInvalidateMappedMemoryRanges");
}

}  // namespace attnviz::vk
