#pragma once
// Which compute backend(s) a command runs: shared by `compute`, `export` and the window.

#include <memory>
#include <optional>
#include <string>

#include "core/attention/backend.h"

namespace attnviz::cli {

// Throws BackendUnavailable (exit 3) when Vulkan cannot run here, with what was tried.
std::unique_ptr<Backend> make_backend(const std::string& kind, std::optional<int> device_index);

}  // namespace attnviz::cli
