#include "app/cli/backend_choice.h"

#include "core/common/error.h"
#include "core/cpu/cpu_backend.h"
#include "core/gpu/tiled_kernel.h"
#include "core/gpu/vulkan_attention.h"
#include "core/overview/overview_vulkan.h"

namespace attnviz::cli {

std::unique_ptr<Backend> make_backend(const std::string& kind, std::optional<int> device_index) {
  if (kind == "cpu") return make_cpu_backend();
  if (kind == "vulkan") {
    // Without --device, the context reads ATTNVIZ_DEVICE, then prefers a discrete GPU.
    vk::ContextOptions options;
    options.device_index = device_index;
    return with_eigen_hint([&] { return make_vulkan_backend(options); });
  }
  throw InputError("<command line>", "--backend", "\"" + kind + "\" is not one of: cpu, vulkan");
}

std::unique_ptr<tiled::TiledRunner> make_tiled_runner(const std::string& kind, std::optional<int> device_index,
                                                      tiled::TiledPrecision precision) {
  if (kind == "cpu") return tiled::make_cpu_tiled();
  if (kind == "vulkan") {
    vk::ContextOptions options;
    options.device_index = device_index;
    const auto context = with_eigen_hint([&] { return vk::Context::create(options); });
    tiled::VulkanTiledOptions tiled_options;
    tiled_options.precision = precision;
    try {
      return tiled::make_vulkan_tiled(context, tiled_options);
    } catch (const BackendUnavailable& e) {  // the device cannot run the fp16 kernel: it can run the others
      throw BackendUnavailable(
          std::string(e.what()) +
          ". `--precision fp32` runs the tiled kernel in fp32 on it; `--backend cpu` computes with Eigen.");
    }
  }
  throw InputError("<command line>", "--backend", "\"" + kind + "\" is not one of: cpu, vulkan");
}

std::unique_ptr<overview::OverviewRunner> make_overview_runner(const std::string& kind,
                                                               std::optional<int> device_index) {
  if (kind == "cpu") return overview::make_cpu_overview();
  if (kind == "vulkan") {
    vk::ContextOptions options;
    options.device_index = device_index;
    return with_eigen_hint([&] { return overview::make_vulkan_overview(options); });
  }
  throw InputError("<command line>", "--backend", "\"" + kind + "\" is not one of: cpu, vulkan");
}

}  // namespace attnviz::cli
