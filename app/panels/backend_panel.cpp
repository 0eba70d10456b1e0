// Backend: which path computes (Vulkan, Eigen, or both), on which device, how long the last
// recompute took; with both, the largest difference per matrix and a difference heatmap. An
// open model follows the same choice: which backend computed it and why, and with both its
// per-layer differences.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/i18n/translate.h"
#include "app/compute/compute_session.h"
#include "app/compute/model_session.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/heatmap/value_range.h"
#include "app/panels/panels.h"
#include "app/ui/flow.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/attention/compare.h"

namespace attnviz::panels {
namespace {

using compute::BackendMode;
using compute::BackendStatus;
using compute::HeadMatrix;
using compute::pick;

const char* matrix_name(HeadMatrix which) {
  switch (which) {
    case HeadMatrix::Scores: return N_("scores");
    case HeadMatrix::Weights: return N_("weights");
    case HeadMatrix::Context: return N_("context");
  }
  return "?";
}

// `warm_up_ms`: the start-up the session's warm-up took off this backend's first recompute.
void status_row(const char* name, const BackendStatus& status, double warm_up_ms) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  ImGui::TableNextColumn();
  ui::text_lines(status.device);
  ImGui::TableNextColumn();
  if (!status.enabled) {
    ImGui::TextDisabled("%s", i18n::tr("off"));
  } else if (status.ran) {
    ImGui::Text("%.2f ms", status.wall_ms);  // not translated: a unit
    const bool hovered = ImGui::IsItemHovered();
    // Only when the warm-up failed (then it says why at the first recompute).
    if (status.includes_start_up) ImGui::TextDisabled("%s", i18n::tr("first run, includes start-up"));
    if (hovered) {
      ImGui::BeginTooltip();
      if (!status.timing.stages_ms.empty()) {
        ImGui::Text(i18n::tr("as the backend measured it: %.3f ms"), status.timing.total_ms);
        // not translated: the stages' names and a unit (below)
        for (const auto& [stage, ms] : status.timing.stages_ms) {
          ImGui::Text("  %-14s %8.3f ms", stage.c_str(), ms);  // not translated
        }
      }
      if (warm_up_ms > 0.0) {
        ImGui::TextDisabled(i18n::tr("start-up (compiling shaders, starting threads): %.1f ms, before the first frame"),
                            warm_up_ms);
      }
      ImGui::EndTooltip();
    }
  } else {
    ImGui::TextDisabled("%s", i18n::tr("did not run"));
  }
}

class BackendPanel final : public ui::Panel {
 public:
  [[nodiscard]] const char* title() const override { return N_("Backend"); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Side; }
  [[nodiscard]] bool open_by_default() const override { return false; }
  void draw(ui::UiContext& ui) override;

 private:
  void draw_mode(ui::UiContext& ui);
  void draw_statuses(const ui::UiContext& ui);
  void draw_differences(ui::UiContext& ui);
  static void draw_model(const ui::UiContext& ui);
  void draw_difference_heatmap(ui::UiContext& ui);

