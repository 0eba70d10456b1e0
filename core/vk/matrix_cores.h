#pragma once
// fp16 cooperative matrices (tensor cores) for shaders/tiled_attention_fp16.comp: whether a
// device offers what that shader needs, and the features to enable for it at device creation.
// Bookworm's glslc knows GL_NV_cooperative_matrix but not the KHR extension, so the shader
// asks for VK_NV_cooperative_matrix (NVIDIA's drivers offer it beside the KHR one).

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>

namespace attnviz::vk {

// What the shader needs: VK_NV_cooperative_matrix with 16 × 16 × 16 fp16 × fp16 + fp32
// matrices at subgroup scope, shaderFloat16 and the Vulkan memory model (Vulkan 1.2 features;
// glslang compiles every cooperative-matrix shader under that model). Its emulated twin
// (shaders/tiled_attention_fp16_emulated.comp, for tests on any device) needs shaderFloat16 only.
struct MatrixCoreSupport {
  bool fp16_arithmetic = false;  // shaderFloat16: the emulated twin can run
  bool usable = false;           // everything the cooperative-matrix shader needs
  std::string reason;            // why not usable: "the device lacks VK_NV_cooperative_matrix"
};

// `instance_api` is the version the instance was created with; the Vulkan 1.2 feature query
// needs it and the device's at 1.2 or newer.
MatrixCoreSupport query_matrix_cores(VkInstance instance, std::uint32_t instance_api, VkPhysicalDevice device);

// The chain to hang from VkDeviceCreateInfo::pNext (and the extension to enable when usable):
// shaderFloat16 where the device has fp16 arithmetic; cooperativeMatrix and vulkanMemoryModel
// too where it is usable. chain() is null when there is nothing to enable. Not copyable: the
// structures point at each other.
class MatrixCoreFeatures {
 public:
  explicit MatrixCoreFeatures(const MatrixCoreSupport& support);
  MatrixCoreFeatures(const MatrixCoreFeatures&) = delete;
  MatrixCoreFeatures& operator=(const MatrixCoreFeatures&) = delete;
  [[nodiscard]] const void* chain() const { return chain_; }
  static constexpr const char* kExtension = VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME;

 private:
  VkPhysicalDeviceVulkan12Features vulkan12_{};
  VkPhysicalDeviceCooperativeMatrixFeaturesNV cooperative_{};
  const void* chain_ = nullptr;
};

}  // namespace attnviz::vk
