#pragma once
// The window's keys, in one place. Dear ImGui 1.86 has ImGuiKey_ values for a few keys only;
// its io.KeysDown[] is indexed by GLFW key codes (the GLFW backend), so ImGui::IsKeyPressed
// takes the codes below for every key. Code above the window layer names keys only through
// this header.

#include <imgui.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace attnviz::ui::keys {

// A letter 'A'..'Z' or digit '0'..'9': GLFW's code is the character itself.
constexpr int key(char c) { return c >= 'a' && c <= 'z' ? GLFW_KEY_A + (c - 'a') : static_cast<int>(c); }
static_assert(key('a') == GLFW_KEY_A && key('Z') == GLFW_KEY_Z && key('0') == GLFW_KEY_0 && key('9') == GLFW_KEY_9);
inline constexpr int kLetterFirst = GLFW_KEY_A;
inline constexpr int kLetterLast = GLFW_KEY_Z;
inline constexpr int kDigitFirst = GLFW_KEY_0;
inline constexpr int kDigitLast = GLFW_KEY_9;

inline constexpr int kRight = GLFW_KEY_RIGHT;
inline constexpr int kLeft = GLFW_KEY_LEFT;
inline constexpr int kUp = GLFW_KEY_UP;
inline constexpr int kDown = GLFW_KEY_DOWN;
inline constexpr int kPageUp = GLFW_KEY_PAGE_UP;
inline constexpr int kPageDown = GLFW_KEY_PAGE_DOWN;
inline constexpr int kHome = GLFW_KEY_HOME;  // Heatmaps: show the whole matrix (Step view: first step)
inline constexpr int kEnd = GLFW_KEY_END;
inline constexpr int kEscape = GLFW_KEY_ESCAPE;
inline constexpr int kF1 = GLFW_KEY_F1;
inline constexpr int kF8 = GLFW_KEY_F8;
inline constexpr int kF9 = GLFW_KEY_F9;
inline constexpr int kF10 = GLFW_KEY_F10;
inline constexpr int kF11 = GLFW_KEY_F11;
inline constexpr int kEqual = GLFW_KEY_EQUAL;  // Ctrl+= (the + key without Shift)
inline constexpr int kMinus = GLFW_KEY_MINUS;
inline constexpr int kZero = GLFW_KEY_0;
inline constexpr int kKeypadAdd = GLFW_KEY_KP_ADD;
inline constexpr int kKeypadSubtract = GLFW_KEY_KP_SUBTRACT;
inline constexpr int kC = GLFW_KEY_C;
inline constexpr int kE = GLFW_KEY_E;
inline constexpr int kF = GLFW_KEY_F;
inline constexpr int kN = GLFW_KEY_N;
inline constexpr int kO = GLFW_KEY_O;
inline constexpr int kQ = GLFW_KEY_Q;
inline constexpr int kS = GLFW_KEY_S;
inline constexpr int kY = GLFW_KEY_Y;
inline constexpr int kZ = GLFW_KEY_Z;

// The window's shortcuts and the keys a text field or a dialog takes for itself never meet
// (typing "tx" into the Export dialog's path must not change the temperature or switch
// cross-attention on). Every shortcut handler asks one of these first:
//
// Plain keys (letters, digits, arrows, Home, F-keys, Esc) act only while no text field has the
// keyboard, no widget is held (a slider being dragged) and no popup is open (a menu, a list, a
// dialog: its own keys come first).
bool plain_keys_free();
// A plain arrow, Page or Home/End key that a shortcut acts on in the next frame, if pressed:
// Dear ImGui's keyboard navigation must not also move with it (window/navigation_keys.h).
// Claimed only while plain_keys_free(); call each frame the shortcut applies.
void claim_from_navigation(int glfw_key);
// Ctrl+key acts while no modal dialog is open; the keys text fields use themselves (Ctrl+Z, Y,
// C, X, V, A) also wait while a text field has the keyboard. Ctrl+S still saves while typing.
bool ctrl_key_free(int glfw_key);
// A modal dialog (Export, Open, Save As, a question) is open.
bool modal_open();

// Ctrl+`key` pressed in this frame, with Shift exactly when `shift`, never with Alt, and free
// to act as a shortcut (ctrl_key_free).
inline bool ctrl_pressed(int glfw_key, bool shift, bool repeat = false) {
  const ImGuiIO& io = ImGui::GetIO();
  return io.KeyCtrl && io.KeyShift == shift && !io.KeyAlt && ImGui::IsKeyPressed(glfw_key, repeat) &&
         ctrl_key_free(glfw_key);
}

}  // namespace attnviz::ui::keys
