#include "app/classroom/draw_helpers.h"

#include <imgui.h>

#include <atomic>
#include <cmath>

#include "app/platform/fonts.h"

namespace attnviz::classroom {

void heading_text(const std::string& text) {
  ImFont* font = platform::fonts().heading;
  if (font != nullptr) ImGui::PushFont(font);
  ImGui::TextUnformatted(text.c_str());
  if (font != nullptr) ImGui::PopFont();
}

bool pill(const char* label, bool selected, float min_width) {
  if (selected) {
    ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_SliderGrab));
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImGui::GetStyleColorVec4(ImGuiCol_SliderGrabActive));
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
  }
  const bool clicked = ImGui::Button(label, ImVec2(min_width, 0));
  if (selected) ImGui::PopStyleColor(3);
  return clicked;
}

int token_chips(const char* id, const std::string& caption, const std::vector<std::string>& tokens, int highlight) {
  ImGui::PushID(id);
  int clicked = -1;
  if (!caption.empty()) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(caption.c_str());
    ImGui::SameLine();
  }
  const float right = ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x;
  const float spacing = ImGui::GetStyle().ItemSpacing.x * 0.6f;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    const float width = ImGui::CalcTextSize(tokens[i].c_str()).x + ImGui::GetStyle().FramePadding.x * 2.0f;
    if (i > 0) {
      ImGui::SameLine(0.0f, spacing);
      if (ImGui::GetCursorScreenPos().x + width > right) ImGui::NewLine();
    }
    if (pill(tokens[i].c_str(), static_cast<int>(i) == highlight)) clicked = static_cast<int>(i);
    ImGui::PopID();
  }
  ImGui::PopID();
  return clicked;
}

std::uint64_t fresh_upload_version() {
  // Far above any document revision or session generation the window counts.
  static std::atomic<std::uint64_t> next{std::uint64_t{1} << 48};
  return next.fetch_add(1);
}

bool all_finite(const Matrix& values) {
  for (float v : values.data)
    if (!std::isfinite(v)) return false;
  return true;
}

Matrix finite_copy(const Matrix& values) {
  Matrix copy = values;
  for (float& v : copy.data)
    if (!std::isfinite(v)) v = 0.0f;
  return copy;
}

}  // namespace attnviz::classroom
