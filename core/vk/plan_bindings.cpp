#include "core/vk/plan_bindings.h"

#include "core/vk/check.h"
#include "core/vk/context.h"
#include "core/vk/kernels.h"
#include "core/vk/workspace.h"

namespace attnviz::vk {

VkBufferView PlanBindings::view_for(const Context& context, const Workspace& workspace, const PlannedView& planned) {
  for (const auto& [known, view] : views_) {
    if (known == planned) return view.get();
  }
  VkBufferViewCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO;
  info.buffer = workspace.slot(planned.slot).handle();
  info.format = planned.format;
  info.offset = static_cast<VkDeviceSize>(planned.offset);
  info.range = static_cast<VkDeviceSize>(planned.range);
  VkBufferView view = VK_NULL_HANDLE;
  check(vkCreateBufferView(context.device(), &info, nullptr, &view), "vkCreateBufferView");
  views_.emplace_back(planned, BufferView(context.device(), view));
  return view;
}

void PlanBindings::build(const Context& context, const Kernels& kernels, const Workspace& workspace,
                         const std::vector<PlannedDispatch>& dispatches) {
  sets_.clear();
  pool_.reset();
  views_.clear();

  std::uint32_t reads = 0;
  std::uint32_t writes = 0;
  for (const PlannedDispatch& d : dispatches) {
    for (VkDescriptorType type : kernels.get(d.kernel).bindings()) {
      (type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ? reads : writes) += 1;
    }
  }
  const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, reads},
                                        {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, writes}};
  VkDescriptorPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  pool_info.maxSets = static_cast<std::uint32_t>(dispatches.size());
  pool_info.poolSizeCount = 2;
  pool_info.pPoolSizes = sizes;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  check(vkCreateDescriptorPool(context.device(), &pool_info, nullptr, &pool), "vkCreateDescriptorPool");
  pool_ = DescriptorPool(context.device(), pool);

  for (const PlannedDispatch& d : dispatches) {
    const ComputePipeline& pipeline = kernels.get(d.kernel);
    const VkDescriptorSetLayout layout = pipeline.set_layout();
    VkDescriptorSetAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    allocate.descriptorPool = pool;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    check(vkAllocateDescriptorSets(context.device(), &allocate, &set), "vkAllocateDescriptorSets");

    std::vector<VkBufferView> views(d.views.size());
    std::vector<VkWriteDescriptorSet> writes_list(d.views.size());
    for (std::size_t b = 0; b < d.views.size(); ++b) {
      views[b] = view_for(context, workspace, d.views[b]);
      VkWriteDescriptorSet& write = writes_list[b];
      write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      write.dstSet = set;
      write.dstBinding = static_cast<std::uint32_t>(b);
      write.descriptorCount = 1;
      write.descriptorType = pipeline.bindings()[b];
      write.pTexelBufferView = &views[b];
    }
    vkUpdateDescriptorSets(context.device(), static_cast<std::uint32_t>(writes_list.size()), writes_list.data(), 0, nullptr);
    sets_.push_back(set);
  }
}

}  // namespace attnviz::vk
