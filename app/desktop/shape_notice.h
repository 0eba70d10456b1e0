#pragma once
// "Preparing shaders…" before a recompute that may block. The first computation of a model
// shape the session has not computed before (other heads, K/V heads, widths, W_O or
// cross-attention) can keep the frame loop busy for a while on a CPU driver (lavapipe compiling
// for it: K/V heads 1 → 2 once took about 2 s). Rather than a frozen frame, the window first
// draws one frame saying so, and recomputes in the next. The sentence's length is not part of
// the shape: typing never waits for a notice frame. Plain data: unit-tested.

#include <compare>
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
  // Before a recompute of `next` (the document changed): true when this frame should be drawn
  // with the notice and the recompute wait for the next frame. Only for a shape not computed
  // before, only once per change, and never for the first result (there is nothing on screen
  // to freeze yet).
  bool defer(const ModelShape& next, bool has_result);
  // The recompute of `shape` ran.
  void computed(const ModelShape& shape);
  // The notice is up (this frame draws it).
  [[nodiscard]] bool showing() const { return showing_; }

 private:
  std::set<ModelShape> computed_;
  bool showing_ = false;
};

}  // namespace attnviz::desktop
