#pragma once
// Key presses and releases between two frames, handed to Dear ImGui one change per key and
// frame. ImGui 1.86 reads io.KeysDown once per frame, so a tap whose press and release both
// arrive before the next frame (xdotool, a presenter remote, a quick typist) would never be
// seen down; here the release waits for the next frame instead. Plain data: unit-tested.

#include <cstddef>
#include <vector>

namespace attnviz::window {

struct KeyChange {
  int key = 0;  // a GLFW key code (ImGui 1.86's io.KeysDown is indexed by them)
  bool down = false;
};

class KeyQueue {
 public:
  // A press (down) or release as GLFW reported it; key repeats are not changes.
  void push(int key, bool down) { events_.push_back({key, down}); }

  // Calls apply(change) for this frame's changes, in the order they happened, up to (not
  // including) the first event that would hide a press: a second change of a key that already
  // changed this frame, or any release after a press (a quick Ctrl+Z's Z release, or its Ctrl
  // release, which would leave Z down without Ctrl). That event and everything after it wait
  // for the next frame, so every press is seen for a frame with the modifiers held at the time.
  template <class Apply>
  void deliver(Apply&& apply) {
    std::size_t taken = 0;
    changed_.clear();
    bool pressed = false;
    for (; taken < events_.size(); ++taken) {
      const KeyChange change = events_[taken];
      if (changed_this_frame(change.key) || (pressed && !change.down)) break;
      changed_.push_back(change.key);
      pressed = pressed || change.down;
      apply(change);
    }
    events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(taken));
  }

  // Events wait for a later frame: the window must draw again rather than sleep.
  [[nodiscard]] bool pending() const { return !events_.empty(); }

 private:
  [[nodiscard]] bool changed_this_frame(int key) const;

  std::vector<KeyChange> events_;
  std::vector<int> changed_;  // keys changed in the frame being delivered (a handful)
};

}  // namespace attnviz::window
