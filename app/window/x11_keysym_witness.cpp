#include "app/window/x11_keysym_witness.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#define GLFW_EXPOSE_NATIVE_X11
#include <GLFW/glfw3native.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <deque>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>

#include "core/common/worker.h"

namespace attnviz::window {
namespace {

struct SeenPress {
  unsigned long time = 0;
  unsigned int keycode = 0;
  KeySym keysym = NoSymbol;
};

// Presses kept: far more than a frame's worth of typing.
constexpr std::size_t kKeptPresses = 512;
// How long a reader waits for the thread to see a press it has not seen yet (it reads as soon
// as the server sends, so only a starved CPU makes it late).
constexpr auto kCatchUp = std::chrono::milliseconds(30);

KeySym keysym_of(XKeyEvent& event) {
  std::array<char, 32> ignored{};
  KeySym keysym = NoSymbol;
  XLookupString(&event, ignored.data(), static_cast<int>(ignored.size()), &keysym, nullptr);
  return keysym;
}

// The text a keysym types: a Unicode keysym (what xdotool binds outside Latin-1) or a Latin-1
// one is that character; no keysym types nothing. nullopt: a legacy keysym (a Hangul or
// Cyrillic keysym of an old layout), which Xlib's lookup turns into text better than we could.
std::optional<std::u32string> text_of(KeySym keysym) {
  if (keysym == NoSymbol) return std::u32string();
  if (keysym >= 0x01000100 && keysym <= 0x0110ffff)
    return std::u32string(1, static_cast<char32_t>(keysym - 0x01000000));
  if ((keysym >= 0x20 && keysym <= 0x7e) || (keysym >= 0xa0 && keysym <= 0xff))
    return std::u32string(1, static_cast<char32_t>(keysym));
  return std::nullopt;
}

}  // namespace

struct X11KeysymWitness::Thread {
  ~Thread();
  bool start(GLFWwindow* glfw_window);
  void run(const std::stop_token& stop);
  void record(XKeyEvent& event);
  std::optional<KeySym> keysym_at(const KeyPressOnWire& press);

