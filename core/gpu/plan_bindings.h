#pragma once
// The descriptors of a dispatch plan: one VkBufferView per distinct planned view and one
// descriptor set per dispatch, built when the shape or the buffers change and reused for
// every recompute in between.

#include <cstddef>
#include <utility>
#include <vector>

#include "core/gpu/dispatch_plan.h"
#include "core/vk/handle.h"

namespace attnviz::vk {
class Context;
}  // namespace attnviz::vk

namespace attnviz::gpu {

class Kernels;
class Workspace;

class PlanBindings {
 public:
  void build(const vk::Context& context, const Kernels& kernels, const Workspace& workspace,
             const std::vector<PlannedDispatch>& dispatches);
  [[nodiscard]] VkDescriptorSet set(std::size_t dispatch) const { return sets_[dispatch]; }
  [[nodiscard]] std::size_t view_count() const { return views_.size(); }

 private:
  VkBufferView view_for(const vk::Context& context, const Workspace& workspace, const PlannedView& planned);

  std::vector<std::pair<PlannedView, vk::BufferView>> views_;
  vk::DescriptorPool pool_;  // declared after the views: destroyed (with its sets) before them
  std::vector<VkDescriptorSet> sets_;
};

}  // namespace attnviz::gpu
