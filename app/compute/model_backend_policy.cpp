#include "app/compute/model_backend_policy.h"

#include <utility>

namespace attnviz::compute {
namespace {

const char* backend_name(BackendMode backend) {
  switch (backend) {
    case BackendMode::Vulkan: return "Vulkan";
    case BackendMode::Both: return "Vulkan, compared with Eigen";
    default: return "Eigen";
  }
}

}  // namespace

bool ModelBackendPolicy::choose(BackendMode mode, const AutomaticChoice& automatic) {
  const BackendMode before = effective();
  if (mode != mode_) vulkan_failure_.clear();  // chosen again: Vulkan is tried again
  mode_ = mode;
  // Called every frame: copied only when it changed (no allocation in a steady frame).
  if (automatic.mode != automatic_.mode || automatic.reason != automatic_.reason) automatic_ = automatic;
  return effective() != before;
}

BackendMode ModelBackendPolicy::effective() const {
  if (!vulkan_failure_.empty()) return BackendMode::Cpu;
  return mode_ == BackendMode::Automatic ? automatic_.mode : mode_;
}

void ModelBackendPolicy::shown(BackendMode computed, const std::string& vulkan_failure) {
  if (!vulkan_failure.empty()) {
    vulkan_failure_ = vulkan_failure;
    unreported_notice_ =
        "Vulkan could not compute the model (" + vulkan_failure_ + "); it is computed with Eigen instead.";
  }
  shown_ = computed;
}

std::string ModelBackendPolicy::summary() const {
  const std::string shown = std::string("model: ") + backend_name(shown_);
  if (!vulkan_failure_.empty()) return shown + " (Vulkan failed)";
  if (mode_ == BackendMode::Automatic) return shown + ", automatic (" + automatic_.brief + ")";
  return shown + ", as chosen";
}

std::string ModelBackendPolicy::explanation() const {
  const std::string shown = std::string("The model is computed with ") + backend_name(shown_);
  if (!vulkan_failure_.empty()) {
    return shown + ": Vulkan could not compute it (" + vulkan_failure_ + "). Choose a backend again to retry Vulkan.";
  }
  if (mode_ == BackendMode::Automatic) return shown + ", chosen automatically: " + automatic_.reason + ".";
  return shown + ", as chosen.";
}

std::optional<std::string> ModelBackendPolicy::take_notice() { return std::exchange(unreported_notice_, std::nullopt); }

}  // namespace attnviz::compute
