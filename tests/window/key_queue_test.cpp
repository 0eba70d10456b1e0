// Key taps shorter than a frame (xdotool, presenter remotes): each press is seen for a frame;
// characters and clicks keep their place behind the keys typed before them.
#include "app/window/key_queue.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

namespace attnviz::window {
namespace {

constexpr int kCtrl = 341;  // GLFW_KEY_LEFT_CONTROL
constexpr int kZ = 90;
constexpr int kRight = 262;

// What ImGui 1.86 sees: io.KeysDown after each frame's delivery.
class Keyboard {
 public:
  void frame(KeyQueue& queue) {
    queue.deliver([this](KeyChange change) { down_[static_cast<std::size_t>(change.key)] = change.down; });
    frames_.push_back(down_);
  }
  [[nodiscard]] bool down(std::size_t frame, int key) const { return frames_.at(frame)[static_cast<std::size_t>(key)]; }

 private:
  std::array<bool, 512> down_{};
  std::vector<std::array<bool, 512>> frames_;
};

TEST(KeyQueue, ATapWithinOneFrameIsDownForOneFrame) {
  KeyQueue queue;
  Keyboard keys;
  queue.push(kRight, true);
  queue.push(kRight, false);  // released before the next frame
  keys.frame(queue);
  EXPECT_TRUE(keys.down(0, kRight));
  EXPECT_TRUE(queue.pending());
  keys.frame(queue);
  EXPECT_FALSE(keys.down(1, kRight));
  EXPECT_FALSE(queue.pending());
}

TEST(KeyQueue, AQuickCtrlZKeepsCtrlHeldWhileZIsDown) {
  KeyQueue queue;
  Keyboard keys;
  for (auto [key, down] : {std::pair{kCtrl, true}, {kZ, true}, {kZ, false}, {kCtrl, false}}) queue.push(key, down);
  keys.frame(queue);
  EXPECT_TRUE(keys.down(0, kCtrl));
  EXPECT_TRUE(keys.down(0, kZ));
  keys.frame(queue);
  EXPECT_FALSE(keys.down(1, kZ));
  EXPECT_FALSE(keys.down(1, kCtrl));
}

TEST(KeyQueue, AModifierReleasedWithThePressStaysDownForThatFrame) {
  // Ctrl arrived in time for one frame, Z and both releases in time for the next.
  KeyQueue queue;
  Keyboard keys;
  queue.push(kCtrl, true);
  keys.frame(queue);
  for (auto [key, down] : {std::pair{kZ, true}, {kCtrl, false}, {kZ, false}}) queue.push(key, down);
  keys.frame(queue);
  EXPECT_TRUE(keys.down(1, kZ));
  EXPECT_TRUE(keys.down(1, kCtrl));
  keys.frame(queue);
  EXPECT_FALSE(keys.down(2, kZ));
  EXPECT_FALSE(keys.down(2, kCtrl));
  EXPECT_FALSE(queue.pending());
}

TEST(KeyQueue, SevenTapsBetweenTwoFramesAreSevenPresses) {
  KeyQueue queue;
  Keyboard keys;
  for (int i = 0; i < 7; ++i) {
    queue.push(kRight, true);
    queue.push(kRight, false);
  }
  int presses = 0;
  bool was_down = false;
  for (std::size_t frame = 0; queue.pending() || frame == 0; ++frame) {
    keys.frame(queue);
    if (keys.down(frame, kRight) && !was_down) ++presses;
    was_down = keys.down(frame, kRight);
  }
  EXPECT_EQ(presses, 7);
}

TEST(KeyQueue, HeldKeysAndSlowTapsPassStraightThrough) {
  KeyQueue queue;
  Keyboard keys;
  queue.push(kZ, true);
  keys.frame(queue);
  keys.frame(queue);  // nothing new: still down
  queue.push(kZ, false);
  keys.frame(queue);
  EXPECT_TRUE(keys.down(0, kZ));
  EXPECT_TRUE(keys.down(1, kZ));
  EXPECT_FALSE(keys.down(2, kZ));
  EXPECT_FALSE(queue.pending());
}

// A path typed quickly, then a click on Export: each frame gets the characters typed with the
// keys it is given, and the click only after the last key of the path. (The click used to
// overtake the keys: the dialog closed, and the rest of the path's letters reached the window's
// shortcuts: T for temperature, X for cross-attention.)
TEST(KeyQueue, CharactersAndClicksWaitBehindTheKeysTypedBeforeThem) {
  KeyQueue queue;
  const std::string typed = "/tmp/tx";
  for (const char c : typed) {
    const int key = c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
    queue.push(key, true);
    queue.push_char(static_cast<unsigned int>(c));
    queue.push(key, false);
  }
  queue.push_button(0, true);
  queue.push_button(0, false);
  std::string text;
  std::vector<std::string> text_by_frame;
  int click_frame = -1;
  int last_key_frame = -1;
  for (int frame = 0; queue.pending() && frame < 100; ++frame) {
    queue.deliver([&](KeyChange change) {
      if (change.kind == InputKind::Char) text += static_cast<char>(change.key);
      if (change.kind == InputKind::Key && change.down) last_key_frame = frame;
      if (change.kind == InputKind::Button && change.down) click_frame = frame;
    });
    text_by_frame.push_back(text);
  }
  EXPECT_EQ(text, typed);
  EXPECT_GT(click_frame, last_key_frame);
  // Each letter arrives in the frame its key goes down, not all at once in the first.
  EXPECT_EQ(text_by_frame.front(), "/");
}

TEST(KeyQueue, ManyCharactersWithoutKeysArriveTogether) {
  KeyQueue queue;  // an input method commits a word as characters only
  for (const char32_t c : {U'\uBC30', U'\uAC00'}) queue.push_char(static_cast<unsigned int>(c));
  int delivered = 0;
  queue.deliver([&](KeyChange change) { delivered += change.kind == InputKind::Char ? 1 : 0; });
  EXPECT_EQ(delivered, 2);
  EXPECT_FALSE(queue.pending());
}

// A click right after characters (a syllable an input method committed as the user clicked
// another field) waits a frame: ImGui's text field takes characters only while it is active,
// and a click elsewhere ends that in the frame it is seen.
TEST(KeyQueue, AClickAfterCharactersWaitsForTheNextFrame) {
  KeyQueue queue;
  queue.push_char(0xC544);  // 아
  queue.push_button(0, true);
  std::vector<InputKind> first;
  queue.deliver([&](KeyChange change) { first.push_back(change.kind); });
  EXPECT_EQ(first, std::vector<InputKind>{InputKind::Char});
  std::vector<InputKind> second;
  queue.deliver([&](KeyChange change) { second.push_back(change.kind); });
  EXPECT_EQ(second, std::vector<InputKind>{InputKind::Button});
  EXPECT_FALSE(queue.pending());
}

}  // namespace
}  // namespace attnviz::window
