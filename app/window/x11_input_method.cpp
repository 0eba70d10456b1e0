#include "app/window/x11_input_method.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#define GLFW_EXPOSE_NATIVE_X11
#include <GLFW/glfw3native.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <poll.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <iostream>
#include <vector>

#include "app/window/ime_router.h"
#include "app/window/key_queue.h"
#include "app/window/x11_keysym_witness.h"

namespace attnviz::window {
namespace {

constexpr const char* kModifiers = "XMODIFIERS";
constexpr long kKeyAndButtonMasks = KeyPressMask | KeyReleaseMask | ButtonPressMask | ButtonReleaseMask;

// "@im=ibus" names an input method; unset, "@im=none" and "@im=" do not.
std::optional<std::string> named_input_method() {
  const char* value = std::getenv(kModifiers);
  if (value == nullptr) return std::nullopt;
  const char* at = std::strstr(value, "@im=");
  if (at == nullptr) return std::nullopt;
  std::string name(at + 4);
  name = name.substr(0, name.find('@'));
  if (name.empty() || name == "none") return std::nullopt;
  return name;
}

// X's text in the pre-edit callbacks: wide characters, or multi-byte text in the locale's
// encoding (UTF-8 in a UTF-8 locale, but an EUC-KR locale works too).
std::u32string decode(const XIMText* text) {
  std::u32string out;
  if (text == nullptr) return out;
  if (text->encoding_is_wchar) {
    for (unsigned short i = 0; text->string.wide_char != nullptr && i < text->length; ++i)
      out += static_cast<char32_t>(text->string.wide_char[i]);
    return out;
  }
  const char* bytes = text->string.multi_byte;
  if (bytes == nullptr) return out;
  std::size_t left = std::strlen(bytes);
  std::mbstate_t state{};
  while (left > 0 && out.size() < text->length) {
    wchar_t wide = 0;
    const std::size_t used = std::mbrtowc(&wide, bytes, left, &state);
    if (used == 0 || used > left) break;  // end, or bytes the locale cannot read
    out += static_cast<char32_t>(wide);
    bytes += used;
    left -= used;
  }
  return out;
}

// GLFW's key codes by X key code, from GLFW's own table (glfwGetKeyScancode).
std::array<int, 256> glfw_keys_by_keycode() {
  std::array<int, 256> keys{};
  keys.fill(GLFW_KEY_UNKNOWN);
  for (int key = GLFW_KEY_SPACE; key <= GLFW_KEY_LAST; ++key) {
    const int code = glfwGetKeyScancode(key);
    if (code > 0 && code < 256) keys[static_cast<std::size_t>(code)] = key;
  }
  return keys;
}

// X buttons 1-3 are left, middle, right; 4-7 the wheel; 8 and up GLFW's buttons 3 and up.
int glfw_button(unsigned int button) {
  switch (button) {
    case Button1: return GLFW_MOUSE_BUTTON_LEFT;
    case Button2: return GLFW_MOUSE_BUTTON_MIDDLE;
    case Button3: return GLFW_MOUSE_BUTTON_RIGHT;
    default: return static_cast<int>(button) - 5;
  }
}

// Xlib's stand-in for text the input method committed: a key press without a key.
Bool is_commit(Display*, XEvent* event, XPointer) {
  return event->type == KeyPress && event->xkey.keycode == 0 ? True : False;
}

int glfw_modifiers(unsigned int state) {
  return ((state & ShiftMask) != 0 ? GLFW_MOD_SHIFT : 0) | ((state & ControlMask) != 0 ? GLFW_MOD_CONTROL : 0) |
         ((state & Mod1Mask) != 0 ? GLFW_MOD_ALT : 0) | ((state & Mod4Mask) != 0 ? GLFW_MOD_SUPER : 0);
}

}  // namespace

InputMethodHiddenFromGlfw::InputMethodHiddenFromGlfw() {
  if (!named_input_method()) return;
  saved_ = std::getenv(kModifiers);
  setenv(kModifiers, "@im=none", 1);
}

InputMethodHiddenFromGlfw::~InputMethodHiddenFromGlfw() {
  if (saved_) setenv(kModifiers, saved_->c_str(), 1);
}

struct X11InputMethod::Connection {
  Connection(GLFWwindow* glfw, KeyQueue& queue, X11KeysymWitness* witness)
      : glfw_window(glfw), router(queue), keysym_witness(witness) {}
  ~Connection();

