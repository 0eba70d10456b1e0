#pragma once
// "Preparing shaders…" before a recompute that may block. The first computation of a model
// shape the session has not computed before (other heads, K/V heads, widths, W_O or
// cross-attention) can keep the frame loop busy for a while on a CPU driver (lavapipe compiling
// for it: K/V heads 1 → 2 once took about 2 s). Rather than a frozen frame, the window first
// draws one frame saying so, and recomputes in the next. The sentence's length is not part of
// the shape: typing never waits for a notice frame. The Vulkan backend's first run is announced
// the same way, once: lavapipe compiles every kernel at its first dispatch (3.5-4.4 s on a first
// start with Vulkan chosen, where the window otherwise froze without a word). Plain data:
// unit-tested.

#include <compare>
#include <optional>
#include <set>

#include "core/scenario/scenario.h"

namespace attnviz::desktop {

struct ModelShape {
  int heads = 0;
  int kv_heads = 0;
  int d_model = 0;
  int d_k = 0;
  int d_v = 0;
  bool output_projection = false;
  bool cross_attention = false;
  auto operator<=>(const ModelShape&) const = default;
};
ModelShape shape_of(const Scenario& scenario);

class ShapeNotice {
 public:
  enum class Why { NewShape, FirstVulkanRun };

  // Before each frame's recompute: `changed_to` the shape the document changed to (nullopt when
  // it did not change), `first_vulkan_run` when the recompute due is the Vulkan backend's first.
  // True when this frame should be drawn with the notice and the recompute wait for the next
  // frame: for a shape not computed before, once per change, and for the first Vulkan run, once;
  // never for the first result (there is nothing on screen to freeze yet).
  bool defer(const std::optional<ModelShape>& changed_to, bool first_vulkan_run, bool has_result);
  // The recompute of `shape` ran.
  void computed(const ModelShape& shape);
  // The notice is up (this frame draws it), and what it says.
  [[nodiscard]] bool showing() const { return showing_; }
  [[nodiscard]] Why why() const { return why_; }

 private:
  std::set<ModelShape> computed_;
  bool showing_ = false;
  bool first_vulkan_run_noticed_ = false;
  Why why_ = Why::NewShape;
};

}  // namespace attnviz::desktop
