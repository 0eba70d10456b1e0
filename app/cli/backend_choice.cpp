#include "app/cli/backend_choice.h"

#include "core/common/error.h"

namespace attnviz::cli {

std::unique_ptr<Backend> make_backend(const std::string& kind, std::optional<int> device_index) {
  (void)device_index;
  if (kind == "cpu") return make_cpu_backend();
  throw BackendUnavailable("the Vulkan backend is not part of this build yet; use --backend cpu");
}

}  // namespace attnviz::cli
