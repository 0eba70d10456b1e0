// The status bar: tokens, heads, backend (which one computes and why) and device, the last
// compute time and the frame time.

#include <imgui.h>

#include <string>
#include <vector>

#include "app/compute/compute_session.h"
#include "app/compute/model_session.h"
#include "app/document/autosave.h"
#include "app/document/document.h"
#include "app/i18n/translate.h"
#include "app/ui/model_layer.h"
#include "app/panels/panels.h"
#include "app/ui/palette.h"
#include "app/ui/view_state.h"
#include "core/common/number_text.h"

namespace attnviz::panels {
namespace {

// A backend timing that includes start-up (BackendStatus::includes_start_up: only when the
// session's warm-up could not run that backend).
const char* start_up_note(bool includes_start_up) {
  return includes_start_up ? i18n::tr(" (first run, includes start-up)") : "";
}

// What computed and how long it took ("Vulkan: recompute 49.0 ms"), and on what device
// ("llvmpipe (LLVM 15.0.6, 256 bits)"): two parts, so a narrow bar can leave the device out.
void compute_summary(const compute::ComputeSession& session, std::vector<std::string>& parts) {
  const compute::BackendStatus& vulkan = session.vulkan_status();
  const compute::BackendStatus& cpu = session.cpu_status();
  if (vulkan.ran && cpu.ran) {
    parts.push_back(i18n::format(i18n::tr("recompute: Vulkan %.1f ms%s, Eigen %.1f ms%s"), vulkan.wall_ms,
                                 start_up_note(vulkan.includes_start_up), cpu.wall_ms,
                                 start_up_note(cpu.includes_start_up)));
  } else if (vulkan.ran) {
    parts.push_back(
        i18n::format(i18n::tr("Vulkan: recompute %.1f ms%s"), vulkan.wall_ms, start_up_note(vulkan.includes_start_up)));
  } else if (cpu.ran) {
    parts.push_back(
        i18n::format(i18n::tr("Eigen (CPU): recompute %.1f ms%s"), cpu.wall_ms, start_up_note(cpu.includes_start_up)));
  } else {
    parts.emplace_back(i18n::tr("not computed"));
  }
  // Which backend computes and why ("Eigen chosen automatically: llvmpipe … is a CPU driver").
  parts.push_back(session.choice_summary());
  if (std::string note = session.kernel_preparation_note(); !note.empty()) parts.push_back(std::move(note));
  if (vulkan.ran && !vulkan.device.empty())
    parts.push_back(i18n::format(i18n::tr("device: %s"), vulkan.device.c_str()));
}

// "12 tokens · 2 heads (2 K/V)", counted in words the language has for counts; "scenario: "
// first while a model is shown (what follows is not the model's).
std::string shape_summary(const Problem& p, bool beside_model) {
  std::string text = beside_model ? i18n::tr("scenario: ") : "";
  const auto n = static_cast<unsigned long>(p.n());
  text += i18n::format(i18n::trn("%s token", "%s tokens", n), format_grouped(p.n()).c_str());
  if (p.cross_attention) {
    const auto m = static_cast<unsigned long>(p.m());
    text += i18n::format(i18n::trn(" \u00D7 %s source token", " \u00D7 %s source tokens", m),
                         format_grouped(p.m()).c_str());
  }
  text += "  \u00B7  ";  // not translated: a separator
  const auto heads = static_cast<unsigned long>(p.num_heads);
  text += i18n::format(i18n::trn("%d head (%d K/V)", "%d heads (%d K/V)", heads), p.num_heads, p.num_kv_heads);
  return text;
}

// Fills the status bar's window, which the layout places and styles.
class StatusBar final : public ui::Panel {
 public:
  [[nodiscard]] const char* title() const override { return N_("Status bar"); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::StatusBar; }
  void draw(ui::UiContext& ui) override {
    const compute::ComputeSession& session = ui.session;
    // Left: what is computed and how fast, most important first; right: what needs attention.
    std::vector<std::string> left;
    // While a model is shown it comes first, and what follows is said to be the scenario's.
    const std::string& model = ui::shown_model_caption(ui);
    if (!model.empty()) left.push_back(i18n::format(i18n::tr("model %s"), model.c_str()));
    // Past 4,096 tokens the overview is what is computed (it names its backend and the count):
    // the session's refusal is no problem, and its result is an earlier sentence's.
    const ui::OverviewStatus& overview = ui.view.overview_status;
    const bool overview_shown = overview.revision == ui.document.revision();
    if (session.has_result() && !overview_shown) {
      left.push_back(shape_summary(session.problem(), !model.empty()));
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
      left.push_back(i18n::format(i18n::tr("frame %.1f ms"), ui.stats.frame_ms));
    }
    std::string right = overview_shown             ? overview.problem
                        : !session.error().empty() ? i18n::tr("cannot compute the current edit (see Heatmaps)")
                                                   : "";
    if (right.empty()) right = ui.autosave.last_error();
    const bool problem = !right.empty();
    if (right.empty() && ui.document.modified()) right = i18n::tr("unsaved changes (kept in the autosave)");

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
          problem ? ui::palette::vec4(ui::palette::error_text()) : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled),
          "%s", right.c_str());
    }
  }
};

}  // namespace

std::unique_ptr<ui::Panel> make_status_bar() { return std::make_unique<StatusBar>(); }

}  // namespace attnviz::panels
