#pragma once
// Descriptor plumbing every pipeline needs, written once: texel-buffer views, set layouts,
// descriptor pools, sets and their texel-buffer bindings.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

#include "core/vk/handle.h"

namespace attnviz::vk {

// A view of `range` bytes of `buffer` from `offset` as texels of `format`.
BufferView create_buffer_view(VkDevice device, VkBuffer buffer, VkFormat format, VkDeviceSize offset = 0,
                              VkDeviceSize range = VK_WHOLE_SIZE);

// One descriptor set's layout: binding b of the type types[b], each one descriptor, seen by `stages`.
DescriptorSetLayout create_set_layout(VkDevice device, std::span<const VkDescriptorType> types,
                                      VkShaderStageFlags stages);

// A pool for at most `max_sets` sets holding at most sizes[i].descriptorCount descriptors of
// each sizes[i].type.
DescriptorPool create_descriptor_pool(VkDevice device, std::uint32_t max_sets,
                                      std::span<const VkDescriptorPoolSize> sizes,
                                      VkDescriptorPoolCreateFlags flags = 0);

// One set of `layout` from `pool` (freed with the pool, or when it is reset).
VkDescriptorSet allocate_descriptor_set(VkDevice device, VkDescriptorPool pool, VkDescriptorSetLayout layout);

// Binding b of `set` reads (or writes) views[b], a texel buffer of descriptor type types[b].
void write_texel_buffer_views(VkDevice device, VkDescriptorSet set, std::span<const VkDescriptorType> types,
                              std::span<const VkBufferView> views);

}  // namespace attnviz::vk
