#include "core/gpu/plan_bindings.h"

#include <utility>

#include "core/gpu/kernels.h"
#include "core/gpu/workspace.h"
#include "core/vk/context.h"
#include "core/vk/descriptors.h"

namespace attnviz::gpu {

VkBufferView PlanBindings::view_for(const vk::Context& context, const Workspace& workspace,
                                    const PlannedView& planned) {
  for (const auto& [known, view] : views_) {
    if (known == planned) return view.get();
  }
  vk::BufferView view =
      vk::create_buffer_view(context.device(), workspace.slot(planned.slot).handle(), planned.format,
                             static_cast<VkDeviceSize>(planned.offset), static_cast<VkDeviceSize>(planned.range));
  return views_.emplace_back(planned, std::move(view)).second.get();
}

void PlanBindings::build(const vk::Context& context, const Kernels& kernels, const Workspace& workspace,
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
  pool_ = vk::create_descriptor_pool(context.device(), static_cast<std::uint32_t>(dispatches.size()), sizes);

  for (const PlannedDispatch& d : dispatches) {
    const vk::ComputePipeline& pipeline = kernels.get(d.kernel);
    const VkDescriptorSet set = vk::allocate_descriptor_set(context.device(), pool_.get(), pipeline.set_layout());
    std::vector<VkBufferView> views(d.views.size());
    for (std::size_t b = 0; b < d.views.size(); ++b) views[b] = view_for(context, workspace, d.views[b]);
    vk::write_texel_buffer_views(context.device(), set, pipeline.bindings(), views);
    sets_.push_back(set);
  }
}

}  // namespace attnviz::gpu
