#pragma once
// The window's own X input method connection (XIM, issue 17): Korean, Japanese and Chinese
// input methods (ibus, fcitx5) compose text on the spot, drawn by us at the caret, and the
// keys they consume never reach ImGui. Why XIM on a connection of its own, and not GLFW's
// input context or the ibus D-Bus API: docs/input-method.md.
//
// Active only when XMODIFIERS names an input method ("@im=ibus", "@im=fcitx") that answers;
// otherwise GLFW handles keys exactly as it always did, and a named input method that does
// not answer is reported once on stderr.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "app/window/preedit.h"

struct GLFWwindow;

namespace attnviz::window {

class KeyQueue;
class X11KeysymWitness;

// Around glfwInit: GLFW 3.3 would open the input method XMODIFIERS names and give the window
// an input context without pre-edit, which takes the input method's focus from ours. GLFW
// gets Xlib's built-in one instead (XMODIFIERS=@im=none) and XMODIFIERS is restored after.
class InputMethodHiddenFromGlfw {
 public:
  InputMethodHiddenFromGlfw();
  ~InputMethodHiddenFromGlfw();
  InputMethodHiddenFromGlfw(const InputMethodHiddenFromGlfw&) = delete;
  InputMethodHiddenFromGlfw& operator=(const InputMethodHiddenFromGlfw&) = delete;

 private:
  std::optional<std::string> saved_;
};

// Where the caret of the active text field is, in window pixels (its top and height).
struct TextCaret {
  std::uint32_t field = 0;  // the field's ImGui ID
  float x = 0.0f;
  float y = 0.0f;
  float height = 0.0f;
};

class X11InputMethod {
 public:
  // `witness` (may be null) knows what keys rebound since they were pressed typed (issue 44).
  X11InputMethod(GLFWwindow* window, KeyQueue& queue, X11KeysymWitness* witness);
  ~X11InputMethod();
  X11InputMethod(const X11InputMethod&) = delete;
  X11InputMethod& operator=(const X11InputMethod&) = delete;

  [[nodiscard]] bool active() const;
  // Handles every event that waits on the input method's connection (keys, clicks and focus
  // of the window, the input method's own messages); returns how many there were.
  std::uint64_t pump();
  // Sleeps until either connection has something, or `timeout_s` passed.
  void wait(double timeout_s) const;
  // Once a frame, after the UI was built: the active text field's caret (nullopt: none).
  void on_frame(const std::optional<TextCaret>& caret);
  // What the input method is composing now (empty when nothing, or when inactive).
  [[nodiscard]] const Preedit& preedit() const;

  struct Connection;

 private:
  std::unique_ptr<Connection> connection_;
};

}  // namespace attnviz::window
