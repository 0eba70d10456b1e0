#pragma once
// Colours the panels share, as ImU32 (ABGR, what ImDrawList takes): one tint per head so the
// per-head slices of W_Q, W_K, W_V and W_O read at a glance, the chip colours, and the one red
// of errors and one amber of warnings everywhere. Light tints with dark text: the window is
// projected in classrooms.

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
// The same hues, light, for cell and header backgrounds.
inline constexpr std::array<std::uint32_t, 8> kHeadTint = {
    0xfff2ddc7u, 0xffc8dcf8u, 0xffd6ecc8u, 0xffefdcf0u, 0xffc4e6fbu, 0xfffcecd6u, 0xffc8f7fbu, 0xffe6e6e6u,
};

inline std::uint32_t head_strong(int head) { return kHeadStrong[static_cast<std::size_t>(head) % kHeadStrong.size()]; }
inline std::uint32_t head_tint(int head) { return kHeadTint[static_cast<std::size_t>(head) % kHeadTint.size()]; }

// Token chips: plain and global (Longformer).
inline constexpr std::uint32_t kChipFill = 0xffeee8e2u;
inline constexpr std::uint32_t kChipBorder = 0xffc2b9b0u;
inline constexpr std::uint32_t kGlobalFill = 0xff8a3a6bu;  // deep purple, white text
inline constexpr std::uint32_t kGlobalBorder = 0xff5e1f48u;

// Text that reports a problem (a value refused, a failed computation), and text that asks for
// attention without being one (a zoomed view, an export note).
inline constexpr std::uint32_t kErrorText = 0xff1c1cc0u;    // dark red
inline constexpr std::uint32_t kWarningText = 0xff0054b8u;  // dark amber

// For ImGui calls that take colours as ImVec4 (TextColored).
inline ImVec4 vec4(std::uint32_t abgr) { return ImGui::ColorConvertU32ToFloat4(abgr); }

}  // namespace attnviz::ui::palette
