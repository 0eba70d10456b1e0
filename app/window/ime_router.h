#pragma once
// Where each key goes when an input method composes text (issue 17), as rules on plain data:
// the X11 glue (x11_input_method.cpp) asks the input method about each event and reports
// here what it said; this class decides what reaches the window's ordered input queue
// (key_queue.h). Unit-tested headless (tests/window/ime_router_test.cpp).
//
//  - The input method sees every key first and answers asynchronously: it keeps a key, or
//    forwards it back (ibus: Enter, arrows, Ctrl+A, the space after a syllable), in its own
//    time and even out of order (ibus forwards Ctrl+A's A before the Ctrl).
//  - Modifier keys (Shift, Ctrl, Alt, Super) reach ImGui when they really happen; their
//    forwarded copies are ignored.
//  - While a text field has the keyboard, a key the input method kept (ㅎ becoming 하,
//    Backspace turning 하 back into ㅎ) never reaches ImGui: no key, no character. A key it
//    forwards reaches ImGui as GLFW would have reported it (the key, then its characters:
//    none with Ctrl or Alt, none below U+0020), with the modifiers its event says were held
//    (pressed around it for that key alone when they are not held any more).
//  - Without a text field every real key is a shortcut and reaches ImGui at once ("t" in
//    Hangul mode); the forwarded copies are ignored and what the input method began
//    composing is cancelled at the frame.
//  - A release reaches ImGui only for a key ImGui saw pressed; a held key's repeats are
//    characters, not new presses (GLFW's behaviour; ImGui repeats keys itself). A key given
//    back after it was let go (ibus may even give its release back first) is a tap: pressed
//    and released, never left down.
//  - Committed text (the syllable finished) is characters.
//  - A click while a syllable is pending first commits it into the field it was typed in
//    (the click may activate another field), and the input method is told to forget it; the
//    copy it may then commit itself is dropped. Likewise when the active text field changes
//    by other means, the pending syllable is cancelled rather than moved into the new field.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/window/key_queue.h"
#include "app/window/preedit.h"

namespace attnviz::window {

// Where a key event comes from: the keyboard, kept by the input method (Consumed) or let
// through (Passed), or the input method giving it back (Forwarded).
enum class KeyOrigin { Consumed, Passed, Forwarded };

class ImeRouter {
 public:
  explicit ImeRouter(KeyQueue& queue) : queue_(&queue) {}

  // The pre-edit the input method draws (its callbacks land here).
  [[nodiscard]] Preedit& preedit() { return preedit_; }
  [[nodiscard]] const Preedit& preedit() const { return preedit_; }
  // The input method drew something new: a commit that follows is its own, not a copy.
  void on_preedit_changed();

  // A key press or release after the input method saw it. `glfw_key` may be GLFW_KEY_UNKNOWN
  // (-1): only its characters count. `modifiers`: GLFW_MOD_* bits the event says were held.
  void on_key_press(int glfw_key, KeyOrigin origin, std::u32string_view characters, int modifiers);
  void on_key_release(int glfw_key, KeyOrigin origin);
  // Text the input method committed.
  void on_commit(std::u32string_view text);

  // A mouse button (GLFW numbering). Returns true when the input method must be reset: the
  // pending syllable was just committed here.
  [[nodiscard]] bool on_button(int button, bool down);
  // Commits the pending syllable here, into the active field (a click, the mouse wheel).
  // Returns true when there was one: the input method must be reset.
  [[nodiscard]] bool commit_pending();

  // Once a frame: the text field that has the keyboard (nullopt: none). Returns true when the
  // input method must be reset: the syllable pending for another field was cancelled.
  [[nodiscard]] bool on_frame(std::optional<std::uint32_t> text_field);

 private:
  void push_characters(std::u32string_view text, bool plain);
  void push_press(int glfw_key, int modifiers);
  // Presses or releases the modifiers that differ between ImGui's keys and `modifiers`;
  // returns the changes that put them back.
  std::vector<std::pair<int, bool>> sync_modifiers(int modifiers);
  [[nodiscard]] bool is_down(int glfw_key) const;
  [[nodiscard]] bool is_held(int glfw_key) const;
  void set_down(int glfw_key, bool down);
  static void set(std::vector<int>& keys, int glfw_key, bool in);

  KeyQueue* queue_;
  Preedit preedit_;
  std::vector<int> down_;               // keys ImGui saw pressed and not yet released
  std::vector<int> held_;               // keys held on the keyboard (real events only)
  std::optional<std::uint32_t> field_;  // the text field that has the keyboard
  std::optional<std::uint32_t> owner_;  // the field the pending syllable belongs to
  std::u32string drop_commit_;          // committed here already: drop the input method's copy
};

}  // namespace attnviz::window
