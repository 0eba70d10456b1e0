#include "app/heatmap/heatmap_pipeline.h"

#include <array>
#include <span>
#include <utility>

#include "attnviz_display_shaders.h"
#include "core/vk/check.h"
#include "core/vk/descriptors.h"
#include "core/vk/pipeline.h"

namespace attnviz::heatmap {
namespace {

// A pipeline drawing one opaque quad of six vertices (no vertex input, no blending), dynamic
// viewport and scissor, into `render_pass`'s one colour attachment.
vk::Pipeline make_quad_pipeline(VkDevice device, VkRenderPass render_pass, VkPipelineLayout layout,
                                std::span<const std::uint32_t> vertex_spirv,
                                std::span<const std::uint32_t> fragment_spirv, VkPipelineCache cache,
                                const VkSpecializationInfo* fragment_constants = nullptr) {
  const vk::ShaderModule vertex = vk::create_shader_module(device, vertex_spirv);
  const vk::ShaderModule fragment = vk::create_shader_module(device, fragment_spirv);
  std::array<VkPipelineShaderStageCreateInfo, 2> stages{};
  stages[0].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vertex.get();
  stages[0].pName = "main";
  stages[1] = stages[0];
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = fragment.get();
  stages[1].pSpecializationInfo = fragment_constants;

  VkPipelineVertexInputStateCreateInfo vertex_input{};
  vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  VkPipelineInputAssemblyStateCreateInfo assembly{};
  assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo viewport{};
  viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{};
  raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{};
  multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend_attachment{};
  blend_attachment.colorWriteMask =
      VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo blending{};
  blending.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
  blending.attachmentCount = 1;
  blending.pAttachments = &blend_attachment;
  VkPipelineDepthStencilStateCreateInfo depth{};
  depth.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
  const VkDynamicState dynamic_states[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{};
  dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamic_states;

  VkGraphicsPipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  info.stageCount = static_cast<std::uint32_t>(stages.size());
  info.pStages = stages.data();
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blending;
  info.pDynamicState = &dynamic;
  info.layout = layout;
  info.renderPass = render_pass;
  VkPipeline pipeline = VK_NULL_HANDLE;
  vk::check(vkCreateGraphicsPipelines(device, cache, 1, &info, nullptr, &pipeline), "vkCreateGraphicsPipelines");
  return {device, pipeline};
}

// The values, the mask's global tokens, the colormaps, dropout's kept set (heatmap_pipeline.h).
constexpr std::array<VkDescriptorType, 4> kCellBindings = {
    VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
    VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER};
constexpr std::array<VkDescriptorType, 1> kImageBindings = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
// Both shaders read the push constants (heatmap_push.glsl, heatmap_image.vert).
constexpr VkShaderStageFlags kPushStages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

}  // namespace

HeatmapVariant variant_for(const HeatmapPush& push) {
  // As heatmap.frag: samples = clamp(ceil(cells per pixel − 1e-3), 1, flags' samples).
  const float cols_per_pixel = push.view[3] / (push.rect[2] - push.rect[0]);
  const float rows_per_pixel = push.view[2] / (push.rect[3] - push.rect[1]);
  const int asked = (push.flags >> kSamplesShift) & 3;
  HeatmapVariant variant;
  variant.one_sample = asked <= 1 || (cols_per_pixel <= 1.0f && rows_per_pixel <= 1.0f);
  variant.fields_mask = push.mask.runs_offset == 0;
  return variant;
}

HeatmapPipelines make_heatmap_pipelines(VkDevice device, VkRenderPass render_pass, VkPipelineCache cache) {
  vk::DescriptorSetLayout set_layout = vk::create_set_layout(device, kCellBindings, VK_SHADER_STAGE_FRAGMENT_BIT);
  vk::PipelineLayout layout = vk::create_pipeline_layout(device, set_layout.get(), sizeof(HeatmapPush), kPushStages);
  // heatmap.frag's constant_id 0 (kOneSample) and 1 (kFieldsMask): SPIR-V booleans are 32 bits.
  const std::array<VkSpecializationMapEntry, 2> entries = {
      {{0, 0, sizeof(VkBool32)}, {1, sizeof(VkBool32), sizeof(VkBool32)}}};
  std::array<vk::Pipeline, kHeatmapVariants> pipelines;
  for (int index = 0; index < kHeatmapVariants; ++index) {
    const std::array<VkBool32, 2> values = {(index & 1) != 0 ? VK_TRUE : VK_FALSE,
                                            (index & 2) != 0 ? VK_TRUE : VK_FALSE};
    VkSpecializationInfo constants{};
    constants.mapEntryCount = static_cast<std::uint32_t>(entries.size());
    constants.pMapEntries = entries.data();
    constants.dataSize = sizeof values;
    constants.pData = values.data();
    pipelines[static_cast<std::size_t>(index)] = make_quad_pipeline(
        device, render_pass, layout.get(), shaders::heatmap_vert(), shaders::heatmap_frag(), cache, &constants);
  }
  return {std::move(set_layout), std::move(layout), std::move(pipelines)};
}

QuadPipeline make_image_pipeline(VkDevice device, VkRenderPass render_pass, VkPipelineCache cache) {
  vk::DescriptorSetLayout set_layout = vk::create_set_layout(device, kImageBindings, VK_SHADER_STAGE_FRAGMENT_BIT);
  vk::PipelineLayout layout = vk::create_pipeline_layout(device, set_layout.get(), sizeof(ImagePush), kPushStages);
  vk::Pipeline pipeline = make_quad_pipeline(device, render_pass, layout.get(), shaders::heatmap_image_vert(),
                                             shaders::heatmap_image_frag(), cache);
  return {std::move(set_layout), std::move(layout), std::move(pipeline)};
}

}  // namespace attnviz::heatmap