  // The difference heatmap's matrix, rebuilt when the results, head or matrix change.
  Matrix difference_;
  std::uint64_t difference_generation_ = 0;
  int difference_head_ = -1;
  HeadMatrix difference_which_ = HeadMatrix::Weights;
  std::uint64_t difference_version_ = 0;
  heatmap::ValueRange difference_range_;
  std::vector<std::string> dims_;  // "0", "1", ...: the context's column labels
};

void BackendPanel::draw_mode(ui::UiContext& ui) {
  int mode = static_cast<int>(ui.view.backend);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Compute with"));
  // A narrow column (large text) puts the choices on more lines rather than cutting "Both".
  const compute::AutomaticChoice& automatic = ui.session.automatic_choice();
  // Shown translated; the ID "###automatic" whichever backend it names.
  const std::string automatic_label =
      std::string(automatic.mode == BackendMode::Vulkan ? i18n::tr("Automatic (Vulkan here)")
                                                        : i18n::tr("Automatic (Eigen here)")) +
      "###automatic";
  ui::same_line_if_fits(ui::check_width(automatic_label.c_str()));
  bool changed = ImGui::RadioButton(automatic_label.c_str(), &mode, static_cast<int>(BackendMode::Automatic));
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(i18n::tr("Eigen when the Vulkan device is a CPU driver (lavapipe), Vulkan on a GPU.\nHere: %s."),
                      automatic.reason().c_str());
  }
  ui::same_line_if_fits(ui::check_width("Vulkan"));                                       // not translated: a name
  changed |= ImGui::RadioButton("Vulkan", &mode, static_cast<int>(BackendMode::Vulkan));  // not translated: a name
  const std::string eigen_label = i18n::tr_label("Eigen (CPU)");
  ui::same_line_if_fits(ui::check_width(eigen_label.c_str()));
  changed |= ImGui::RadioButton(eigen_label.c_str(), &mode, static_cast<int>(BackendMode::Cpu));
  const std::string both_label = i18n::tr_label("Both");
  ui::same_line_if_fits(ui::check_width(both_label.c_str()));
  changed |= ImGui::RadioButton(both_label.c_str(), &mode, static_cast<int>(BackendMode::Both));
  if (changed) ui.view.backend = static_cast<BackendMode>(mode);
}

void BackendPanel::draw_statuses(const ui::UiContext& ui) {
  const compute::ComputeSession& session = ui.session;
  if (ImGui::BeginTable("##statuses", 3, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn(i18n::tr_label("backend").c_str(), ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn(i18n::tr_label("device").c_str(), ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn(i18n::tr_label("last recompute").c_str(), ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableHeadersRow();
    status_row("Vulkan", session.vulkan_status(), session.vulkan_warm_up_ms());  // not translated: a name
    status_row("Eigen", session.cpu_status(), session.cpu_warm_up_ms());         // not translated: a name
    ImGui::EndTable();
  }
  for (const BackendStatus* status : {&session.vulkan_status(), &session.cpu_status()}) {
    if (status->error.empty()) continue;
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
    ui::text_lines(status->error);
    ImGui::PopStyleColor();
  }
  ui::text_wrapped("%s.", session.choice_summary().c_str());
  if (session.has_result()) {
    const bool vulkan = std::string_view(session.shown_backend()) == "vulkan";  // not translated: a name
    ImGui::TextDisabled("%s", vulkan ? i18n::tr("The heatmaps show the Vulkan result.")
                                     : i18n::tr("The heatmaps show the Eigen result."));
  }
}

void BackendPanel::draw_differences(ui::UiContext& ui) {
  const std::vector<MatrixDifference>& diffs = ui.session.differences();
  double worst = 0.0;
  for (const MatrixDifference& d : diffs) worst = std::max(worst, d.max_abs);
  ImGui::Text(i18n::tr("Largest difference |Vulkan − Eigen|: %.2e"), worst);
  if (results_agree(diffs))
    ImGui::TextColored(ui::palette::vec4(ui::palette::good_text()), "%s", i18n::tr("(agree within 1e-5)"));
  else
    ImGui::TextColored(ui::palette::vec4(ui::palette::error_text()), "%s", i18n::tr("(above 1e-5)"));
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", i18n::tr("Within 1e-5 absolute where a matrix's values stay within ±1 (the weights),\n"
                                     "relative to its largest value beyond (raw scores and contexts grow with d_k)"));
  }

  const float rows_h = std::min(static_cast<float>(diffs.size()) + 1.5f, 9.5f) * ImGui::GetTextLineHeightWithSpacing();
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersOuter | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("##diffs", 4, flags, ImVec2(0.0f, rows_h))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn(i18n::tr_label("matrix").c_str());
    ImGui::TableSetupColumn(i18n::tr_label("max abs").c_str());
    ImGui::TableSetupColumn(i18n::tr_label("max rel").c_str());
    ImGui::TableSetupColumn(i18n::tr_label("at (row, col)").c_str());
    ImGui::TableHeadersRow();
    for (const MatrixDifference& d : diffs) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(d.name.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.2e", d.max_abs);
      ImGui::TableNextColumn();
      ImGui::Text("%.2e", d.max_rel);
      ImGui::TableNextColumn();
      ImGui::Text("(%d, %d)", d.row, d.col);
    }
    ImGui::EndTable();
  }
}

