// Where keys go while an input method composes (app/window/ime_router.h, issue 17): headless,
// the input method's answers written out as ibus-hangul gives them.
#include "app/window/ime_router.h"

#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <string>
#include <vector>

namespace attnviz::window {
namespace {

constexpr std::uint32_t kSentence = 11;
constexpr std::uint32_t kGlobals = 22;

// What ImGui receives, one string per change: "+K" key down, "-K" up, "c:x" a character,
// "b+0" a button.
std::vector<std::string> drain(KeyQueue& queue) {
  std::vector<std::string> seen;
  for (int frame = 0; queue.pending() && frame < 100; ++frame) {
    queue.deliver([&](KeyChange change) {
      switch (change.kind) {
        case InputKind::Key: seen.push_back((change.down ? "+" : "-") + std::to_string(change.key)); break;
        case InputKind::Button:
          seen.push_back(std::string("b") + (change.down ? "+" : "-") + std::to_string(change.key));
          break;
        case InputKind::Char:
          seen.push_back("c:" + to_utf8(std::u32string(1, static_cast<char32_t>(change.key))));
          break;
      }
    });
  }
  return seen;
}

std::string key(int glfw_key, bool down) { return (down ? "+" : "-") + std::to_string(glfw_key); }

// The input method composes 하 in the Sentence box.
void compose(ImeRouter& router, std::u32string_view text) {
  router.preedit().start();
  router.preedit().draw(0, static_cast<int>(router.preedit().text().size()), text, 1);
  router.on_preedit_changed();
}

TEST(ImeRouter, KeysTheInputMethodKeepsNeverReachImGuiWhileTyping) {
  KeyQueue queue;
  ImeRouter router(queue);
  EXPECT_FALSE(router.on_frame(kSentence));
  router.on_key_press(GLFW_KEY_G, KeyOrigin::Consumed, U"", 0);  // ㅎ
  router.on_key_release(GLFW_KEY_G, KeyOrigin::Consumed);
  compose(router, U"ㅎ");
  // Backspace turns ㅎ back into nothing: the committed text before it is not touched.
  router.on_key_press(GLFW_KEY_BACKSPACE, KeyOrigin::Consumed, U"", 0);
  router.on_key_release(GLFW_KEY_BACKSPACE, KeyOrigin::Consumed);
  EXPECT_TRUE(drain(queue).empty());
}

TEST(ImeRouter, CommittedTextAndForwardedKeysReachImGuiInOrder) {
  KeyQueue queue;
  ImeRouter router(queue);
  EXPECT_FALSE(router.on_frame(kSentence));
  compose(router, U"하");
  router.on_key_press(GLFW_KEY_SPACE, KeyOrigin::Consumed, U"", 0);
  router.preedit().done();
  router.on_preedit_changed();
  router.on_commit(U"하");
  router.on_key_press(GLFW_KEY_SPACE, KeyOrigin::Forwarded, U" ", 0);
  router.on_key_release(GLFW_KEY_SPACE, KeyOrigin::Consumed);
  EXPECT_EQ(drain(queue),
            (std::vector<std::string>{"c:하", key(GLFW_KEY_SPACE, true), "c: ", key(GLFW_KEY_SPACE, false)}));
}

TEST(ImeRouter, AForwardedShortcutKeepsTheModifiersItWasTypedWith) {
  // ibus gives Ctrl+A's A back after the Ctrl was already released (xdotool is quick).
  KeyQueue queue;
  ImeRouter router(queue);
  EXPECT_FALSE(router.on_frame(kSentence));
  router.on_key_press(GLFW_KEY_LEFT_CONTROL, KeyOrigin::Consumed, U"", 0);
  router.on_key_press(GLFW_KEY_A, KeyOrigin::Consumed, U"", GLFW_MOD_CONTROL);
  router.on_key_release(GLFW_KEY_LEFT_CONTROL, KeyOrigin::Consumed);
  router.on_key_press(GLFW_KEY_A, KeyOrigin::Forwarded, U"\x01", GLFW_MOD_CONTROL);
  router.on_key_press(GLFW_KEY_LEFT_CONTROL, KeyOrigin::Forwarded, U"", 0);  // its copy: ignored
  router.on_key_release(GLFW_KEY_A, KeyOrigin::Forwarded);
  const int ctrl = GLFW_KEY_LEFT_CONTROL;
  EXPECT_EQ(drain(queue), (std::vector<std::string>{key(ctrl, true), key(ctrl, false), key(ctrl, true),
                                                    key(GLFW_KEY_A, true), key(ctrl, false), key(GLFW_KEY_A, false)}));
}

TEST(ImeRouter, WithoutATextFieldKeysAreShortcutsAtOnceAndTheirCopiesIgnored) {
  KeyQueue queue;
  ImeRouter router(queue);
  EXPECT_FALSE(router.on_frame(std::nullopt));
  router.on_key_press(GLFW_KEY_T, KeyOrigin::Consumed, U"", 0);  // Hangul mode keeps it (ㅅ)
  router.on_key_release(GLFW_KEY_T, KeyOrigin::Consumed);
  router.on_key_press(GLFW_KEY_RIGHT, KeyOrigin::Consumed, U"", 0);
  router.on_key_release(GLFW_KEY_RIGHT, KeyOrigin::Consumed);
  router.on_key_press(GLFW_KEY_RIGHT, KeyOrigin::Forwarded, U"", 0);
  router.on_key_release(GLFW_KEY_RIGHT, KeyOrigin::Forwarded);
  EXPECT_EQ(drain(queue), (std::vector<std::string>{key(GLFW_KEY_T, true), key(GLFW_KEY_T, false),
                                                    key(GLFW_KEY_RIGHT, true), key(GLFW_KEY_RIGHT, false)}));
  // What the input method began composing without a field is cancelled at the frame.
  compose(router, U"ㅅ");
  EXPECT_TRUE(router.on_frame(std::nullopt));
  EXPECT_TRUE(router.preedit().empty());
  router.on_commit(U"ㅅ");  // its own copy, after the reset
  EXPECT_TRUE(drain(queue).empty());
}

TEST(ImeRouter, AClickCommitsThePendingSyllableIntoItsFieldFirst) {
  KeyQueue queue;
  ImeRouter router(queue);
  EXPECT_FALSE(router.on_frame(kSentence));
  compose(router, U"아");
  EXPECT_TRUE(router.on_button(GLFW_MOUSE_BUTTON_LEFT, true));
  EXPECT_FALSE(router.on_button(GLFW_MOUSE_BUTTON_LEFT, false));
  router.on_commit(U"아");  // ibus-hangul commits on reset: already here, dropped
  EXPECT_TRUE(router.preedit().empty());
  // The character comes a frame before the click (which may end the field's typing).
  std::vector<std::vector<std::string>> frames;
  for (int frame = 0; queue.pending() && frame < 10; ++frame) {
    frames.emplace_back();
    queue.deliver(
        [&](KeyChange change) { frames.back().push_back(change.kind == InputKind::Char ? "char" : "button"); });
  }
  ASSERT_GE(frames.size(), 2u);
  EXPECT_EQ(frames[0], std::vector<std::string>{"char"});
  EXPECT_EQ(frames[1].front(), "button");
  // Later text is new: a commit of the same syllable after new composing is kept.
  EXPECT_FALSE(router.on_frame(kGlobals));
  compose(router, U"아");
  router.preedit().done();
  router.on_preedit_changed();
  router.on_commit(U"아");
  EXPECT_EQ(drain(queue), std::vector<std::string>{"c:아"});
}

TEST(ImeRouter, ASyllablePendingForAFieldThatLostTheKeyboardIsCancelled) {
  KeyQueue queue;
  ImeRouter router(queue);
  EXPECT_FALSE(router.on_frame(kSentence));
  compose(router, U"아");
  EXPECT_FALSE(router.on_frame(kSentence));
  EXPECT_TRUE(router.on_frame(kGlobals));  // never into Global tokens
  EXPECT_TRUE(router.preedit().empty());
  router.on_commit(U"아");
  EXPECT_TRUE(drain(queue).empty());
}

TEST(ImeRouter, AKeyGivenBackAfterItsReleaseIsATapNotAKeyLeftDown) {
  // ibus-hangul commits 하 on Enter and gives Enter back; its release came back first.
  KeyQueue queue;
  ImeRouter router(queue);
  EXPECT_FALSE(router.on_frame(kSentence));
  compose(router, U"하");
  router.on_key_press(GLFW_KEY_ENTER, KeyOrigin::Consumed, U"", 0);
  router.on_key_release(GLFW_KEY_ENTER, KeyOrigin::Consumed);
  router.on_key_release(GLFW_KEY_ENTER, KeyOrigin::Forwarded);
  router.preedit().done();
  router.on_preedit_changed();
  router.on_commit(U"하");
  router.on_key_press(GLFW_KEY_ENTER, KeyOrigin::Forwarded, U"\r", 0);
  EXPECT_EQ(drain(queue), (std::vector<std::string>{"c:하", key(GLFW_KEY_ENTER, true), key(GLFW_KEY_ENTER, false)}));
}

TEST(ImeRouter, RepeatsAreCharactersAndReleasesNeedAPress) {
  KeyQueue queue;
  ImeRouter router(queue);
  EXPECT_FALSE(router.on_frame(kSentence));
  router.on_key_release(GLFW_KEY_X, KeyOrigin::Passed);  // pressed before the window had focus
  router.on_key_press(GLFW_KEY_X, KeyOrigin::Passed, U"x", 0);
  router.on_key_press(GLFW_KEY_X, KeyOrigin::Passed, U"x", 0);
  router.on_key_release(GLFW_KEY_X, KeyOrigin::Passed);
  router.on_key_press(GLFW_KEY_Q, KeyOrigin::Passed, U"q", GLFW_MOD_CONTROL);  // no character with Ctrl
  router.on_key_release(GLFW_KEY_Q, KeyOrigin::Passed);
  const int ctrl = GLFW_KEY_LEFT_CONTROL;
  EXPECT_EQ(drain(queue),
            (std::vector<std::string>{key(GLFW_KEY_X, true), "c:x", "c:x", key(GLFW_KEY_X, false), key(ctrl, true),
                                      key(GLFW_KEY_Q, true), key(ctrl, false), key(GLFW_KEY_Q, false)}));
}

}  // namespace
}  // namespace attnviz::window
