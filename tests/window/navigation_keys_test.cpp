// A key that a shortcut claims (the Step view's Right) does not also move Dear ImGui's keyboard
// navigation; an unclaimed one does, and a claim lasts one frame. Dear ImGui runs headless
// with keyboard navigation on, as the window runs it.

#include "app/window/navigation_keys.h"

#include <gtest/gtest.h>
#include <imgui.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "tests/support/headless_imgui.h"

namespace attnviz::window {
namespace {

// Two buttons side by side ("Left" and "Right"); which one the navigation has.
class TwoButtons {
 public:
  TwoButtons() {
    ImGuiIO& io = ImGui::GetIO();
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    // What the GLFW backend maps besides the keys navigation_keys.cpp maps.
    io.KeyMap[ImGuiKey_Space] = GLFW_KEY_SPACE;
    io.KeyMap[ImGuiKey_Enter] = GLFW_KEY_ENTER;
    io.KeyMap[ImGuiKey_Escape] = GLFW_KEY_ESCAPE;
    io.KeyMap[ImGuiKey_Tab] = GLFW_KEY_TAB;
  }

  enum class Focus { None, Left, Right };

  // One frame; `press` is held down during it (-1: none), the mouse pressed at `click` if given.
  Focus frame(int press = -1, const ImVec2* click = nullptr) {
    ImGuiIO& io = ImGui::GetIO();
    for (bool& down : io.KeysDown) down = false;
    if (press >= 0) io.KeysDown[press] = true;
    io.MousePos = click != nullptr ? *click : ImVec2(-1.0f, -1.0f);
    io.MouseDown[0] = click != nullptr;
    apply_navigation_claims(io);
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
    ImGui::SetNextWindowSize(ImVec2(300.0f, 200.0f));
    ImGui::Begin("tabs", nullptr, ImGuiWindowFlags_NoSavedSettings);
    Focus focus = Focus::None;
    ImGui::Button("Left");
    left_centre_ = centre_of_last_item();
    if (ImGui::IsItemFocused()) focus = Focus::Left;
    ImGui::SameLine();
    ImGui::Button("Right");
    if (ImGui::IsItemFocused()) focus = Focus::Right;
    ImGui::End();
    ImGui::Render();
    return focus;
  }

  // Clicks the left button (down one frame, up the next): the navigation then has it.
  Focus click_left() {
    frame();
    const ImVec2 at = left_centre_;
    frame(-1, &at);
    return frame();
  }

  // Right pressed for one frame and released, claimed or not, then a few frames to settle.
  Focus press_right(bool claimed) {
    if (claimed) claim_from_navigation(GLFW_KEY_RIGHT);
    frame(GLFW_KEY_RIGHT);
    Focus focus = Focus::None;
    for (int i = 0; i < 3; ++i) focus = frame();
    return focus;
  }

 private:
  static ImVec2 centre_of_last_item() {
    const ImVec2 min = ImGui::GetItemRectMin();
    const ImVec2 max = ImGui::GetItemRectMax();
    return ImVec2((min.x + max.x) * 0.5f, (min.y + max.y) * 0.5f);
  }

  testing::HeadlessImGui imgui_;
  ImVec2 left_centre_{0.0f, 0.0f};
};

TEST(NavigationKeys, AClaimedArrowLeavesTheNavigationWhereItWas) {
  TwoButtons buttons;
  ASSERT_EQ(buttons.click_left(), TwoButtons::Focus::Left);
  EXPECT_EQ(buttons.press_right(true), TwoButtons::Focus::Left);
}

TEST(NavigationKeys, AnUnclaimedArrowMovesItAndAClaimLastsOneFrame) {
  TwoButtons buttons;
  ASSERT_EQ(buttons.click_left(), TwoButtons::Focus::Left);
  claim_from_navigation(GLFW_KEY_RIGHT);
  buttons.frame();  // the claim is spent on this frame, where Right is not pressed
  EXPECT_EQ(buttons.press_right(false), TwoButtons::Focus::Right);
}

TEST(NavigationKeys, OtherKeysAreNotTheNavigationsToGive) {
  claim_from_navigation(GLFW_KEY_A);
  ImGuiIO io;
  apply_navigation_claims(io);
  EXPECT_EQ(io.KeyMap[ImGuiKey_A], -1);  // untouched: ImGui's own default
  EXPECT_EQ(io.KeyMap[ImGuiKey_RightArrow], GLFW_KEY_RIGHT);
  EXPECT_EQ(io.KeyMap[ImGuiKey_Home], GLFW_KEY_HOME);
}

}  // namespace
}  // namespace attnviz::window
