#include "core/about/components.h"

#include <utf8proc.h>
#include <vulkan/vulkan.h>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

namespace attnviz::about {
namespace {

std::string dotted(long major, long minor, long patch) {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

// The loader the process runs with (1.0 loaders have no vkEnumerateInstanceVersion).
std::string vulkan_loader_version() {
  const auto enumerate =
      reinterpret_cast<PFN_vkEnumerateInstanceVersion>(vkGetInstanceProcAddr(nullptr, "vkEnumerateInstanceVersion"));
  std::uint32_t version = VK_API_VERSION_1_0;
  if (enumerate != nullptr && enumerate(&version) != VK_SUCCESS) return "unknown";
  return dotted(VK_API_VERSION_MAJOR(version), VK_API_VERSION_MINOR(version), VK_API_VERSION_PATCH(version));
}

// _OPENMP is the date of the specification the compiler implements.
std::string openmp_version() {
  switch (_OPENMP) {
    case 201511: return "4.5";
    case 201811: return "5.0";
    case 202011: return "5.1";
    case 202111: return "5.2";
    default: return "spec " + std::to_string(_OPENMP);
  }
}

}  // namespace

std::string attnviz_version() { return ATTNVIZ_VERSION; }

std::vector<Component> core_components() {
  return {
      {"Eigen", dotted(EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION), "MPL-2.0",
       "https://eigen.tuxfamily.org"},
      {"nlohmann/json", dotted(NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR, NLOHMANN_JSON_VERSION_PATCH),
       "MIT", "https://github.com/nlohmann/json"},
      {"utf8proc", utf8proc_version(), "MIT and Unicode-DFS-2016", "https://juliastrings.github.io/utf8proc/"},
      {"stb_image_write", ATTNVIZ_STB_IMAGE_WRITE_VERSION, "MIT or public domain", "https://github.com/nothings/stb"},
      {"stb_truetype", ATTNVIZ_STB_TRUETYPE_VERSION, "MIT or public domain", "https://github.com/nothings/stb"},
      {"Vulkan headers",
       dotted(VK_API_VERSION_MAJOR(VK_HEADER_VERSION_COMPLETE), VK_API_VERSION_MINOR(VK_HEADER_VERSION_COMPLETE),
              VK_HEADER_VERSION),
       "Apache-2.0 or MIT", "https://github.com/KhronosGroup/Vulkan-Headers"},
      {"Vulkan loader", vulkan_loader_version(), "Apache-2.0", "https://github.com/KhronosGroup/Vulkan-Loader"},
      {"OpenMP (GCC libgomp)", openmp_version(), "GPL-3.0-or-later WITH GCC-exception-3.1", "https://gcc.gnu.org"},
  };
}

}  // namespace attnviz::about
