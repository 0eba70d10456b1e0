#pragma once
// The graphics pipeline that draws one heatmap: no vertex input (the quad comes from the push
// constants), dynamic viewport and scissor, one descriptor set:
//   binding 0  uniform texel buffer (R32F)     the matrix's values
//   binding 1  uniform texel buffer (RGBA32UI) the mask's global-token table (common/mask.glsl)
//   binding 2  uniform texel buffer (RGBA32F)  the colormap tables (colormaps.h)
//   binding 3  uniform texel buffer (R32F)     dropout's kept set, 1.0 / 0.0 (or the values again)

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>

#include "core/attention/mask.h"
#include "core/vk/handle.h"

namespace attnviz::heatmap {

// Mirrors HeatmapPush in shaders/heatmap_push.glsl (std430 push-constant layout). rows and
// cols are the matrix's; `mask` (the mask's own rows and cols) is read with kFlagMaskCells.
struct HeatmapPush {
  float rect[4];
  float view[4];
  float framebuffer[2];
  float range_min;
  float range_max;
  std::int32_t rows;
  std::int32_t cols;
  std::int32_t row_pitch;
  std::int32_t first;
  float value_scale;
  std::int32_t colormap;
  std::int32_t flags;
  float hatch;
  std::int32_t max_samples;
  MaskParams mask;
  float distance_bias;       // shown −= distance_bias · |row − col| (ALiBi)
  std::int32_t kept_first;   // the kept matrix's first float in its view
};
static_assert(sizeof(HeatmapPush) == 120 && sizeof(HeatmapPush) <= 128, "keep in step with shaders/heatmap_push.glsl");
static_assert(offsetof(HeatmapPush, mask) == 84, "keep in step with shaders/heatmap_push.glsl");
static_assert(offsetof(HeatmapPush, distance_bias) == 112, "keep in step with shaders/heatmap_push.glsl");

enum HeatmapFlags : std::int32_t {
  kFlagMaskCells = 1,
  kFlagDroppedCells = 2,
  kFlagDiverging = 8,
  kFlagLog = 16,
};

class HeatmapPipeline {
 public:
  HeatmapPipeline(VkDevice device, VkRenderPass render_pass);

  [[nodiscard]] VkPipeline pipeline() const { return pipeline_.get(); }
  [[nodiscard]] VkPipelineLayout layout() const { return layout_.get(); }
  [[nodiscard]] VkDescriptorSetLayout set_layout() const { return set_layout_.get(); }

 private:
  vk::DescriptorSetLayout set_layout_;
  vk::PipelineLayout layout_;
  vk::Pipeline pipeline_;
};

}  // namespace attnviz::heatmap
