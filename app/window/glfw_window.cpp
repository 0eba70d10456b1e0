#include "app/window/glfw_window.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "app/window/app_icon.h"
#include "app/window/x11_keysym_witness.h"
#include "core/common/error.h"
#include "core/vk/instance.h"

namespace attnviz::window {
namespace {

// Every monitor's work area: the desktop less its panels and docks.
std::vector<WindowPlacement> work_areas() {
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  std::vector<WindowPlacement> areas;
  for (int m = 0; m < count; ++m) {
    WindowPlacement area;
    glfwGetMonitorWorkarea(monitors[m], &area.x, &area.y, &area.width, &area.height);
    if (area.width > 0 && area.height > 0) areas.push_back(area);
  }
  return areas;
}

// The remembered size where it still fits, else the size asked for, shrunk to the primary
// monitor where it is the default.
Extent opening_size(const WindowOptions& options, bool remembered_fits) {
  if (remembered_fits) {
    return {options.placement->width, options.placement->height};
  }
  const Extent wanted{options.width, options.height};
  GLFWmonitor* primary = glfwGetPrimaryMonitor();
  if (!options.fit_to_screen || primary == nullptr) return wanted;
  WindowPlacement area;
  glfwGetMonitorWorkarea(primary, &area.x, &area.y, &area.width, &area.height);
  return fitted_size(wanted, {area.width, area.height});
}

// GLFW reports errors through a callback; keep the last one for our exception messages.
std::string& last_glfw_error() {
  static std::string message;
  return message;
}

// The core's advice ends with "`--backend cpu` computes with Eigen instead", which is true of
// attnviz compute but not of the window: it draws with Vulkan whatever computes the numbers.
std::string environment_note() {
  const std::string variables = vk::driver_environment_summary();
  return variables.empty() ? "" : " (with " + variables + " set)";
}

void remember_glfw_error(int code, const char* description) {
  last_glfw_error() = "GLFW error " + std::to_string(code) + ": " + (description ? description : "(no description)");
}

// The one window's event counter (GLFW callbacks are plain functions). ImGui's GLFW backend,
// initialised later, chains to these callbacks for the events it handles too.
std::uint64_t* g_events = nullptr;
KeyQueue* g_input = nullptr;
X11InputMethod* g_input_method = nullptr;
X11KeysymWitness* g_keysym_witness = nullptr;
// GLFW's characters for the key being handled are stale: the witness gave the right ones.
bool g_glfw_chars_replaced = false;
void count(GLFWwindow*) {
  if (g_events != nullptr) ++*g_events;
}
void count_pos(GLFWwindow* w, double, double) { count(w); }
void queue_button(GLFWwindow* w, int button, int action, int /*mods*/) {
  count(w);
  if (g_input != nullptr) g_input->push_button(button, action == GLFW_PRESS);
}
// GLFW looks a key's character up after this callback returns, from the keyboard mapping the
// server has by then; where the key was rebound since it was pressed (xdotool type, issue 44),
// the witness's characters go in instead and GLFW's are dropped.
void queue_characters_typed_at_press(int scancode, int mods) {
  if (g_keysym_witness == nullptr || scancode <= 0) return;
  const auto text = g_keysym_witness->glfw_text_if_rebound(static_cast<unsigned int>(scancode));
  if (!text) return;
  g_glfw_chars_replaced = true;
  if ((mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT)) != 0) return;  // as GLFW: no text with Ctrl or Alt
  for (const char32_t c : *text)
    if (c >= 0x20 && c != 0x7f) g_input->push_char(static_cast<unsigned int>(c));
}
void queue_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
  count(w);
  g_glfw_chars_replaced = false;
  if (g_input == nullptr) return;
  if (action != GLFW_REPEAT) g_input->push(key, action == GLFW_PRESS);
  if (action != GLFW_RELEASE) queue_characters_typed_at_press(scancode, mods);
}
void queue_char(GLFWwindow* w, unsigned int code_point) {
  count(w);
  if (g_input != nullptr && !g_glfw_chars_replaced) g_input->push_char(code_point);
}
void count_flag(GLFWwindow* w, int) { count(w); }
void count_size(GLFWwindow* w, int, int) { count(w); }
void count_scale(GLFWwindow* w, float, float) { count(w); }

}  // namespace

std::string window_driver_advice() {
  return "The window draws with Vulkan even when Eigen computes (--backend cpu), so it needs a Vulkan driver: "
         "without a GPU, install Mesa's CPU driver with sudo apt-get install mesa-vulkan-drivers; with one, its "
         "vendor's Vulkan driver (attnviz devices lists what is found). Without any driver, attnviz compute "
         "--backend cpu still computes.";
}

