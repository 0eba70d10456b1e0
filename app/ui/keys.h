#pragma once
// Keys Dear ImGui 1.86 has no ImGuiKey_ for: its io.KeysDown[] is indexed by GLFW key codes
// (the GLFW backend), so ImGui::IsKeyPressed(keys::kF11) works like any other key.

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace attnviz::ui::keys {

inline constexpr int kHome = GLFW_KEY_HOME;  // Heatmaps: show the whole matrix (Step view: first step)
inline constexpr int kF8 = GLFW_KEY_F8;
inline constexpr int kF9 = GLFW_KEY_F9;
inline constexpr int kF10 = GLFW_KEY_F10;
inline constexpr int kF11 = GLFW_KEY_F11;
inline constexpr int kEqual = GLFW_KEY_EQUAL;  // Ctrl+= (the + key without Shift)
inline constexpr int kMinus = GLFW_KEY_MINUS;
inline constexpr int kZero = GLFW_KEY_0;
inline constexpr int kKeypadAdd = GLFW_KEY_KP_ADD;
inline constexpr int kKeypadSubtract = GLFW_KEY_KP_SUBTRACT;

}  // namespace attnviz::ui::keys
