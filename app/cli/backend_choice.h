#pragma once
// Which compute backend(s) a command runs: shared by `compute`, `export` and the window.

#include <memory>
#include <optional>
#include <string>

#include "core/attention/backend.h"

namespace attnviz::cli {

// kind is "cpu" (Eigen) or "vulkan" (on device_index, else ATTNVIZ_DEVICE, else the preferred
// device). Throws BackendUnavailable (exit 3) when Vulkan cannot run here, with what was tried
// and how to install a driver; InputError (exit 2) for another kind or a malformed ATTNVIZ_DEVICE.
std::unique_ptr<Backend> make_backend(const std::string& kind, std::optional<int> device_index);

}  // namespace attnviz::cli
