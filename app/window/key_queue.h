#pragma once
// Keys, mouse buttons and typed characters between two frames, handed to Dear ImGui in the
// order they happened, one change per key or button and frame. ImGui 1.86 reads io.KeysDown
// and io.MouseDown once per frame, so a tap whose press and release both arrive before the next
// frame (xdotool, a presenter remote, a quick typist) would never be seen down; here the
// release waits for the next frame instead. Characters and clicks wait behind the keys typed
// before them: a click on a dialog's Export button after typing a path is seen only after every
// key of the path, so no key of it reaches the window's shortcuts once the dialog has closed.
// Plain data: unit-tested.

#include <cstddef>
#include <utility>
#include <vector>

namespace attnviz::window {

enum class InputKind { Key, Button, Char };

struct KeyChange {
  int key = 0;  // a GLFW key code (ImGui 1.86's io.KeysDown is indexed by them), a GLFW mouse
                // button (0 left, 1 right, 2 middle), or a character's code point
  bool down = false;
  InputKind kind = InputKind::Key;
};

class KeyQueue {
 public:
  // A press (down) or release as GLFW reported it; key repeats are not changes.
  void push(int key, bool down) { events_.push_back({key, down, InputKind::Key}); }
  void push_button(int button, bool down) { events_.push_back({button, down, InputKind::Button}); }
  // A typed character (after the keyboard layout and input method): text fields read these.
  void push_char(unsigned int code_point) { events_.push_back({static_cast<int>(code_point), true, InputKind::Char}); }

  // Calls apply(change) for this frame's changes, in the order they happened, up to (not
  // including) the first event that would hide a press: a second change of a key or button
  // that already changed this frame, or any release after a press (a quick Ctrl+Z's Z
  // release, or its Ctrl release, which would leave Z down without Ctrl), or a click after
  // characters (a text field takes characters only while it is active, and a click elsewhere
  // ends that in the same frame: a syllable an input method committed before the click would
  // be lost). That event and everything after it (characters and clicks included) wait for
  // the next frame, so every press is seen for a frame with the modifiers held at the time.
  template <class Apply>
  void deliver(Apply&& apply) {
    std::size_t taken = 0;
    changed_.clear();
    bool pressed = false;
    bool typed = false;
    for (; taken < events_.size(); ++taken) {
      const KeyChange change = events_[taken];
      typed = typed || change.kind == InputKind::Char;
      if (change.kind != InputKind::Char) {
        if (changed_this_frame(change) || (pressed && !change.down)) break;
        if (typed && change.kind == InputKind::Button && change.down) break;
        changed_.emplace_back(change.kind, change.key);
        pressed = pressed || change.down;
      }
      apply(change);
    }
    events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(taken));
  }

  // Events wait for a later frame: the window must draw again rather than sleep.
  [[nodiscard]] bool pending() const { return !events_.empty(); }

 private:
  [[nodiscard]] bool changed_this_frame(const KeyChange& change) const;

  std::vector<KeyChange> events_;
  std::vector<std::pair<InputKind, int>> changed_;  // keys and buttons changed in the frame being delivered
};

}  // namespace attnviz::window
