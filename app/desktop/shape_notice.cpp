#include "app/desktop/shape_notice.h"

namespace attnviz::desktop {

ModelShape shape_of(const Scenario& s) {
  ModelShape shape;
  shape.heads = s.num_heads;
  shape.kv_heads = s.num_kv_heads;
  shape.d_model = s.d_model;
  shape.d_k = s.d_k;
  shape.d_v = s.d_v;
  shape.output_projection = s.wo.has_value() || s.generate_wo;
  shape.cross_attention = s.source.has_value();
  return shape;
}

bool ShapeNotice::defer(const std::optional<ModelShape>& changed_to, bool first_vulkan_run, bool has_result) {
  if (showing_) {  // the notice was drawn: now the recompute
    showing_ = false;
    return false;
  }
  if (!has_result) return false;
  if (first_vulkan_run && !first_vulkan_run_noticed_) {
    first_vulkan_run_noticed_ = true;
    why_ = Why::FirstVulkanRun;
  } else if (changed_to && !computed_.contains(*changed_to)) {
    why_ = Why::NewShape;
  } else {
    return false;
  }
  showing_ = true;
  return true;
}

void ShapeNotice::computed(const ModelShape& shape) {
  computed_.insert(shape);
  showing_ = false;
}

}  // namespace attnviz::desktop
