#include "app/window/preedit_overlay.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace attnviz::window {

std::optional<TextCaret> active_text_caret() {
  const ImGuiContext& g = *GImGui;
  if (g.ActiveId == 0 || g.InputTextState.ID != g.ActiveId || !g.IO.WantTextInput) return std::nullopt;
  // InputText puts the IME position one pixel left of the caret, at the top of its line.
  return TextCaret{g.ActiveId, g.PlatformImePos.x + 1.0f, g.PlatformImePos.y, g.FontSize};
}

void draw_preedit(const Preedit& preedit, const TextCaret& caret) {
  if (preedit.empty()) return;
  const std::string text = preedit.utf8();
  const std::string before = to_utf8(std::u32string_view(preedit.text()).substr(0, preedit.caret()));
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const ImVec2 at(caret.x, caret.y);
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const float height = std::max(size.y, caret.height);
  const float line = std::max(1.0f, std::floor(height / 16.0f));
  const ImVec2 end(at.x + size.x + 1.0f, at.y + height);
  ImVec4 opaque = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  opaque.w = 1.0f;  // the text behind must not show through
  draw->AddRectFilled(at, end, ImGui::ColorConvertFloat4ToU32(opaque));
  draw->AddRectFilled(at, end, ImGui::GetColorU32(ImGuiCol_FrameBg));
  draw->AddText(at, ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
  draw->AddRectFilled(ImVec2(at.x, at.y + height - line), ImVec2(at.x + size.x, at.y + height),
                      ImGui::GetColorU32(ImGuiCol_Text));
  // The input method's caret inside the syllable (after it, for Hangul).
  const float caret_x = at.x + ImGui::CalcTextSize(before.c_str()).x;
  draw->AddLine(ImVec2(caret_x, at.y), ImVec2(caret_x, at.y + height - line), ImGui::GetColorU32(ImGuiCol_Text));
}

}  // namespace attnviz::window
