#pragma once
// What each key typed into the window meant when it was pressed, read at once on a connection
// and thread of its own (issue 44: Korean typed fast lost and garbled syllables).
//
// Tools that type text the keyboard layout lacks (xdotool type, on-screen keyboards, remote
// desktops) bind each character to a spare key code, press it, then bind the next (xdotool
// puts the key back to nothing 20 ms after the press at --delay 80, 1 ms at --delay 5). X key
// events carry only the key code: Xlib finds the character when the client reads the event,
// from the mapping the server has then. A client that reads as soon as the event comes gets
// it right (a Tk entry does); ours reads at the next frame, often after the key was bound to
// the next character or to nothing, so 고 became 이 or nothing. This thread selects key presses
// on the window (other clients may too, unlike button presses) and records each one's keysym
// the moment it arrives; the frame loop uses that where the mapping changed in between.
//
// X11 only; elsewhere (Wayland) it is inactive and nothing changes.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

struct GLFWwindow;
struct _XDisplay;

namespace attnviz::window {

// The key press a reader is about to handle, as X reports it.
struct KeyPressOnWire {
  unsigned long time = 0;  // the server's time, in ms
  unsigned int keycode = 0;
  unsigned int state = 0;  // modifiers and group
};

class X11KeysymWitness {
 public:
  explicit X11KeysymWitness(GLFWwindow* window);
  ~X11KeysymWitness();
  X11KeysymWitness(const X11KeysymWitness&) = delete;
  X11KeysymWitness& operator=(const X11KeysymWitness&) = delete;

  [[nodiscard]] bool active() const;

  // The text `press` typed when it happened, where `reader` (the connection about to look it
  // up) would now find another keysym on that key: the key was rebound since. nullopt: what
  // `reader` finds is right (or the press is unknown here), look it up as usual.
  [[nodiscard]] std::optional<std::u32string> text_if_rebound(_XDisplay* reader, const KeyPressOnWire& press);

  // GLFW's own connection, whose key callback gives no time: the presses waiting in its queue
  // are noted before glfwPollEvents handles them, and taken back in order, by key code, in the
  // key callback, which asks what the press typed before GLFW looks it up.
  void note_queued_presses();
  [[nodiscard]] std::optional<std::u32string> glfw_text_if_rebound(unsigned int keycode);
  // Sleeps until GLFW's connection has something or `timeout_s` passed (glfwWaitEvents would
  // handle the events before their presses are noted).
  void wait(double timeout_s) const;

  struct Thread;

 private:
  std::unique_ptr<Thread> thread_;
};

}  // namespace attnviz::window