Extent fitted_size(Extent wanted, Extent work_area) {
  if (work_area.width <= 0 || work_area.height <= 0) return wanted;
  // A margin on each side, and the title bar's height (about 40 pixels) below the work area's.
  const int most_width = work_area.width * 96 / 100;
  const int most_height = work_area.height * 96 / 100 - 40;
  return {std::clamp(wanted.width, 320, std::max(320, most_width)),
          std::clamp(wanted.height, 240, std::max(240, most_height))};
}

bool placement_fits(const WindowPlacement& placement, const std::vector<WindowPlacement>& work_areas) {
  if (placement.width < 320 || placement.height < 240) return false;
  return std::any_of(work_areas.begin(), work_areas.end(), [&](const WindowPlacement& area) {
    return placement.x >= area.x && placement.y >= area.y && placement.x + placement.width <= area.x + area.width &&
           placement.y + placement.height <= area.y + area.height;
  });
}

GlfwWindow::GlfwWindow(const WindowOptions& options) {
  glfwSetErrorCallback(remember_glfw_error);
  bool initialised = false;
  {
    const InputMethodHiddenFromGlfw hidden;
    initialised = glfwInit() == GLFW_TRUE;
  }
  if (!initialised) {
    throw std::runtime_error("cannot open a window: " + last_glfw_error() +
                             ". attnviz needs a display (X11 or Wayland); without one, run it under "
                             "xvfb-run, or use the headless commands (attnviz compute, attnviz export)");
  }
  if (glfwVulkanSupported() != GLFW_TRUE) {
    glfwTerminate();
    throw BackendUnavailable("the window cannot draw: GLFW found no Vulkan loader (libvulkan.so.1)" +
                             environment_note() + ". " + window_driver_advice());
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  glfwWindowHint(GLFW_RESIZABLE, options.fixed_size ? GLFW_FALSE : GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_FALSE);  // our fonts and style scale instead
  // WM_CLASS "attnviz": the desktop entry's StartupWMClass, so docks group the window with it.
  glfwWindowHintString(GLFW_X11_CLASS_NAME, "attnviz");
  glfwWindowHintString(GLFW_X11_INSTANCE_NAME, "attnviz");
  // The monitors asked once: the remembered place decides both the size and the position.
  const bool remembered_fits = options.placement && placement_fits(*options.placement, work_areas());
  const Extent size = opening_size(options, remembered_fits);
  window_ = glfwCreateWindow(size.width, size.height, options.title.c_str(), nullptr, nullptr);
  title_ = options.title;
  if (window_ == nullptr) {
    glfwTerminate();
    throw std::runtime_error("cannot create the window: " + last_glfw_error());
  }
  if (remembered_fits) {
    glfwSetWindowPos(window_, options.placement->x, options.placement->y);
  }
  set_icon();
  count_events();
  keysym_witness_ = std::make_unique<X11KeysymWitness>(window_);
  g_keysym_witness = keysym_witness_->active() ? keysym_witness_.get() : nullptr;
  input_method_ = std::make_unique<X11InputMethod>(window_, input_, g_keysym_witness);
  g_input_method = input_method_.get();
}

void GlfwWindow::set_icon() {
  // Window managers pick the size they draw; these cover title bars to task switchers.
  constexpr int kSizes[] = {16, 32, 48, 128};
  std::vector<std::vector<std::uint8_t>> pixels;
  std::vector<GLFWimage> images;
  for (const int size : kSizes) pixels.push_back(render_app_icon(size));
  for (std::size_t i = 0; i < pixels.size(); ++i) images.push_back(GLFWimage{kSizes[i], kSizes[i], pixels[i].data()});
  glfwSetWindowIcon(window_, static_cast<int>(images.size()), images.data());
}

void GlfwWindow::count_events() {
  g_events = &events_;
  g_input = &input_;
  glfwSetCursorPosCallback(window_, count_pos);
  glfwSetScrollCallback(window_, count_pos);
  glfwSetMouseButtonCallback(window_, queue_button);
  glfwSetKeyCallback(window_, queue_key);
  glfwSetCharCallback(window_, queue_char);
  glfwSetWindowFocusCallback(window_, count_flag);
  glfwSetCursorEnterCallback(window_, count_flag);
  glfwSetWindowIconifyCallback(window_, count_flag);
  glfwSetFramebufferSizeCallback(window_, count_size);
  glfwSetWindowContentScaleCallback(window_, count_scale);
  glfwSetWindowRefreshCallback(window_, count);
}

void GlfwWindow::take_back_input_events() const {
  glfwSetKeyCallback(window_, queue_key);
  glfwSetMouseButtonCallback(window_, queue_button);
  glfwSetCharCallback(window_, queue_char);
}

GlfwWindow::~GlfwWindow() {
  g_events = nullptr;
  g_input = nullptr;
  g_input_method = nullptr;
  g_keysym_witness = nullptr;
  input_method_.reset();  // its input context names the window
  keysym_witness_.reset();
  glfwDestroyWindow(window_);
  glfwTerminate();
}

std::vector<std::string> GlfwWindow::required_instance_extensions() {
  std::uint32_t count = 0;
  const char** names = glfwGetRequiredInstanceExtensions(&count);
  if (names == nullptr) {
    const std::string glfw = last_glfw_error().empty() ? "" : " (" + last_glfw_error() + ")";
    throw BackendUnavailable(
        "the window cannot draw: the Vulkan loader is installed, but no Vulkan driver offers the "
        "surface extensions a window needs (VK_KHR_surface and its X11 or Wayland partner)" +
        environment_note() + glfw + ". " + window_driver_advice());
  }
  return {names, names + count};
}

VkSurfaceKHR GlfwWindow::create_surface(VkInstance instance) const {
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  if (glfwCreateWindowSurface(instance, window_, nullptr, &surface) != VK_SUCCESS) return VK_NULL_HANDLE;
  return surface;
}

bool GlfwWindow::should_close() const { return glfwWindowShouldClose(window_) == GLFW_TRUE; }

void GlfwWindow::request_close() const { glfwSetWindowShouldClose(window_, GLFW_TRUE); }

void GlfwWindow::cancel_close() const { glfwSetWindowShouldClose(window_, GLFW_FALSE); }

Extent GlfwWindow::framebuffer_size() const {
  Extent extent;
  glfwGetFramebufferSize(window_, &extent.width, &extent.height);
  return extent;
}

bool GlfwWindow::minimised() const {
  const Extent size = framebuffer_size();
  return glfwGetWindowAttrib(window_, GLFW_ICONIFIED) == GLFW_TRUE || size.width <= 0 || size.height <= 0;
}

float GlfwWindow::content_scale() const {
  float x = 1.0f;
  float y = 1.0f;
  glfwGetWindowContentScale(window_, &x, &y);
  // Xvfb and some X servers report nonsense (0, or a huge value): keep the UI usable.
  return std::clamp(std::max(x, y), 1.0f, 4.0f);
}

float GlfwWindow::ui_scale() const {
  int window_w = 0;
  int window_h = 0;
  glfwGetWindowSize(window_, &window_w, &window_h);
  const Extent framebuffer = framebuffer_size();
  const float platform_scale =
      window_w > 0 ? std::max(1.0f, static_cast<float>(framebuffer.width) / static_cast<float>(window_w)) : 1.0f;
  return std::max(1.0f, content_scale() / platform_scale);
}

void GlfwWindow::set_title(const std::string& title) {
  if (title == title_ || window_ == nullptr) return;
  glfwSetWindowTitle(window_, title.c_str());
  title_ = title;
}

WindowPlacement GlfwWindow::placement() const {
  if (glfwGetWindowMonitor(window_) != nullptr && windowed_.saved) {
    return {windowed_.x, windowed_.y, windowed_.width, windowed_.height};
  }
  WindowPlacement p;
  glfwGetWindowPos(window_, &p.x, &p.y);
  glfwGetWindowSize(window_, &p.width, &p.height);
  return p;
}

void GlfwWindow::set_fullscreen(bool fullscreen) {
  const bool now = glfwGetWindowMonitor(window_) != nullptr;
  if (fullscreen == now) return;
  if (fullscreen) {
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = monitor != nullptr ? glfwGetVideoMode(monitor) : nullptr;
    if (mode == nullptr) return;  // no monitor to fill: stay windowed
    glfwGetWindowPos(window_, &windowed_.x, &windowed_.y);
    glfwGetWindowSize(window_, &windowed_.width, &windowed_.height);
    windowed_.saved = true;
    glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else if (windowed_.saved) {
    glfwSetWindowMonitor(window_, nullptr, windowed_.x, windowed_.y, windowed_.width, windowed_.height, 0);
  }
}

void GlfwWindow::poll_events() {
  if (g_input_method != nullptr && g_input_method->active()) {
    if (g_events != nullptr) *g_events += g_input_method->pump();
  } else if (g_keysym_witness != nullptr) {
    g_keysym_witness->note_queued_presses();  // before GLFW looks their characters up
  }
  glfwPollEvents();
}

void GlfwWindow::wait_events(double timeout_s) {
  if (g_input_method != nullptr && g_input_method->active()) {
    // GLFW would wait on its own connection only, and keys arrive on the input method's.
    g_input_method->wait(timeout_s);
  } else if (g_keysym_witness != nullptr) {
    g_keysym_witness->wait(timeout_s);  // glfwWaitEvents would handle the presses unnoted
  } else {
    glfwWaitEventsTimeout(timeout_s);
    return;
  }
  poll_events();
}

}  // namespace attnviz::window
