// The window's shortcuts never take a key a text field or a dialog is given (issue 11: letters
// typed into the Export dialog's path changed the temperature and switched cross-attention on).
// Dear ImGui runs here without a window or GPU, its font atlas built, nothing rendered.
#include "app/ui/keys.h"
#include "tests/support/headless_imgui.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <functional>
#include <string>

namespace attnviz::ui::keys {
namespace {

class Frames {
 public:
  // One frame: `before` runs where the menus' shortcuts do (before any window), `draw` inside
  // a window.
  void frame(const std::function<void()>& draw, const std::function<void()>& before = {}) {
    ImGui::NewFrame();
    if (before) before();
    ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
    ImGui::SetNextWindowSize(ImVec2(300.0f, 200.0f));
    ImGui::Begin("page", nullptr, ImGuiWindowFlags_NoSavedSettings);
    draw();
    ImGui::End();
    ImGui::Render();
  }

 private:
  testing::HeadlessImGui imgui_;
};

TEST(ShortcutKeys, AreFreeWhenNothingHasTheKeyboard) {
  Frames imgui;
  bool plain = false;
  bool ctrl_z = false;
  std::string text;
  for (int i = 0; i < 3; ++i) {
    imgui.frame([&] { ImGui::InputText("##path", &text); },
                [&] {
                  plain = plain_keys_free();
                  ctrl_z = ctrl_key_free(kZ);
                });
  }
  EXPECT_TRUE(plain);
  EXPECT_TRUE(ctrl_z);
}

TEST(ShortcutKeys, WaitWhileATextFieldHasTheKeyboard) {
  Frames imgui;
  std::string text;
  bool plain = true;
  bool ctrl_z = true;
  bool ctrl_s = false;
  for (int i = 0; i < 4; ++i) {
    imgui.frame(
        [&] {
          if (i == 0) ImGui::SetKeyboardFocusHere();
          ImGui::InputText("##path", &text);
        },
        [&] {
          plain = plain_keys_free();
          ctrl_z = ctrl_key_free(kZ);
          ctrl_s = ctrl_key_free(kS);
        });
  }
  EXPECT_FALSE(plain) << "T typed into a field would change the temperature";
  EXPECT_FALSE(ctrl_z) << "Ctrl+Z in a field undoes the typing, not the last edit";
  EXPECT_TRUE(ctrl_s) << "Ctrl+S still saves while typing";
}

TEST(ShortcutKeys, WaitWhileADialogIsOpen) {
  Frames imgui;
  bool plain = true;
  bool ctrl_s = true;
  for (int i = 0; i < 3; ++i) {
    imgui.frame(
        [&] {
          if (i == 0) ImGui::OpenPopup("Export##dialog");
          if (ImGui::BeginPopupModal("Export##dialog", nullptr, ImGuiWindowFlags_NoSavedSettings)) {
            ImGui::TextUnformatted("Save to");
            ImGui::EndPopup();
          }
        },
        [&] {
          plain = plain_keys_free();
          ctrl_s = ctrl_key_free(kS);
        });
  }
  EXPECT_FALSE(plain);
  EXPECT_FALSE(ctrl_s);
  EXPECT_TRUE(modal_open());
}

}  // namespace
}  // namespace attnviz::ui::keys
