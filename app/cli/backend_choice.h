#pragma once
// Which compute backend(s) a command runs: shared by `compute`, `export` and the window.

#include <memory>
#include <optional>
#include <string>

#include "core/attention/backend.h"
#include "core/common/error.h"
#include "core/gpu/tiled_kernel.h"
#include "core/overview/overview.h"
#include "core/tiled/tiled_attention.h"

namespace attnviz::cli {

// kind is "cpu" (Eigen) or "vulkan" (on device_index, else ATTNVIZ_DEVICE, else the preferred
// device). Throws BackendUnavailable (exit 3) when Vulkan cannot run here, with what was tried
// and how to install a driver; InputError (exit 2) for another kind or a malformed ATTNVIZ_DEVICE.
std::unique_ptr<Backend> make_backend(const std::string& kind, std::optional<int> device_index);
// The tiled (FlashAttention-2) algorithm on the same choices: core/tiled's CPU runner or the
// Vulkan kernel of core/gpu, in fp32 or (Vulkan only) on fp16 cooperative matrices.
std::unique_ptr<tiled::TiledRunner> make_tiled_runner(const std::string& kind, std::optional<int> device_index,
                                                      tiled::TiledPrecision precision = tiled::TiledPrecision::Float32);
// The overview (core/overview) on the same choices.
std::unique_ptr<overview::OverviewRunner> make_overview_runner(const std::string& kind,
                                                               std::optional<int> device_index);

// Runs `work`; a BackendUnavailable from it gains the command line's way out ("`--backend
// cpu` computes with Eigen instead"), which the core cannot give (the window has none).
template <class Work>
auto with_eigen_hint(Work&& work) -> decltype(work()) {
  try {
    return work();
  } catch (const BackendUnavailable& e) {
    throw BackendUnavailable(std::string(e.what()) + " `--backend cpu` computes with Eigen instead.");
  }
}

}  // namespace attnviz::cli
