// The status bar: tokens, heads, backend (which one computes and why) and device, the last
// compute time and the frame time.

#include <imgui.h>

#include <cstdio>
#include <string>
#include <vector>

#include "app/compute/compute_session.h"
#include "app/compute/model_session.h"
#include "app/document/autosave.h"
#include "app/document/document.h"
#include "app/ui/model_layer.h"
#include "app/panels/panels.h"
#include "app/ui/palette.h"
#include "app/ui/view_state.h"
#include "core/lesson/number_text.h"

namespace attnviz::panels {
namespace {

// What computed and how long it took ("Vulkan: recompute 49.0 ms"), and on what device
// ("llvmpipe (LLVM 15.0.6, 256 bits)"): two parts, so a narrow bar can leave the device out.
void compute_summary(const compute::ComputeSession& session, std::vector<std::string>& parts) {
  char text[320];
  const compute::BackendStatus& vulkan = session.vulkan_status();
  const compute::BackendStatus& cpu = session.cpu_status();
  if (vulkan.ran && cpu.ran) {
    std::snprintf(text, sizeof text, "recompute: Vulkan %.1f ms%s, Eigen %.1f ms%s", vulkan.wall_ms,
                  ui::start_up_note(vulkan.includes_start_up), cpu.wall_ms, ui::start_up_note(cpu.includes_start_up));
  } else if (vulkan.ran) {
    std::snprintf(text, sizeof text, "Vulkan: recompute %.1f ms%s", vulkan.wall_ms,
                  ui::start_up_note(vulkan.includes_start_up));
  } else if (cpu.ran) {
    std::snprintf(text, sizeof text, "Eigen (CPU): recompute %.1f ms%s", cpu.wall_ms,
                  ui::start_up_note(cpu.includes_start_up));
  } else {
    std::snprintf(text, sizeof text, "not computed");
  }
  parts.emplace_back(text);
  // Which backend computes and why ("Eigen chosen automatically: llvmpipe … is a CPU driver").
  parts.push_back(session.choice_summary());
  if (std::string note = session.kernel_preparation_note(); !note.empty()) parts.push_back(std::move(note));
  if (vulkan.ran && !vulkan.device.empty()) parts.push_back("device: " + vulkan.device);
}

// Fills the status bar's window, which the layout places and styles.
class StatusBar final : public ui::Panel {
 public:
  [[nodiscard]] const char* title() const override { return "Status bar"; }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::StatusBar; }
  void draw(ui::UiContext& ui) override {
    const compute::ComputeSession& session = ui.session;
    // Left: what is computed and how fast, most important first; right: what needs attention.
    std::vector<std::string> left;
    // While a model is shown it comes first, and what follows is said to be the scenario's.
    const std::string& model = ui::shown_model_caption(ui);
    if (!model.empty()) left.push_back("model " + model);
    // Past 4,096 tokens the overview is what is computed (it names its backend and the count):
    // the session's refusal is no problem, and its result is an earlier sentence's.
    const ui::OverviewStatus& overview = ui.view.overview_status;
    const bool overview_shown = overview.revision == ui.document.revision();
    if (session.has_result() && !overview_shown) {
      const Problem& p = session.problem();
      char text[160];
      std::snprintf(text, sizeof text, "%s%s token%s%s  \u00B7  %d head%s (%d K/V)",
                    model.empty() ? "" : "scenario: ", lesson::format_grouped(p.n()).c_str(), p.n() == 1 ? "" : "s",
                    p.cross_attention ? (" \u00D7 " + lesson::format_grouped(p.m()) + " source").c_str() : "",
                    p.num_heads, p.num_heads == 1 ? "" : "s", p.num_kv_heads);
      left.emplace_back(text);
    }
    if (overview_shown) {
      left.push_back(overview.summary);
    } else {
      compute_summary(session, left);
    }
    // The open model's backend and why, a segment of its own ("model: Eigen, automatic (CPU
    // driver)"), first: a narrow bar drops the scenario's details before it.
    if (ui.model.has_model()) left.insert(left.begin(), ui.model.backend_summary());
    if (ui.stats.frame_ms > 0.0) {
      char frame[96];
      std::snprintf(frame, sizeof frame, "frame %.1f ms", ui.stats.frame_ms);
      left.emplace_back(frame);
    }
    std::string right = overview_shown             ? overview.problem
                        : !session.error().empty() ? "cannot compute the current edit (see Heatmaps)"
                                                   : "";
    if (right.empty()) right = ui.autosave.last_error();
    const bool problem = !right.empty();
    if (right.empty() && ui.document.modified()) right = "unsaved changes (kept in the autosave)";

    // Large text (presentation mode) or a narrow window: the two sides never overlap. The
    // frame time goes first, then the device, then the timing; a problem on the right stays.
    const float room = ImGui::GetContentRegionAvail().x;
    const float gap = 2.0f * ImGui::GetFontSize();
    const auto joined = [&left](std::size_t count) {
      std::string text;
      for (std::size_t i = 0; i < count; ++i) text += (i == 0 ? "" : "  \u00B7  ") + left[i];
      return text;
    };
    float right_w = right.empty() ? 0.0f : ImGui::CalcTextSize(right.c_str()).x;
    if (!problem && right_w + gap > room * 0.45f) right_w = 0.0f;  // "unsaved" gives way first
    std::size_t shown = left.size();
    while (shown > 1 && ImGui::CalcTextSize(joined(shown).c_str()).x + gap + right_w > room) --shown;
    const std::string left_text = joined(shown);
    if (right_w > 0.0f && ImGui::CalcTextSize(left_text.c_str()).x + gap + right_w > room) right_w = 0.0f;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(left_text.c_str());
    if (right_w > 0.0f) {
      ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - right_w);
      ImGui::TextColored(
          problem ? ui::palette::vec4(ui::palette::kErrorText) : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), "%s",
          right.c_str());
    }
  }
};

}  // namespace

std::unique_ptr<ui::Panel> make_status_bar() { return std::make_unique<StatusBar>(); }

}  // namespace attnviz::panels