  Display* glfw_display = nullptr;
  Display* display = nullptr;  // ours: only the worker reads it
  Window window = 0;
  std::array<int, 2> wake{-1, -1};
  std::unique_ptr<Worker> reader;  // runs run() until the witness goes
  std::mutex mutex;
  std::deque<SeenPress> seen;         // guarded by mutex
  std::deque<KeyPressOnWire> queued;  // the frame loop's alone
};

bool X11KeysymWitness::Thread::start(GLFWwindow* glfw_window) {
  glfw_display = glfwGetX11Display();
  window = glfw_display != nullptr ? glfwGetX11Window(glfw_window) : 0;
  if (window == 0) return false;  // not X11 (GLFW on Wayland)
  display = XOpenDisplay(XDisplayString(glfw_display));
  if (display == nullptr) return false;
  if (pipe2(wake.data(), O_CLOEXEC | O_NONBLOCK) != 0) return false;
  XSelectInput(display, window, KeyPressMask);
  XSync(display, False);
  reader = std::make_unique<Worker>();
  reader->submit([this](const TaskContext& task) { run(task.stop); });
  return true;
}

X11KeysymWitness::Thread::~Thread() {
  reader.reset();  // stops run() through its stop callback and waits for it
  for (const int fd : wake)
    if (fd >= 0) ::close(fd);
  if (display != nullptr) XCloseDisplay(display);
}

void X11KeysymWitness::Thread::run(const std::stop_token& stop) {
  const std::stop_callback wake_poll(stop, [this] {
    const char byte = 0;
    [[maybe_unused]] const auto written = ::write(wake[1], &byte, 1);
  });
  std::array<pollfd, 2> fds{{{ConnectionNumber(display), POLLIN, 0}, {wake[0], POLLIN, 0}}};
  while (!stop.stop_requested()) {
    while (XPending(display) > 0) {
      XEvent event{};
      XNextEvent(display, &event);
      if (event.type == KeyPress) record(event.xkey);
      if (event.type == MappingNotify) XRefreshKeyboardMapping(&event.xmapping);  // without XKB
    }
    ::poll(fds.data(), fds.size(), -1);
  }
}

// Read now, while the server still has the key bound to what it typed.
void X11KeysymWitness::Thread::record(XKeyEvent& event) {
  const SeenPress press{event.time, event.keycode, keysym_of(event)};
  const std::lock_guard lock(mutex);
  seen.push_back(press);
  if (seen.size() > kKeptPresses) seen.pop_front();
}

std::optional<KeySym> X11KeysymWitness::Thread::keysym_at(const KeyPressOnWire& press) {
  // The reader records a press within a millisecond unless the CPU is starved: look every
  // millisecond for kCatchUp at most (no condition variable: the one Worker owns the waiting).
  const auto give_up = std::chrono::steady_clock::now() + kCatchUp;
  for (;;) {
    {
      const std::lock_guard lock(mutex);
      const auto it = std::find_if(seen.rbegin(), seen.rend(), [&](const SeenPress& s) {
        return s.time == press.time && s.keycode == press.keycode;
      });
      if (it != seen.rend()) return it->keysym;
      // Presses come in the server's order: one older than the newest seen never will be (a
      // key an input method gave back with no time, ibus's 0, is not waited for).
      if (!seen.empty() && seen.back().time >= press.time) return std::nullopt;
    }
    if (std::chrono::steady_clock::now() >= give_up) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

X11KeysymWitness::X11KeysymWitness(GLFWwindow* window) {
  auto thread = std::make_unique<Thread>();
  if (thread->start(window)) thread_ = std::move(thread);
}

X11KeysymWitness::~X11KeysymWitness() = default;

bool X11KeysymWitness::active() const { return thread_ != nullptr; }

std::optional<std::u32string> X11KeysymWitness::text_if_rebound(Display* reader, const KeyPressOnWire& press) {
  if (!thread_ || press.keycode == 0) return std::nullopt;
  const std::optional<KeySym> then = thread_->keysym_at(press);
  if (!then) return std::nullopt;
  XKeyEvent now{};
  now.type = KeyPress;
  now.display = reader;
  now.keycode = press.keycode;
  now.state = press.state;
  now.time = press.time;
  if (keysym_of(now) == *then) return std::nullopt;
  return text_of(*then);
}

void X11KeysymWitness::note_queued_presses() {
  if (!thread_) return;
  Thread& t = *thread_;
  t.queued.clear();  // GLFW handled every event it had: what is left it did not report
  XEventsQueued(t.glfw_display, QueuedAfterReading);
  // A predicate that takes nothing sees every queued event, in order.
  const auto note = [](Display*, XEvent* event, XPointer data) -> Bool {
    auto* self = reinterpret_cast<Thread*>(data);
    if (event->type == KeyPress && event->xkey.window == self->window)
      self->queued.push_back({event->xkey.time, event->xkey.keycode, event->xkey.state});
    return False;
  };
  XEvent unused{};
  XCheckIfEvent(t.glfw_display, &unused, note, reinterpret_cast<XPointer>(&t));
}

std::optional<std::u32string> X11KeysymWitness::glfw_text_if_rebound(unsigned int keycode) {
  if (!thread_) return std::nullopt;
  auto& queued = thread_->queued;
  const auto it =
      std::find_if(queued.begin(), queued.end(), [&](const KeyPressOnWire& p) { return p.keycode == keycode; });
  if (it == queued.end()) return std::nullopt;  // read after the note: GLFW looks it up fresh
  const KeyPressOnWire press = *it;
  queued.erase(queued.begin(), it + 1);
  return text_if_rebound(thread_->glfw_display, press);
}

void X11KeysymWitness::wait(double timeout_s) const {
  if (!thread_) return;
  Display* glfw_display = thread_->glfw_display;
  if (XPending(glfw_display) > 0) return;
  pollfd fd{ConnectionNumber(glfw_display), POLLIN, 0};
  ::poll(&fd, 1, static_cast<int>(std::lround(timeout_s * 1000.0)));
}

}  // namespace attnviz::window
