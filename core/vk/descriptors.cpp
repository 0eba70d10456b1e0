#include "core/vk/descriptors.h"

#include <vector>

#include "core/vk/check.h"

namespace attnviz::vk {

BufferView create_buffer_view(VkDevice device, VkBuffer buffer, VkFormat format, VkDeviceSize offset,
                              VkDeviceSize range) {
  VkBufferViewCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO;
  info.buffer = buffer;
  info.format = format;
  info.offset = offset;
  info.range = range;
  VkBufferView view = VK_NULL_HANDLE;
  check(vkCreateBufferView(device, &info, nullptr, &view), "vkCreateBufferView");
  return {device, view};
}

DescriptorSetLayout create_set_layout(VkDevice device, std::span<const VkDescriptorType> types,
                                      VkShaderStageFlags stages) {
  std::vector<VkDescriptorSetLayoutBinding> bindings(types.size());
  for (std::uint32_t b = 0; b < bindings.size(); ++b) {
    bindings[b].binding = b;
    bindings[b].descriptorType = types[b];
    bindings[b].descriptorCount = 1;
    bindings[b].stageFlags = stages;
  }
  VkDescriptorSetLayoutCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  info.bindingCount = static_cast<std::uint32_t>(bindings.size());
  info.pBindings = bindings.data();
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  check(vkCreateDescriptorSetLayout(device, &info, nullptr, &layout), "vkCreateDescriptorSetLayout");
  return {device, layout};
}

DescriptorPool create_descriptor_pool(VkDevice device, std::uint32_t max_sets,
                                      std::span<const VkDescriptorPoolSize> sizes, VkDescriptorPoolCreateFlags flags) {
  VkDescriptorPoolCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  info.flags = flags;
  info.maxSets = max_sets;
  info.poolSizeCount = static_cast<std::uint32_t>(sizes.size());
  info.pPoolSizes = sizes.data();
  VkDescriptorPool pool = VK_NULL_HANDLE;
  check(vkCreateDescriptorPool(device, &info, nullptr, &pool), "vkCreateDescriptorPool");
  return {device, pool};
}

VkDescriptorSet allocate_descriptor_set(VkDevice device, VkDescriptorPool pool, VkDescriptorSetLayout layout) {
  VkDescriptorSetAllocateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  info.descriptorPool = pool;
  info.descriptorSetCount = 1;
  info.pSetLayouts = &layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  check(vkAllocateDescriptorSets(device, &info, &set), "vkAllocateDescriptorSets");
  return set;
}

void write_texel_buffer_views(VkDevice device, VkDescriptorSet set, std::span<const VkDescriptorType> types,
                              std::span<const VkBufferView> views) {
  std::vector<VkWriteDescriptorSet> writes(views.size());
  for (std::size_t b = 0; b < views.size(); ++b) {
    VkWriteDescriptorSet& write = writes[b];
    write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    write.dstSet = set;
    write.dstBinding = static_cast<std::uint32_t>(b);
    write.descriptorCount = 1;
    write.descriptorType = types[b];
    write.pTexelBufferView = &views[b];
  }
  vkUpdateDescriptorSets(device, static_cast<std::uint32_t>(writes.size()), writes.data(), 0, nullptr);
}

}  // namespace attnviz::vk
