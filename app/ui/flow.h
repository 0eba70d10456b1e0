#pragma once
// Rows of widgets that wrap instead of running out of their window (narrow columns, large
// text): the next item goes beside the last one only when it fits.

#include <imgui.h>

namespace attnviz::ui {

// Call between two items: keeps the next one (`width` pixels) on this line when it fits before
// the window's right edge, else lets it start a new line.
inline void same_line_if_fits(float width, float spacing = -1.0f) {
  const float gap = spacing < 0.0f ? ImGui::GetStyle().ItemSpacing.x : spacing;
  const float line_end = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + gap + width <= line_end) ImGui::SameLine(0.0f, gap);
}

// The width of a radio button or checkbox with `label`.
inline float check_width(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

}  // namespace attnviz::ui