  bool open(const std::string& name);
  [[nodiscard]] std::vector<XIMStyle> offered_styles() const;
  void create_context();
  void take_composition();
  void handle(XEvent& event);
  void key_press(XEvent& event);
  void key_release(XEvent& event);
  void button(const XButtonEvent& event);
  void scroll(double x, double y) const;
  void reset_context();
  void give_keys_back_to_glfw();
  [[nodiscard]] std::u32string lookup(XKeyEvent& event) const;
  KeyOrigin filter(XEvent& event);
  [[nodiscard]] int glfw_key(unsigned int keycode) const;

  GLFWwindow* glfw_window;
  ImeRouter router;
  X11KeysymWitness* keysym_witness;
  Display* glfw_display = nullptr;
  Display* display = nullptr;  // ours
  Window window = 0;
  XIM im = nullptr;
  XIC ic = nullptr;
  bool im_gone = false;
  bool on_the_spot = false;  // we see (and draw) the composition
  XPoint spot{0, 0};
  Time last_real_time = 0;  // of the newest key event that came from the keyboard
  std::array<int, 256> keys{};
};

namespace {

// The pre-edit callbacks (XIMPreeditCallbacks, "on the spot"): client_data is the connection.
X11InputMethod::Connection* connection_of(XPointer data) { return reinterpret_cast<X11InputMethod::Connection*>(data); }

int preedit_start(XIC, XPointer data, XPointer) {
  connection_of(data)->router.preedit().start();
  connection_of(data)->router.on_preedit_changed();
  return -1;  // no limit on the pre-edit's length
}

int preedit_draw(XIC, XPointer data, XPointer call) {
  const auto* draw = reinterpret_cast<const XIMPreeditDrawCallbackStruct*>(call);
  ImeRouter& router = connection_of(data)->router;
  router.preedit().draw(draw->chg_first, draw->chg_length, decode(draw->text), draw->caret);
  router.on_preedit_changed();
  return 0;
}

int preedit_caret(XIC, XPointer data, XPointer call) {
  const auto* caret = reinterpret_cast<XIMPreeditCaretCallbackStruct*>(call);
  ImeRouter& router = connection_of(data)->router;
  if (caret->direction == XIMAbsolutePosition) router.preedit().move_caret(caret->position);
  return 0;
}

int preedit_done(XIC, XPointer data, XPointer) {
  connection_of(data)->router.preedit().done();
  connection_of(data)->router.on_preedit_changed();
  return 0;
}

void input_method_destroyed(XIM, XPointer data, XPointer) {
  auto* connection = connection_of(data);
  connection->im = nullptr;
  connection->ic = nullptr;  // destroyed with it
  connection->im_gone = true;
}

}  // namespace

bool X11InputMethod::Connection::open(const std::string& name) {
  glfw_display = glfwGetX11Display();
  window = glfwGetX11Window(glfw_window);
  if (glfw_display == nullptr || window == 0) return false;  // not X11 (GLFW on Wayland)
  display = XOpenDisplay(XDisplayString(glfw_display));
  if (display == nullptr) return false;
  if (XSetLocaleModifiers("") == nullptr || (im = XOpenIM(display, nullptr, nullptr, nullptr)) == nullptr) {
    std::cerr << "attnviz: the input method XMODIFIERS names (" << name
              << ") did not answer (is ibus-daemon --xim or fcitx5 running?): typing works, without it; start it "
                 "and then attnviz\n";
    return false;
  }
  XIMCallback destroyed{reinterpret_cast<XPointer>(this), input_method_destroyed};
  XSetIMValues(im, XNDestroyCallback, &destroyed, nullptr);
  create_context();
  if (ic == nullptr) {
    std::cerr << "attnviz: the input method " << name
              << " offers no input context attnviz can use: typing works, "
                 "without it\n";
    return false;
  }
  keys = glfw_keys_by_keycode();
  // Keys and clicks come to this connection only, in the order they happened; GLFW keeps the
  // rest (pointer motion, focus, sizes). The other connection lets go first: only one client
  // may select button presses on a window.
  XWindowAttributes attributes{};
  XGetWindowAttributes(glfw_display, window, &attributes);
  XSelectInput(glfw_display, window, attributes.your_event_mask & ~kKeyAndButtonMasks);
  XSync(glfw_display, False);
  unsigned long filtered = 0;
  XGetICValues(ic, XNFilterEvents, &filtered, nullptr);
  XSelectInput(display, window, kKeyAndButtonMasks | FocusChangeMask | static_cast<long>(filtered));
  XSetICFocus(ic);
  XFlush(display);
  return true;
}

// On the spot (XIMPreeditCallbacks: we draw the composition) where the input method offers it
// (ibus; fcitx5 with its XIM option "Use On The Spot Style"), otherwise over the spot
// (XIMPreeditPosition: the input method draws it at the caret; Xlib may refuse it without a
// font set), otherwise in the input method's own window (XIMPreeditNothing, placed at the
// caret by fcitx5). Keys are routed the same way in all three.
std::vector<XIMStyle> X11InputMethod::Connection::offered_styles() const {
  std::vector<XIMStyle> offered;
  XIMStyles* styles = nullptr;
  if (XGetIMValues(im, XNQueryInputStyle, &styles, nullptr) != nullptr || styles == nullptr) return offered;
  for (const long wanted_bits : {XIMPreeditCallbacks | XIMStatusNothing, XIMPreeditPosition | XIMStatusNothing,
                                 XIMPreeditNothing | XIMStatusNothing}) {
    const auto wanted = static_cast<XIMStyle>(wanted_bits);
    for (unsigned short i = 0; i < styles->count_styles; ++i)
      if (styles->supported_styles[i] == wanted) offered.push_back(wanted);
  }
  XFree(styles);
  return offered;
}

void X11InputMethod::Connection::create_context() {
  for (const XIMStyle style : offered_styles()) {
    on_the_spot = (style & static_cast<XIMStyle>(XIMPreeditCallbacks)) != 0;
    const XPointer self = reinterpret_cast<XPointer>(this);
    XICCallback start{self, preedit_start};
    XICCallback draw{self, preedit_draw};
    XICCallback caret{self, preedit_caret};
    XICCallback done{self, preedit_done};
    XVaNestedList preedit = on_the_spot
                                ? XVaCreateNestedList(0, XNPreeditStartCallback, &start, XNPreeditDrawCallback, &draw,
                                                      XNPreeditCaretCallback, &caret, XNPreeditDoneCallback, &done,
                                                      XNSpotLocation, &spot, nullptr)
                                : XVaCreateNestedList(0, XNSpotLocation, &spot, nullptr);
    ic = XCreateIC(im, XNInputStyle, style, XNClientWindow, window, XNFocusWindow, window, XNPreeditAttributes, preedit,
                   nullptr);
    XFree(preedit);
    if (ic != nullptr) return;
  }
}

X11InputMethod::Connection::~Connection() {
  if (ic != nullptr) XDestroyIC(ic);
  if (im != nullptr) XCloseIM(im);
  if (display != nullptr) XCloseDisplay(display);
}

void X11InputMethod::Connection::give_keys_back_to_glfw() {
  XWindowAttributes attributes{};
  XGetWindowAttributes(glfw_display, window, &attributes);
  XSelectInput(display, window, NoEventMask);
  XSync(display, False);
  XSelectInput(glfw_display, window, attributes.your_event_mask | kKeyAndButtonMasks);
  XFlush(glfw_display);
  std::cerr << "attnviz: the input method went away; typing continues without it\n";
}

std::u32string X11InputMethod::Connection::lookup(XKeyEvent& event) const {
  // Read a frame after the press, the key may have been rebound since (x11_keysym_witness.h).
  if (keysym_witness != nullptr) {
    if (auto typed = keysym_witness->text_if_rebound(display, {event.time, event.keycode, event.state})) return *typed;
  }
  std::array<char, 64> small{};
  Status status = 0;
  int length = Xutf8LookupString(ic, &event, small.data(), static_cast<int>(small.size()), nullptr, &status);
  if (status == XBufferOverflow && length > 0) {
    std::string large(static_cast<std::size_t>(length), '\0');
    length = Xutf8LookupString(ic, &event, large.data(), length, nullptr, &status);
    if (status == XLookupChars || status == XLookupBoth)
      return from_utf8(std::string_view(large).substr(0, static_cast<std::size_t>(length)));
    return {};
  }
  if (status != XLookupChars && status != XLookupBoth) return {};
  return from_utf8(std::string_view(small.data(), static_cast<std::size_t>(length)));
}

// Every key event goes through XFilterEvent, as in every XIM client: besides sending keys to
// the input method, it answers the input method's synchronous commits and tells the key
// presses Xlib made up (commits, keys forwarded back) from the real ones.
void X11InputMethod::Connection::key_press(XEvent& event) {
  const unsigned int keycode = event.xkey.keycode;  // some input methods clear it while filtering
  const KeyOrigin origin = filter(event);
  event.xkey.keycode = keycode;
  if (keycode == 0) {  // text the input method committed (Xlib makes it a key press without a key)
    router.on_commit(lookup(event.xkey));
    return;
  }
  const std::u32string characters = origin == KeyOrigin::Consumed ? std::u32string() : lookup(event.xkey);
  router.on_key_press(glfw_key(keycode), origin, characters, glfw_modifiers(event.xkey.state));
}

void X11InputMethod::Connection::key_release(XEvent& event) {
  const unsigned int keycode = event.xkey.keycode;
  router.on_key_release(glfw_key(keycode), filter(event));
}

// Every key event goes through XFilterEvent, as in every XIM client: besides sending keys to
// the input method, it answers the input method's synchronous commits and tells the events
// Xlib made up (commits, keys given back) from the real ones. The input method gives keys
// back with their own time or none (ibus: 0), never a later one: a key that is not consumed
// and not newer than the last real one is its copy.
KeyOrigin X11InputMethod::Connection::filter(XEvent& event) {
  const Time time = event.xkey.time;
  if (XFilterEvent(&event, None) == True) {
    last_real_time = std::max(last_real_time, time);
    return KeyOrigin::Consumed;
  }
  if (time > last_real_time) {
    last_real_time = time;
    return KeyOrigin::Passed;
  }
  return KeyOrigin::Forwarded;
}

int X11InputMethod::Connection::glfw_key(unsigned int keycode) const {
  return keycode < keys.size() ? keys[keycode] : GLFW_KEY_UNKNOWN;
}

void X11InputMethod::Connection::button(const XButtonEvent& event) {
  const bool down = event.type == ButtonPress;
  if (down && !on_the_spot) take_composition();
  if (event.button >= Button4 && event.button <= Button4 + 3) {
    if (!down) return;
    if (router.commit_pending()) reset_context();  // the field may scroll out of sight
    const std::array<std::pair<double, double>, 4> steps{{{0.0, 1.0}, {0.0, -1.0}, {1.0, 0.0}, {-1.0, 0.0}}};
    const auto [x, y] = steps[event.button - Button4];
    scroll(x, y);
    return;
  }
  if (router.on_button(glfw_button(event.button), down)) reset_context();
}

// The wheel goes to whoever listens on GLFW's scroll callback (ImGui's backend, the counter).
void X11InputMethod::Connection::scroll(double x, double y) const {
  const GLFWscrollfun listener = glfwSetScrollCallback(glfw_window, nullptr);
  glfwSetScrollCallback(glfw_window, listener);
  if (listener != nullptr) listener(glfw_window, x, y);
}

// Tells the input method to forget the pending syllable (the router committed or cancelled
// it). Some input methods return it from the reset, others commit it afterwards: either way the
// router drops that copy.
void X11InputMethod::Connection::reset_context() {
  if (ic == nullptr) return;
  char* left = Xutf8ResetIC(ic);
  if (left == nullptr) return;
  router.on_commit(from_utf8(left));
  XFree(left);
}

// Over the spot we do not see the composition: before a click acts, the input method is asked
// to finish it, and what it commits (fcitx5 answers before the reset returns; Xlib puts the
// commit at the head of the queue) goes into the field it was typed in.
void X11InputMethod::Connection::take_composition() {
  reset_context();
  XEvent commit{};
  while (XCheckIfEvent(display, &commit, is_commit, nullptr) == True) {
    XFilterEvent(&commit, None);
    router.on_commit(lookup(commit.xkey));
  }
}

void X11InputMethod::Connection::handle(XEvent& event) {
  switch (event.type) {
    case KeyPress: key_press(event); return;
    case KeyRelease: key_release(event); return;
    case ButtonPress:
    case ButtonRelease: button(event.xbutton); return;
    case FocusIn:
      if (ic != nullptr) XSetICFocus(ic);
      return;
    case FocusOut:
      if (ic != nullptr && event.xfocus.detail != NotifyInferior && event.xfocus.detail != NotifyPointer)
        XUnsetICFocus(ic);
      return;
    default: XFilterEvent(&event, None); return;  // the input method's own messages
  }
}

X11InputMethod::X11InputMethod(GLFWwindow* window, KeyQueue& queue, X11KeysymWitness* witness) {
  const auto name = named_input_method();
  if (!name) return;
  auto connection = std::make_unique<Connection>(window, queue, witness);
  if (connection->open(*name)) connection_ = std::move(connection);
}

X11InputMethod::~X11InputMethod() = default;

bool X11InputMethod::active() const { return connection_ != nullptr; }

std::uint64_t X11InputMethod::pump() {
  if (!connection_) return 0;
  std::uint64_t count = 0;
  Connection& c = *connection_;
  while (!c.im_gone && XPending(c.display) > 0) {
    XEvent event{};
    XNextEvent(c.display, &event);
    c.handle(event);
    ++count;
  }
  if (c.im_gone) {
    c.give_keys_back_to_glfw();
    connection_.reset();
  }
  return count;
}

void X11InputMethod::wait(double timeout_s) const {
  if (!connection_) return;
  const Connection& c = *connection_;
  if (XPending(c.display) > 0 || XPending(c.glfw_display) > 0) return;
  std::array<pollfd, 2> fds{
      {{XConnectionNumber(c.glfw_display), POLLIN, 0}, {XConnectionNumber(c.display), POLLIN, 0}}};
  ::poll(fds.data(), fds.size(), static_cast<int>(std::lround(timeout_s * 1000.0)));
}

void X11InputMethod::on_frame(const std::optional<TextCaret>& caret) {
  if (!connection_) return;
  Connection& c = *connection_;
  const auto field = caret ? std::optional<std::uint32_t>(caret->field) : std::nullopt;
  if (c.router.on_frame(field)) c.reset_context();
  if (!caret || c.ic == nullptr) return;
  // The candidate window goes below the caret (the spot is the text's baseline).
  const XPoint spot{static_cast<short>(std::lround(caret->x)),
                    static_cast<short>(std::lround(caret->y + caret->height))};
  if (spot.x == c.spot.x && spot.y == c.spot.y) return;
  c.spot = spot;
  XVaNestedList attributes = XVaCreateNestedList(0, XNSpotLocation, &c.spot, nullptr);
  XSetICValues(c.ic, XNPreeditAttributes, attributes, nullptr);
  XFree(attributes);
  XFlush(c.display);
}

const Preedit& X11InputMethod::preedit() const {
  static const Preedit kNothing;
  return connection_ ? connection_->router.preedit() : kNothing;
}

}  // namespace attnviz::window
