#pragma once
// What a device must offer for attnviz's compute shaders: one place for the device check and
// the shaders' expectations.

#include <vulkan/vulkan.h>

namespace attnviz::vk {

// The softmax reduces rows with subgroupMax / subgroupAdd (shaders/softmax.comp).
inline constexpr VkSubgroupFeatureFlags kRequiredSubgroupOperations =
    VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
inline constexpr const char* kRequiredSubgroupOperationsText = "basic, arithmetic";

}  // namespace attnviz::vk
