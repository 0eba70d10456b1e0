#pragma once
// Colours the panels share, as ImU32 (ABGR, what ImDrawList takes): one tint per head so the
// per-head slices of W_Q, W_K, W_V and W_O read at a glance, the chip colours, and the one red
// of errors and one amber of warnings everywhere. Light tints with dark text (the window is
// projected in classrooms); under the dark theme deep tints with light text.

#include <imgui.h>

#include <array>
#include <cstdint>

namespace attnviz::ui::palette {

// Strong colours for head labels and slice borders (colour-blind friendly "Okabe-Ito" hues).
inline constexpr std::array<std::uint32_t, 8> kHeadStrong = {
    0xffb27200u,  // blue
    0xff005ed5u,  // vermilion
    0xff739e00u,  // bluish green
    0xffa779ccu,  // reddish purple
    0xff009fe6u,  // orange
    0xffe9b456u,  // sky blue
    0xff42e4f0u,  // yellow
    0xff555555u,  // grey
};
// The same hues, light, for cell and header backgrounds under dark text; and deep, under the
// dark theme's light text.
inline constexpr std::array<std::uint32_t, 8> kHeadTint = {
    0xfff2ddc7u, 0xffc8dcf8u, 0xffd6ecc8u, 0xffefdcf0u, 0xffc4e6fbu, 0xfffcecd6u, 0xffc8f7fbu, 0xffe6e6e6u,
};
inline constexpr std::array<std::uint32_t, 8> kHeadTintDark = {
    0xff5a3a1eu, 0xff24306au, 0xff2a4a1eu, 0xff563a58u, 0xff1a4a6au, 0xff5e4a26u, 0xff1e5258u, 0xff444444u,
};

// Whether the window is drawn on a dark background now: the dark theme, but not presentation
// mode, which keeps its own light look over either theme (app/ui/theme.h).
inline bool dark_background() {
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  return 0.2126f * bg.x + 0.7152f * bg.y + 0.0722f * bg.z < 0.5f;
}

inline std::uint32_t head_strong(int head) { return kHeadStrong[static_cast<std::size_t>(head) % kHeadStrong.size()]; }
inline std::uint32_t head_tint(int head) {
  const auto& tints = dark_background() ? kHeadTintDark : kHeadTint;
  return tints[static_cast<std::size_t>(head) % tints.size()];
}

// Token chips: plain (light or deep, under the theme's text) and global (Longformer).
inline std::uint32_t chip_fill() { return dark_background() ? 0xff4a423cu : 0xffeee8e2u; }
inline std::uint32_t chip_border() { return dark_background() ? 0xff7a6e64u : 0xffc2b9b0u; }
inline constexpr std::uint32_t kGlobalFill = 0xff8a3a6bu;  // deep purple, white text
inline constexpr std::uint32_t kGlobalBorder = 0xff5e1f48u;

// Text that reports a problem (a value refused, a failed computation), text that asks for
// attention without being one (a zoomed view, an export note), and text that says all is well:
// dark on the light theme, light on the dark one.
inline std::uint32_t error_text() { return dark_background() ? 0xff7a7affu : 0xff1c1cc0u; }    // red
inline std::uint32_t warning_text() { return dark_background() ? 0xff4cb8ffu : 0xff0054b8u; }  // amber
inline std::uint32_t good_text() { return dark_background() ? 0xff8ad88au : 0xff338019u; }     // green
// Lines, bars and outlines in the strong blue of the pinned query, drawn on the window's
// background (not on heatmap cells): light enough to see on the dark theme's.
inline std::uint32_t strong_blue() { return dark_background() ? 0xfff0a868u : 0xffa0501eu; }
// A veil over a thumbnail, or a box behind a label on one: the window's background, see-through.
inline std::uint32_t veil(std::uint8_t alpha) {
  return (ImGui::GetColorU32(ImGuiCol_WindowBg) & 0x00ffffffu) | (static_cast<std::uint32_t>(alpha) << 24);
}
// A selected item's text where no fill marks it (a head's name in a list).
inline std::uint32_t selected_text() { return dark_background() ? 0xfff0c080u : 0xffa85e1fu; }

// For ImGui calls that take colours as ImVec4 (TextColored).
inline ImVec4 vec4(std::uint32_t abgr) { return ImGui::ColorConvertU32ToFloat4(abgr); }

}  // namespace attnviz::ui::palette
