#pragma once
// Keys a shortcut of the window takes from Dear ImGui's keyboard navigation. Both read the
// arrows: stepping the Step view with Right also walked the navigation's focus rectangle along
// the tab bar, and Space then pressed whichever tab it had reached (the Tiled view opened).
// Each frame the layers above claim the keys their shortcuts would act on in the next one;
// ImGuiLayer::new_frame hides exactly those from the navigation for that frame (unmapped in
// io.KeyMap), while the shortcut handlers, which read GLFW key codes, see them as before.
// Nothing is claimed while a text field, a held widget or a popup has the keyboard, so the
// arrows still move a text cursor, tweak an activated slider and walk an open list.

#include <imgui.h>

namespace attnviz::window {

// `glfw_key` is an arrow, Page Up / Page Down, Home or End: the navigation does not see it in
// the next frame. Other keys are not the navigation's and are ignored.
void claim_from_navigation(int glfw_key);

// Before ImGui::NewFrame: the claimed keys unmapped in io.KeyMap, every other navigation key
// mapped to its GLFW code again; the claims are then spent.
void apply_navigation_claims(ImGuiIO& io);

}  // namespace attnviz::window
