#pragma once
// The two graphics pipelines of the heatmaps.
//
// The heatmap pipeline draws a matrix's cells into the heatmap's cached image (heatmap.vert/.frag):
// no vertex input (the quad comes from the push constants), dynamic viewport and scissor, one
// descriptor set:
//   binding 0  uniform texel buffer (R32F)     the matrix's values
//   binding 1  uniform texel buffer (RGBA32UI) the mask's global-token table (common/mask.glsl)
//   binding 2  uniform texel buffer (RGBA32F)  the colormap tables (colormaps.h)
//   binding 3  uniform texel buffer (R32F)     dropout's kept set, 1.0 / 0.0 (or the values again)
//
// The image pipeline draws a cached image on the window every frame (heatmap_image.vert/.frag): one
// combined image sampler at binding 0, no blending (the image is opaque: where the matrix was
// panned past its edge it holds the widget's background colour).
//
// Both are built through the pipeline cache (core/vk/pipeline_cache.h) when one is given.

#include <vulkan/vulkan.h>

#include <cstddef>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

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
  std::int32_t flags;  // HeatmapFlags, and the cells read per pixel and axis (1..3) << kSamplesShift
  float hatch;
  MaskParams mask;
  float distance_bias;      // shown −= distance_bias · |row − col| (ALiBi)
  std::int32_t kept_first;  // the kept matrix's first float in its view
};
static_assert(sizeof(HeatmapPush) == 128 && sizeof(HeatmapPush) <= 128, "keep in step with shaders/heatmap_push.glsl");
static_assert(offsetof(HeatmapPush, mask) == 80, "keep in step with shaders/heatmap_push.glsl");
static_assert(offsetof(HeatmapPush, distance_bias) == 120, "keep in step with shaders/heatmap_push.glsl");

// Mirrors ImagePush in shaders/heatmap_image.vert and .frag.
struct ImagePush {
  float rect[4];         // the image's place in framebuffer pixels (whole pixels)
  float framebuffer[2];  // the framebuffer's size
};
static_assert(sizeof(ImagePush) == 24, "keep in step with shaders/heatmap_image.vert");

enum HeatmapFlags : std::int32_t {
  kFlagMaskCells = 1,
  kFlagDroppedCells = 2,
  kFlagDiverging = 8,
  kFlagLog = 16,
  kFlagNanHidden = 32,
};
// flags >> kSamplesShift: cells read per pixel along each axis when a pixel covers several
// (1..3; 128 bytes of push constants leave no room for a field of its own).
constexpr int kSamplesShift = 8;

// A pipeline drawing one opaque quad (no vertex input, no blending) with one descriptor set
// and one push-constant block seen by both stages.
class QuadPipeline {
 public:
  QuadPipeline(vk::DescriptorSetLayout set_layout, vk::PipelineLayout layout, vk::Pipeline pipeline)
      : set_layout_(std::move(set_layout)), layout_(std::move(layout)), pipeline_(std::move(pipeline)) {}

  [[nodiscard]] VkPipeline pipeline() const { return pipeline_.get(); }
  [[nodiscard]] VkPipelineLayout layout() const { return layout_.get(); }
  [[nodiscard]] VkDescriptorSetLayout set_layout() const { return set_layout_.get(); }

 private:
  vk::DescriptorSetLayout set_layout_;
  vk::PipelineLayout layout_;
  vk::Pipeline pipeline_;
};

// Which specialisation of heatmap.frag draws an image (its constants 0 and 1). On llvmpipe a
// shader pays for every branch it holds, taken or not: the sampling loop and the search of a
// mask expression's runs were 40 % of an editing frame's drawing where neither was needed.
struct HeatmapVariant {
  bool one_sample = false;   // every pixel covers at most one cell along each axis
  bool fields_mask = false;  // the mask (if any) has no expression
  [[nodiscard]] int index() const { return (one_sample ? 1 : 0) | (fields_mask ? 2 : 0); }
  friend bool operator==(const HeatmapVariant&, const HeatmapVariant&) = default;
};
inline constexpr int kHeatmapVariants = 4;

// The variant that draws `push` as the general shader does: one sample where the shader would
// take one (cells per pixel at most 1 on both axes, or one sample asked for), the fields'
// arithmetic where the mask has no runs.
HeatmapVariant variant_for(const HeatmapPush& push);

// heatmap.vert and heatmap.frag in each variant, sharing one layout.
class HeatmapPipelines {
 public:
  HeatmapPipelines(vk::DescriptorSetLayout set_layout, vk::PipelineLayout layout,
                   std::array<vk::Pipeline, kHeatmapVariants> pipelines)
      : set_layout_(std::move(set_layout)), layout_(std::move(layout)), pipelines_(std::move(pipelines)) {}

  [[nodiscard]] VkPipeline pipeline(HeatmapVariant variant) const {
    return pipelines_[static_cast<std::size_t>(variant.index())].get();
  }
  [[nodiscard]] VkPipelineLayout layout() const { return layout_.get(); }
  [[nodiscard]] VkDescriptorSetLayout set_layout() const { return set_layout_.get(); }

 private:
  vk::DescriptorSetLayout set_layout_;
  vk::PipelineLayout layout_;
  std::array<vk::Pipeline, kHeatmapVariants> pipelines_;
};

// `render_pass`: the image pass (one colour attachment, the cached image).
HeatmapPipelines make_heatmap_pipelines(VkDevice device, VkRenderPass render_pass,
                                        VkPipelineCache cache = VK_NULL_HANDLE);
// `render_pass`: the window's (ImGui's) render pass.
QuadPipeline make_image_pipeline(VkDevice device, VkRenderPass render_pass, VkPipelineCache cache = VK_NULL_HANDLE);

}  // namespace attnviz::heatmap