// The model's backend and, when Vulkan was compared with Eigen, each layer's largest
// |Vulkan − Eigen| (the core's ForwardPass computed both; nothing is computed here).
void BackendPanel::draw_model(const ui::UiContext& ui) {
  const compute::ModelSession& model = ui.model;
  const model::ForwardResult* result = model.result();
  if (!model.has_model() || result == nullptr) return;
  ImGui::Separator();
  ImGui::TextDisabled("%s", i18n::tr("Pretrained model"));
  ui::text_lines(model.backend_explanation());
  if (result->layers.empty() || result->layers.front().differences.empty()) return;
  const float rows_h =
      std::min(static_cast<float>(result->layers.size()) + 1.5f, 9.5f) * ImGui::GetTextLineHeightWithSpacing();
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersOuter | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("##model_diffs", 3, flags, ImVec2(0.0f, rows_h))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn(i18n::tr_label("layer").c_str());
  ImGui::TableSetupColumn(i18n::tr_label("max |Vulkan − Eigen|").c_str());
  ImGui::TableSetupColumn(i18n::tr_label("in").c_str());
  ImGui::TableHeadersRow();
  for (const model::LayerAttention& layer : result->layers) {
    const auto worst =
        std::max_element(layer.differences.begin(), layer.differences.end(),
                         [](const MatrixDifference& a, const MatrixDifference& b) { return a.max_abs < b.max_abs; });
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%d", layer.layer);
    ImGui::TableNextColumn();
    if (worst == layer.differences.end()) {
      ImGui::TextDisabled("-");
      continue;
    }
    const bool agree = results_agree(layer.differences);
    ImGui::TextColored(agree ? ImGui::GetStyleColorVec4(ImGuiCol_Text) : ui::palette::vec4(ui::palette::error_text()),
                       "%.2e", worst->max_abs);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", agree ? i18n::tr("agree within 1e-5 (relative beyond ±1)") : i18n::tr("above 1e-5"));
    ImGui::TableNextColumn();
    ImGui::Text("%s (%d, %d)", worst->name.c_str(), worst->row, worst->col);
  }
  ImGui::EndTable();
  ImGui::Spacing();
}

