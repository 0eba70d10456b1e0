#pragma once
// Shader modules and compute pipelines built from SPIR-V embedded in the binary
// (see cmake/AttnvizShaders.cmake). A compute pipeline here has one descriptor set (binding b
// of the type bindings[b]), one push-constant block and specialization constants.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <vector>

#include "core/vk/handle.h"

namespace attnviz::vk {

ShaderModule create_shader_module(VkDevice device, std::span<const std::uint32_t> spirv);

// A pipeline layout of that one set and one push-constant block of `push_bytes` for `stages`
// (no block when push_bytes is 0).
PipelineLayout create_pipeline_layout(VkDevice device, VkDescriptorSetLayout set_layout, std::uint32_t push_bytes,
                                      VkShaderStageFlags stages);

// 32-bit specialization constants by constant_id.
class SpecializationConstants {
 public:
  SpecializationConstants& set(std::uint32_t id, std::uint32_t value);
  [[nodiscard]] VkSpecializationInfo info() const;  // valid while this object lives unchanged

 private:
  std::vector<VkSpecializationMapEntry> entries_;
  std::vector<std::uint32_t> values_;
};

class ComputePipeline {
 public:
  ComputePipeline() = default;
  // `cache`: the context's pipeline cache (Context::pipeline_cache()), or none.
  ComputePipeline(VkDevice device, std::span<const std::uint32_t> spirv, std::span<const VkDescriptorType> bindings,
                  std::uint32_t push_constant_bytes, const SpecializationConstants& constants,
                  VkPipelineCache cache = VK_NULL_HANDLE);

  [[nodiscard]] VkPipeline pipeline() const { return pipeline_.get(); }
  [[nodiscard]] VkPipelineLayout layout() const { return layout_.get(); }
  [[nodiscard]] VkDescriptorSetLayout set_layout() const { return set_layout_.get(); }
  [[nodiscard]] const std::vector<VkDescriptorType>& bindings() const { return bindings_; }
  [[nodiscard]] std::uint32_t push_constant_bytes() const { return push_constant_bytes_; }

 private:
  DescriptorSetLayout set_layout_;
  PipelineLayout layout_;
  Pipeline pipeline_;
  std::vector<VkDescriptorType> bindings_;
  std::uint32_t push_constant_bytes_ = 0;
};

}  // namespace attnviz::vk
