#include "core/vk/matrix_cores.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/vk/check.h"
#include "core/vk/devices.h"

namespace attnviz::vk {
namespace {

// An instance-level function of the extension: the loader exports only the core ones.
bool offers_fp16_shape(VkInstance instance, VkPhysicalDevice device) {
  const auto list = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV>(
      vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV"));
  if (list == nullptr) return false;
  std::uint32_t count = 0;
  check(list(device, &count, nullptr), "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV");
  std::vector<VkCooperativeMatrixPropertiesNV> shapes(count);
  for (auto& shape : shapes) shape.sType = VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV;
  check(list(device, &count, shapes.data()), "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV");
  shapes.resize(count);
  return std::any_of(shapes.begin(), shapes.end(), [](const VkCooperativeMatrixPropertiesNV& s) {
    return s.MSize == 16 && s.NSize == 16 && s.KSize == 16 && s.AType == VK_COMPONENT_TYPE_FLOAT16_NV &&
           s.BType == VK_COMPONENT_TYPE_FLOAT16_NV && s.CType == VK_COMPONENT_TYPE_FLOAT32_NV &&
           s.DType == VK_COMPONENT_TYPE_FLOAT32_NV && s.scope == VK_SCOPE_SUBGROUP_NV;
  });
}

MatrixCoreSupport unusable(bool fp16_arithmetic, std::string reason) {
  return {fp16_arithmetic, false, std::move(reason)};
}

}  // namespace

MatrixCoreSupport query_matrix_cores(VkInstance instance, std::uint32_t instance_api, VkPhysicalDevice device) {
  VkPhysicalDeviceProperties properties{};
  vkGetPhysicalDeviceProperties(device, &properties);
  if (instance_api < VK_API_VERSION_1_2 || properties.apiVersion < VK_API_VERSION_1_2) {
    return unusable(false, "fp16 cooperative matrices need Vulkan 1.2 (shaderFloat16, the Vulkan memory model)");
  }
  const bool extension = missing_device_extensions(device, {VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME}).empty();
  VkPhysicalDeviceVulkan12Features vulkan12{};
  vulkan12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  VkPhysicalDeviceCooperativeMatrixFeaturesNV cooperative{};
  cooperative.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV;
  cooperative.pNext = &vulkan12;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.pNext = extension ? static_cast<void*>(&cooperative) : static_cast<void*>(&vulkan12);
  vkGetPhysicalDeviceFeatures2(device, &features);
  const bool fp16 = vulkan12.shaderFloat16 == VK_TRUE;
  if (!fp16) return unusable(false, "the device lacks shaderFloat16");
  if (!extension) return unusable(true, "the device lacks VK_NV_cooperative_matrix");
  if (cooperative.cooperativeMatrix != VK_TRUE) return unusable(true, "the device does not enable cooperativeMatrix");
  if (vulkan12.vulkanMemoryModel != VK_TRUE) return unusable(true, "the device lacks the Vulkan memory model");
  if (!offers_fp16_shape(instance, device)) {
    return unusable(true, "the device offers no 16 x 16 x 16 fp16 cooperative matrix with fp32 sums at subgroup scope");
  }
  return {true, true, ""};
}

MatrixCoreFeatures::MatrixCoreFeatures(const MatrixCoreSupport& support) {
  if (!support.fp16_arithmetic) return;
  vulkan12_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  vulkan12_.shaderFloat16 = VK_TRUE;
  chain_ = &vulkan12_;
  if (!support.usable) return;
  vulkan12_.vulkanMemoryModel = VK_TRUE;
  cooperative_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV;
  cooperative_.pNext = &vulkan12_;
  cooperative_.cooperativeMatrix = VK_TRUE;
  chain_ = &cooperative_;
}

}  // namespace attnviz::vk