void BackendPanel::draw_difference_heatmap(ui::UiContext& ui) {
  const compute::ComputeSession& session = ui.session;
  const int head = ui.view.selected_head;
  ImGui::AlignTextToFramePadding();
  ImGui::Text(i18n::tr("Vulkan − Eigen, head %d,"), head);
  ImGui::SameLine();
  int which = static_cast<int>(ui.view.compared_matrix);
  ImGui::SetNextItemWidth(120.0f * ui.ui_scale);
  std::string items;  // ImGui's list: each item ends with '\0'
  for (const HeadMatrix m : {HeadMatrix::Scores, HeadMatrix::Weights, HeadMatrix::Context}) {
    items += i18n::tr(matrix_name(m));
    items += '\0';
  }
  if (ImGui::Combo("##which", &which, items.c_str())) ui.view.compared_matrix = static_cast<HeadMatrix>(which);

  const Result* vulkan = session.vulkan_result();
  const Result* cpu = session.cpu_result();
  if (vulkan == nullptr || cpu == nullptr || head >= static_cast<int>(cpu->heads.size())) return;
  if (difference_generation_ != session.generation() || difference_head_ != head ||
      difference_which_ != ui.view.compared_matrix) {
    const auto h = static_cast<std::size_t>(head);
    difference_ =
        difference(pick(vulkan->heads[h], ui.view.compared_matrix), pick(cpu->heads[h], ui.view.compared_matrix));
    difference_range_ = heatmap::symmetric_range(difference_);
    difference_generation_ = session.generation();
    difference_head_ = head;
    difference_which_ = ui.view.compared_matrix;
    ++difference_version_;
  }
  const Problem& problem = session.problem();
  const bool context = ui.view.compared_matrix == HeadMatrix::Context;
  if (static_cast<int>(dims_.size()) != problem.d_v) {
    dims_.clear();
    for (int i = 0; i < problem.d_v; ++i) dims_.push_back(std::to_string(i));
  }
  const std::vector<std::string>& columns = context ? dims_ : problem.source_tokens;
  const float width = ImGui::GetContentRegionAvail().x;
  const float label_w = heatmap::HeatmapWidget::row_label_width(problem.tokens, 90.0f * ui.ui_scale);
  const float cells =
      std::max(std::min(width - label_w - heatmap::HeatmapWidget::label_overhang(), 360.0f * ui.ui_scale), 40.0f);
  heatmap::HeatmapSpec spec;
  spec.source.host = &difference_;
  spec.source.version = difference_version_;
  // No numbers in the cells: they would all read 0; the tooltip gives each difference.
  spec.colormap = ui.view.difference_colormap;
  spec.range_min = difference_range_.min;
  spec.range_max = difference_range_.max;
  spec.row_labels = &problem.tokens;
  spec.col_labels = &columns;
  spec.row_label_width = label_w;
  spec.cells_width = cells;
  spec.cells_height = context
                          ? cells * std::min(1.0f, static_cast<float>(problem.n()) / static_cast<float>(problem.d_v))
                          : cells * static_cast<float>(problem.n()) / static_cast<float>(problem.m());
  spec.col_label_height = heatmap::HeatmapWidget::col_label_height(
      columns, cells / static_cast<float>(std::max(difference_.cols, 1)), 90.0f * ui.ui_scale);
  // Masked weights are 0 in both paths, so their difference is 0 too: hatched as in the
  // Weights heatmap, not a white that would read as "agree exactly".
  if (ui.view.compared_matrix == HeadMatrix::Weights) spec.mask = &problem.mask;
  spec.mask_head = head;
  spec.mask_heads = problem.num_heads;
  const heatmap::HeatmapHover hover = ui.heatmaps.draw("##difference", spec);
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label_w);
  ui.heatmaps.colorbar(spec.colormap, spec.range_min, spec.range_max, cells, nullptr);
  if (hover.hovered && hover.row >= 0 && hover.col >= 0) {
    const char* shown = "%s[%d][%d]: Vulkan − Eigen = %.3e";  // not translated: a formula
    ImGui::SetTooltip(shown, i18n::tr(matrix_name(ui.view.compared_matrix)), hover.row, hover.col,
                      static_cast<double>(difference_.at(hover.row, hover.col)));
  }
}

void BackendPanel::draw(ui::UiContext& ui) {
  draw_mode(ui);
  if (!ui.session.vulkan_available()) {
    ImGui::TextDisabled("%s", i18n::tr("No Vulkan device computes here: the Eigen path stands in."));
  } else if (const std::optional<compute::KernelPreparation> p = ui.session.preparing_kernels()) {
    ImGui::TextDisabled(i18n::tr("Building the Vulkan kernels (%d of %d): Eigen computes until they are ready."),
                        p->built, p->total);
  }
  draw_statuses(ui);
  draw_model(ui);
  if (!ui.session.compared()) {
    if (ui.view.backend != BackendMode::Both)
      ImGui::TextDisabled("%s", i18n::tr("Choose Both to compare the two paths."));
    return;
  }
  ImGui::Separator();
  draw_differences(ui);
  ImGui::Spacing();
  draw_difference_heatmap(ui);
}

}  // namespace

std::unique_ptr<ui::Panel> make_backend_panel() { return std::make_unique<BackendPanel>(); }

}  // namespace attnviz::panels
