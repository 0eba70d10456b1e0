#include "core/vk/pipeline.h"

#include "core/vk/check.h"
#include "core/vk/descriptors.h"

namespace attnviz::vk {

ShaderModule create_shader_module(VkDevice device, std::span<const std::uint32_t> spirv) {
  VkShaderModuleCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  info.codeSize = spirv.size_bytes();
  info.pCode = spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  check(vkCreateShaderModule(device, &info, nullptr, &module), "vkCreateShaderModule");
  return {device, module};
}

SpecializationConstants& SpecializationConstants::set(std::uint32_t id, std::uint32_t value) {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].constantID == id) {
      values_[i] = value;
      return *this;
    }
  }
  entries_.push_back({id, static_cast<std::uint32_t>(values_.size() * sizeof(std::uint32_t)), sizeof(std::uint32_t)});
  values_.push_back(value);
  return *this;
}

VkSpecializationInfo SpecializationConstants::info() const {
  VkSpecializationInfo info{};
  info.mapEntryCount = static_cast<std::uint32_t>(entries_.size());
  info.pMapEntries = entries_.data();
  info.dataSize = values_.size() * sizeof(std::uint32_t);
  info.pData = values_.data();
  return info;
}

PipelineLayout create_pipeline_layout(VkDevice device, VkDescriptorSetLayout set_layout, std::uint32_t push_bytes,
                                      VkShaderStageFlags stages) {
  const VkPushConstantRange range{stages, 0, push_bytes};
  VkPipelineLayoutCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  info.setLayoutCount = 1;
  info.pSetLayouts = &set_layout;
  info.pushConstantRangeCount = push_bytes > 0 ? 1u : 0u;
  info.pPushConstantRanges = &range;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  check(vkCreatePipelineLayout(device, &info, nullptr, &layout), "vkCreatePipelineLayout");
  return {device, layout};
}

ComputePipeline::ComputePipeline(VkDevice device, std::span<const std::uint32_t> spirv,
                                 std::span<const VkDescriptorType> bindings, std::uint32_t push_constant_bytes,
                                 const SpecializationConstants& constants, VkPipelineCache cache)
    : set_layout_(create_set_layout(device, bindings, VK_SHADER_STAGE_COMPUTE_BIT)),
      layout_(create_pipeline_layout(device, set_layout_.get(), push_constant_bytes, VK_SHADER_STAGE_COMPUTE_BIT)),
      bindings_(bindings.begin(), bindings.end()),
      push_constant_bytes_(push_constant_bytes) {
  const ShaderModule module = create_shader_module(device, spirv);
  const VkSpecializationInfo specialization = constants.info();
  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module.get();
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = &specialization;
  info.layout = layout_.get();
  VkPipeline pipeline = VK_NULL_HANDLE;
  check(vkCreateComputePipelines(device, cache, 1, &info, nullptr, &pipeline), "vkCreateComputePipelines");
  pipeline_ = Pipeline(device, pipeline);
}

}  // namespace attnviz::vk
