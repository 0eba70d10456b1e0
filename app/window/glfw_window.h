#pragma once
// The GLFW window Vulkan draws into: no client API, a framebuffer size that follows resizes,
// minimising, and the monitor's content scale (HiDPI). One per process.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/window/key_queue.h"
#include "app/window/x11_input_method.h"

struct GLFWwindow;

namespace attnviz::window {

class X11KeysymWitness;

struct Extent {
  int width = 0;
  int height = 0;
  friend bool operator==(const Extent&, const Extent&) = default;
};

// A window's place on the desktop, in screen coordinates.
struct WindowPlacement {
  int x = 0;
  int y = 0;
  int width = 0;
  int height = 0;
  friend bool operator==(const WindowPlacement&, const WindowPlacement&) = default;
};

struct WindowOptions {
  std::string title = "attnviz";
  int width = 1600;  // screen coordinates (pixels on X11)
  int height = 960;
  bool fixed_size = false;  // screenshots: the window keeps exactly the size asked for
  // The size is the default, not one asked for: shrunk to the primary monitor's work area
  // where that is smaller (a 1600 × 1000 window ran off a 1280 × 720 projector).
  bool fit_to_screen = false;
  // Where the last session's window was: put back there when it still fits a monitor's work
  // area (app/desktop/window_memory.h), else the size above.
  std::optional<WindowPlacement> placement;
};

// The size a window opens at: `wanted` where the work area (the monitor less its panels) has room,
// else as much of it as leaves room for the title bar and a margin.
Extent fitted_size(Extent wanted, Extent work_area);
// Whether a remembered placement still lies wholly on one of these work areas (not on a monitor
// unplugged since, nor past the edge of a smaller screen).
bool placement_fits(const WindowPlacement& placement, const std::vector<WindowPlacement>& work_areas);

// What to do when the window finds no Vulkan driver (the window needs one whatever computes).
std::string window_driver_advice();

class GlfwWindow {
 public:
  // Throws std::runtime_error when there is no display to open a window on, and
  // BackendUnavailable when the Vulkan loader or its surface extensions are missing.
  explicit GlfwWindow(const WindowOptions& options);
  ~GlfwWindow();
  GlfwWindow(const GlfwWindow&) = delete;
  GlfwWindow& operator=(const GlfwWindow&) = delete;

  [[nodiscard]] GLFWwindow* handle() const { return window_; }

  // What the Vulkan instance needs to present to this window (VK_KHR_surface, ...).
  [[nodiscard]] static std::vector<std::string> required_instance_extensions();
  // For vk::ContextOptions::create_surface; VK_NULL_HANDLE on failure.
  [[nodiscard]] VkSurfaceKHR create_surface(VkInstance instance) const;

  [[nodiscard]] bool should_close() const;
  void request_close() const;
  // Takes back a close asked for (the close button) that the application wants to ask about.
  void cancel_close() const;
  [[nodiscard]] Extent framebuffer_size() const;
  // Iconified, or a zero-sized framebuffer: nothing can be presented.
  [[nodiscard]] bool minimised() const;
  // The monitor's content scale (1 on a 96 dpi screen, 2 on most HiDPI screens).
  [[nodiscard]] float content_scale() const;
  // How much the UI itself must grow: the content scale, less what the platform already
  // scales (macOS and Wayland give a framebuffer larger than the window; X11 does not).
  [[nodiscard]] float ui_scale() const;

  // The title bar's text (what the window manager and task bar show); a call with the title
  // it already has does nothing, so the frame loop may call it every frame.
  void set_title(const std::string& title);

  // Its place and size when not full screen (the place it had before going full screen).
  [[nodiscard]] WindowPlacement placement() const;

  // Full screen on the primary monitor, or back to the size and place it had before
  // (presentation mode). Without a monitor to fill it stays as it is.
  void set_fullscreen(bool fullscreen);

  // Takes the window system's events (with an input method: its connection's first, so that
  // keys and clicks keep their order; x11_input_method.h).
  static void poll_events();
  // Sleeps until something happens or `timeout_s` passed (an idle or minimised window).
  static void wait_events(double timeout_s = 0.25);

  // The input method that composes Korean, Japanese or Chinese text (inactive without one).
  [[nodiscard]] X11InputMethod& input_method() { return *input_method_; }

  // Input and window events so far (mouse, keys, text, resizes, focus): the frame loop draws
  // continuously only while this moves, and idles otherwise.
  [[nodiscard]] std::uint64_t event_count() const { return events_; }

  // Key and mouse button presses and releases, and typed characters, wait here for the frame
  // that hands them to ImGui (key_queue.h): a tap or a double click faster than a frame is not
  // lost, and no character or click overtakes the keys before it. ImGui's GLFW backend installs
  // its own key, button and character callbacks, which would set its state at once: call
  // take_back_input_events() after initialising it.
  void take_back_input_events() const;
  // Keys, mouse buttons and characters, in the order they happened (key_queue.h).
  [[nodiscard]] KeyQueue& input() { return input_; }
  [[nodiscard]] bool input_pending() const { return input_.pending(); }

 private:
  void set_icon();
  void count_events();

  struct Placement {
    int x = 100, y = 100, width = 1600, height = 1000;
    bool saved = false;
  };

  GLFWwindow* window_ = nullptr;
  std::string title_;
  Placement windowed_;  // where it was before it went full screen
  std::uint64_t events_ = 0;
  KeyQueue input_;
  std::unique_ptr<X11KeysymWitness> keysym_witness_;  // what each key typed when pressed (issue 44)
  std::unique_ptr<X11InputMethod> input_method_;      // after input_ and the witness: it uses both
};

}  // namespace attnviz::window
