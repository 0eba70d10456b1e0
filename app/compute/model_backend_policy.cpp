#include "app/compute/model_backend_policy.h"

#include <utility>

#include "app/i18n/translate.h"

namespace attnviz::compute {
namespace {

const char* backend_name(BackendMode backend) {
  switch (backend) {
    case BackendMode::Vulkan: return "Vulkan";  // not translated: a name
    case BackendMode::Both: return i18n::tr("Vulkan, compared with Eigen");
    default: return "Eigen";  // not translated: a name
  }
}

}  // namespace

bool ModelBackendPolicy::choose(BackendMode mode, const AutomaticChoice& automatic) {
  const BackendMode before = effective();
  if (mode != mode_) vulkan_failure_.clear();  // chosen again: Vulkan is tried again
  mode_ = mode;
  // Called every frame: copied only when it changed (no allocation in a steady frame).
  if (automatic != automatic_) automatic_ = automatic;
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
        i18n::format(i18n::tr("Vulkan could not compute the model (%s); it is computed with Eigen instead."),
                     vulkan_failure_.c_str());
  }
  shown_ = computed;
}

std::string ModelBackendPolicy::summary() const {
  const char* name = backend_name(shown_);
  if (!vulkan_failure_.empty()) return i18n::format(i18n::tr("model: %s (Vulkan failed)"), name);
  if (mode_ == BackendMode::Automatic) {
    // TRANSLATORS: the status bar: the backend, then why it was chosen in two words ("CPU driver").
    return i18n::format(i18n::tr("model: %s, automatic (%s)"), name, automatic_.brief().c_str());
  }
  return i18n::format(i18n::tr("model: %s, as chosen"), name);
}

std::string ModelBackendPolicy::explanation() const {
  const char* name = backend_name(shown_);
  if (!vulkan_failure_.empty()) {
    return i18n::format(i18n::tr("The model is computed with %s: Vulkan could not compute it (%s). Choose a backend "
                                 "again to retry Vulkan."),
                        name, vulkan_failure_.c_str());
  }
  if (mode_ == BackendMode::Automatic) {
    return i18n::format(i18n::tr("The model is computed with %s, chosen automatically: %s."), name,
                        automatic_.reason().c_str());
  }
  return i18n::format(i18n::tr("The model is computed with %s, as chosen."), name);
}

std::optional<std::string> ModelBackendPolicy::take_notice() { return std::exchange(unreported_notice_, std::nullopt); }

}  // namespace attnviz::compute
