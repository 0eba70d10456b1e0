#include "app/window/ime_router.h"

#include <algorithm>
#include <array>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace attnviz::window {
namespace {

constexpr int kUnknownKey = GLFW_KEY_UNKNOWN;

struct Modifier {
  int bit, left, right;
};
constexpr std::array<Modifier, 4> kModifiers{{{GLFW_MOD_SHIFT, GLFW_KEY_LEFT_SHIFT, GLFW_KEY_RIGHT_SHIFT},
                                              {GLFW_MOD_CONTROL, GLFW_KEY_LEFT_CONTROL, GLFW_KEY_RIGHT_CONTROL},
                                              {GLFW_MOD_ALT, GLFW_KEY_LEFT_ALT, GLFW_KEY_RIGHT_ALT},
                                              {GLFW_MOD_SUPER, GLFW_KEY_LEFT_SUPER, GLFW_KEY_RIGHT_SUPER}}};

bool is_modifier(int glfw_key) { return glfw_key >= GLFW_KEY_LEFT_SHIFT && glfw_key <= GLFW_KEY_RIGHT_SUPER; }

// GLFW's rule for characters: no C0 or C1 control codes (Backspace, Enter, Escape are keys).
bool is_control(char32_t c) { return c < 0x20 || (c >= 0x7F && c < 0xA0); }

}  // namespace

void ImeRouter::on_preedit_changed() {
  if (!preedit_.empty()) drop_commit_.clear();
  if (preedit_.empty())
    owner_.reset();
  else if (!owner_)
    owner_ = field_;
}

void ImeRouter::on_key_press(int glfw_key, KeyOrigin origin, std::u32string_view characters, int modifiers) {
  const bool real = origin != KeyOrigin::Forwarded;
  if (real) set(held_, glfw_key, true);
  if (is_modifier(glfw_key)) {
    if (real && !is_down(glfw_key)) {
      queue_->push(glfw_key, true);
      set_down(glfw_key, true);
    }
    return;
  }
  const bool typing = field_.has_value();
  if (!typing) {  // a shortcut: the key as it happened, its forwarded copy ignored
    if (real) push_press(glfw_key, modifiers);
    return;
  }
  if (origin == KeyOrigin::Consumed) return;
  push_press(glfw_key, modifiers);
  push_characters(characters, (modifiers & (GLFW_MOD_CONTROL | GLFW_MOD_ALT)) == 0);
  // Given back after the key was let go (its release may even have come back first): a tap.
  if (!is_held(glfw_key)) on_key_release(glfw_key, KeyOrigin::Forwarded);
}

void ImeRouter::on_key_release(int glfw_key, KeyOrigin origin) {
  if (origin != KeyOrigin::Forwarded) set(held_, glfw_key, false);
  if (glfw_key == kUnknownKey || !is_down(glfw_key)) return;
  if (is_modifier(glfw_key) && origin == KeyOrigin::Forwarded) return;
  queue_->push(glfw_key, false);
  set_down(glfw_key, false);
}

void ImeRouter::on_commit(std::u32string_view text) {
  if (!drop_commit_.empty() && text == drop_commit_) {
    drop_commit_.clear();
    return;
  }
  drop_commit_.clear();
  push_characters(text, true);
}

bool ImeRouter::on_button(int button, bool down) {
  const bool reset = down && commit_pending();
  queue_->push_button(button, down);
  return reset;
}

bool ImeRouter::commit_pending() {
  if (preedit_.empty()) return false;
  // Into the field it was typed in: the characters wait in the queue before the click.
  push_characters(preedit_.text(), true);
  drop_commit_ = preedit_.text();
  preedit_.done();
  owner_.reset();
  return true;
}

bool ImeRouter::on_frame(std::optional<std::uint32_t> text_field) {
  field_ = text_field;
  if (preedit_.empty()) {
    owner_.reset();
    return false;
  }

  if (!owner_) owner_ = field_;
  if (owner_ == field_ && field_.has_value()) return false;
  drop_commit_ = preedit_.text();
  preedit_.done();
  owner_.reset();
  return true;
}

void ImeRouter::push_characters(std::u32string_view text, bool plain) {
  if (!plain) return;
  for (const char32_t c : text) {
    if (!is_control(c)) queue_->push_char(static_cast<unsigned int>(c));
  }
}

void ImeRouter::push_press(int glfw_key, int modifiers) {
  if (glfw_key == kUnknownKey || is_down(glfw_key)) return;  // unknown, or a repeat
  const std::vector<std::pair<int, bool>> restore = sync_modifiers(modifiers);
  queue_->push(glfw_key, true);
  set_down(glfw_key, true);
  for (const auto& [key, down] : restore) queue_->push(key, down);
}

std::vector<std::pair<int, bool>> ImeRouter::sync_modifiers(int modifiers) {
  std::vector<std::pair<int, bool>> restore;
  for (const Modifier& modifier : kModifiers) {
    const bool wanted = (modifiers & modifier.bit) != 0;
    const bool held = is_down(modifier.left) || is_down(modifier.right);
    if (wanted && !held) {
      queue_->push(modifier.left, true);
      restore.emplace_back(modifier.left, false);
    }
    for (const int key : {modifier.left, modifier.right}) {
      if (wanted || !is_down(key)) continue;
      queue_->push(key, false);
      restore.emplace_back(key, true);
    }
  }
  return restore;
}

bool ImeRouter::is_down(int glfw_key) const { return std::find(down_.begin(), down_.end(), glfw_key) != down_.end(); }

bool ImeRouter::is_held(int glfw_key) const { return std::find(held_.begin(), held_.end(), glfw_key) != held_.end(); }

void ImeRouter::set_down(int glfw_key, bool down) { set(down_, glfw_key, down); }

void ImeRouter::set(std::vector<int>& keys, int glfw_key, bool in) {
  keys.erase(std::remove(keys.begin(), keys.end(), glfw_key), keys.end());
  if (in) keys.push_back(glfw_key);
}

}  // namespace attnviz::window
