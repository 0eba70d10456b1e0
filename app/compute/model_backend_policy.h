#pragma once
// ModelBackendPolicy: which backend computes the window's model and how the window says so.
// The window's choice (automatic, Eigen, Vulkan, or Vulkan compared with Eigen layer by layer)
// resolved against the automatic choice; after a Vulkan failure Eigen computes until the user
// chooses a backend again, and the failure is noticed once. No threads, no model: the model
// session asks it what to compute with and tells it what did.

#include <optional>
#include <string>

#include "app/compute/compute_session.h"

namespace attnviz::compute {

class ModelBackendPolicy {
 public:
  // The window's choice (every frame); true when what computes the next pass changed. Choosing
  // again after a Vulkan failure tries Vulkan again.
  bool choose(BackendMode mode, const AutomaticChoice& automatic);
  // What computes the next pass: Vulkan, Cpu or Both (Automatic resolved; Cpu after a failure).
  [[nodiscard]] BackendMode effective() const;
  // A result shown: what computed it, and why Vulkan could not ("" when it could).
  void shown(BackendMode computed, const std::string& vulkan_failure);

  // Short, for the status bar: "model: Eigen, automatic (CPU driver)", "model: Vulkan, as
  // chosen", "model: Eigen (Vulkan failed)".
  [[nodiscard]] std::string summary() const;
  // At length, for the Backend panel (the automatic choice's reason, the failure).
  [[nodiscard]] std::string explanation() const;
  // Why Vulkan could not compute the model ("" when it could or was not asked to).
  [[nodiscard]] const std::string& vulkan_failure() const { return vulkan_failure_; }
  // A Vulkan failure not yet reported (the window posts it as a notice once).
  std::optional<std::string> take_notice();

 private:
  BackendMode mode_ = BackendMode::Automatic;
  AutomaticChoice automatic_;
  BackendMode shown_ = BackendMode::Cpu;  // what computed the shown result
  std::string vulkan_failure_;
  std::optional<std::string> unreported_notice_;
};

}  // namespace attnviz::compute
