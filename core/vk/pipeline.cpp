#include "core/vk/pipeline.h"

#include "core/vk/check.h"

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

ComputePipeline::ComputePipeline(VkDevice device, std::span<const std::uint32_t> spirv,
                                 std::span<const VkDescriptorType> bindings, std::uint32_t push_constant_bytes,
                                 const SpecializationConstants& constants, VkPipelineCache cache)
    : bindings_(bindings.begin(), bindings.end()), push_constant_bytes_(push_constant_bytes) {
  std::vector<VkDescriptorSetLayoutBinding> layout_bindings(bindings.size());
  for (std::uint32_t b = 0; b < layout_bindings.size(); ++b) {
    layout_bindings[b].binding = b;
    layout_bindings[b].descriptorType = bindings[b];
    layout_bindings[b].descriptorCount = 1;
    layout_bindings[b].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo set_info{};
  set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  set_info.bindingCount = static_cast<std::uint32_t>(layout_bindings.size());
  set_info.pBindings = layout_bindings.data();
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  check(vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout), "vkCreateDescriptorSetLayout");
  set_layout_ = DescriptorSetLayout(device, set_layout);

  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_bytes};
  VkPipelineLayoutCreateInfo layout_info{};
  layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout;
  layout_info.pushConstantRangeCount = push_constant_bytes > 0 ? 1u : 0u;
  layout_info.pPushConstantRanges = &range;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  check(vkCreatePipelineLayout(device, &layout_info, nullptr, &layout), "vkCreatePipelineLayout");
  layout_ = PipelineLayout(device, layout);

  const ShaderModule module = create_shader_module(device, spirv);
  const VkSpecializationInfo specialization = constants.info();
  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module.get();
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = &specialization;
  info.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  check(vkCreateComputePipelines(device, cache, 1, &info, nullptr, &pipeline), "vkCreateComputePipelines");
  pipeline_ = Pipeline(device, pipeline);
}

}  // namespace attnviz::vk
