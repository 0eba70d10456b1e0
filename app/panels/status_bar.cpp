// The status bar: tokens, heads, backend and device, the last compute time and the frame time.

#include <imgui.h>

#include <cstdio>
#include <string>

#include "app/compute/compute_session.h"
#include "app/panels/panels.h"
#include "app/state/autosave.h"
#include "app/state/document.h"

namespace attnviz::ui {
namespace {

std::string compute_summary(const compute::ComputeSession& session) {
  char text[256];
  const compute::BackendStatus& vulkan = session.vulkan_status();
  const compute::BackendStatus& cpu = session.cpu_status();
  if (vulkan.ran && cpu.ran) {
    std::snprintf(text, sizeof text, "Vulkan %.1f ms, Eigen %.1f ms", vulkan.wall_ms, cpu.wall_ms);
  } else if (vulkan.ran) {
    std::snprintf(text, sizeof text, "Vulkan (%s) %.1f ms", vulkan.device.c_str(), vulkan.wall_ms);
  } else if (cpu.ran) {
    std::snprintf(text, sizeof text, "Eigen %.1f ms", cpu.wall_ms);
  } else {
    std::snprintf(text, sizeof text, "not computed");
  }
  return text;
}

}  // namespace

void draw_status_bar(UiContext& ui, float x, float y, float width, float height) {
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(width, height));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(10.0f * ui.ui_scale, 3.0f * ui.ui_scale));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImGui::GetStyleColorVec4(ImGuiCol_MenuBarBg));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav;
  if (ImGui::Begin("##status", nullptr, flags)) {
    const compute::ComputeSession& session = ui.session;
    std::string left;
    if (session.has_result()) {
      const Problem& p = session.problem();
      char text[160];
      std::snprintf(text, sizeof text, "%d tokens%s  ·  %d head%s (%d K/V)  ·  ", p.n(),
                    p.cross_attention ? (" × " + std::to_string(p.m()) + " source").c_str() : "", p.num_heads,
                    p.num_heads == 1 ? "" : "s", p.num_kv_heads);
      left = text;
    }
    left += compute_summary(session);
    if (ui.stats.frame_ms > 0.0) {
      char frame[96];
      std::snprintf(frame, sizeof frame, "  ·  frame %.1f ms", ui.stats.frame_ms);
      left += frame;
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(left.c_str());

    std::string right;
    if (!session.error().empty()) right = "cannot compute the current edit (see Heatmaps)";
    else if (!ui.autosave.last_error().empty()) right = ui.autosave.last_error();
    else if (ui.document.modified()) right = "unsaved changes (kept in the autosave)";
    const float w = ImGui::CalcTextSize(right.c_str()).x;
    if (!right.empty() && ImGui::GetContentRegionAvail().x > w + 20.0f) {
      ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - w);
      const bool problem = !session.error().empty() || !ui.autosave.last_error().empty();
      ImGui::TextColored(problem ? ImVec4(0.7f, 0.1f, 0.1f, 1.0f) : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), "%s",
                         right.c_str());
    }
  }
  ImGui::End();
  ImGui::PopStyleColor();
  ImGui::PopStyleVar();
}

}  // namespace attnviz::ui
