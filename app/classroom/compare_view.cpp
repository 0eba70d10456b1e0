// Compare: two or four copies of the scenario side by side, differing in the mask, the number
// of heads or the number of key/value heads (core/lesson/variants.h). Each copy has its own
// Document and ComputeSession (Eigen: small sentences compute in microseconds, and host
// results keep the copies independent of the main view's device buffers), recomputed
// whenever the main view recomputes, and all share one colour scale.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "app/classroom/classroom_state.h"
#include "app/classroom/draw_helpers.h"
#include "app/classroom/step_view.h"
#include "app/compute/compute_session.h"
#include "app/state/document.h"
#include "app/ui/view_state.h"
#include "core/lesson/number_text.h"
#include "core/lesson/row_stats.h"
#include "core/lesson/variants.h"

namespace attnviz::classroom {
namespace {

using compute::HeadMatrix;

struct Copy {
  std::string label;
  app::Document document;
  std::unique_ptr<compute::ComputeSession> session;
  std::uint64_t seen_generation = 0;
  std::uint64_t upload_version = 0;
  // Its row statistics for (generation, head): an N × M pass, not redone every frame.
  std::uint64_t stats_generation = 0;
  int stats_head = -1;
  lesson::RowStatsSummary stats;
};

struct Grid {
  int cols = 1;
  int rows = 1;
  float cell = 4.0f;    // pixels per matrix cell
  float slot_w = 0.0f;  // one copy's place: its titles, labels and cells
  float slot_h = 0.0f;
};

class CompareView final : public ui::Panel {
 public:
  [[nodiscard]] const char* title() const override { return tab_title(MainView::Compare); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Main; }
  void draw(ui::UiContext& ui) override;

 private:
  void update_copies(const ui::UiContext& ui);
  void draw_toolbar(ui::UiContext& ui);
  [[nodiscard]] Grid arrange(const ui::UiContext& ui, float width, float height) const;
  void draw_copy(ui::UiContext& ui, Copy& copy, const Grid& grid, const lesson::ValueRange& range);
  [[nodiscard]] lesson::ValueRange shared_range(const ui::UiContext& ui) const;

  std::vector<Copy> copies_;
  // The shared range, for the copies' upload versions, head and what is shown.
  struct {
    std::vector<std::uint64_t> versions;
    int head = -1;
    bool scores = false;
    ui::WeightsRange mode = ui::WeightsRange::ZeroToOne;
    lesson::ValueRange range;
  } range_;
  std::uint64_t base_generation_ = 0;
  lesson::CompareOptions built_;
  bool built_once_ = false;
  std::string error_;
  bool show_scores_ = false;  // false: weights; true: scaled scores
};

bool same_options(const lesson::CompareOptions& a, const lesson::CompareOptions& b) {
  return a.axis == b.axis && a.count == b.count && a.window == b.window && a.global == b.global;
}

int shown_head_of(const compute::ComputeSession& session, int requested) {
  return session.has_result() ? lesson::shown_head(session.shown_result(), requested) : 0;
}

void CompareView::update_copies(const ui::UiContext& ui) {
  const lesson::CompareOptions& options = classroom_state().compare;
  if (!built_once_ || base_generation_ != ui.session.generation() || !same_options(built_, options)) {
    built_once_ = true;
    base_generation_ = ui.session.generation();
    built_ = options;
    error_.clear();
    std::vector<lesson::Variant> variants;
    try {
      variants = lesson::derive_variants(ui.document.scenario(), ui.session.problem(), options);
    } catch (const std::exception& e) {
      error_ = e.what();
    }
    copies_.resize(variants.size());
    for (std::size_t i = 0; i < variants.size(); ++i) {
      Copy& copy = copies_[i];
      copy.label = variants[i].label;
      if (!copy.session) copy.session = std::make_unique<compute::ComputeSession>(nullptr, compute::BackendMode::Cpu);
      if (!(copy.document.scenario() == variants[i].scenario)) copy.document.reset(std::move(variants[i].scenario), std::nullopt);
    }
  }
  for (Copy& copy : copies_) {
    copy.session->update(copy.document);
    if (copy.session->has_result() && copy.seen_generation != copy.session->generation()) {
      copy.seen_generation = copy.session->generation();
      copy.upload_version = fresh_upload_version();
    }
  }
}

void CompareView::draw_toolbar(ui::UiContext& ui) {
  lesson::CompareOptions& options = classroom_state().compare;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Compare");
  const struct {
    lesson::CompareAxis axis;
    const char* label;
  } axes[] = {{lesson::CompareAxis::Masks, "masks"}, {lesson::CompareAxis::Heads, "number of heads"},
              {lesson::CompareAxis::KvHeads, "MHA / GQA / MQA"}};
  for (const auto& a : axes) {
    ImGui::SameLine();
    if (pill(a.label, options.axis == a.axis)) options.axis = a.axis;
  }
  ImGui::SameLine(0.0f, 20.0f * ui.ui_scale);
  if (pill("2", options.count == 2)) options.count = 2;
  ImGui::SameLine();
  if (pill("4", options.count == 4)) options.count = 4;
  if (options.axis == lesson::CompareAxis::Masks && options.count == 4) {
    ImGui::SameLine(0.0f, 20.0f * ui.ui_scale);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
    ImGui::SliderInt("window r", &options.window, 0, 8);
  }
  ImGui::SameLine(0.0f, 20.0f * ui.ui_scale);
  if (pill("weights", !show_scores_)) show_scores_ = false;
  ImGui::SameLine();
  if (pill("scaled scores", show_scores_)) show_scores_ = true;
  ImGui::Separator();
}

lesson::ValueRange CompareView::shared_range(const ui::UiContext& ui) const {
  std::vector<lesson::ComparedMatrix> matrices;
  for (const Copy& copy : copies_) {
    if (!copy.session->has_result()) continue;
    const int head = shown_head_of(*copy.session, ui.view.selected_head);
    const HeadMatrix which = show_scores_ ? HeadMatrix::Scores : HeadMatrix::Weights;
    matrices.push_back({copy.session->host_matrix(head, which), &copy.session->shown_result().mask,
                        show_scores_ ? copy.session->problem().scale : 1.0f});
  }
  if (!show_scores_ && ui.view.weights_range == ui::WeightsRange::ZeroToOne) return {0.0f, 1.0f};
  return lesson::shared_range(matrices, show_scores_ ? lesson::RangeKind::Scores : lesson::RangeKind::Weights);
}

Grid CompareView::arrange(const ui::UiContext& ui, float width, float height) const {
  const Problem& p = ui.session.problem();
  const float s = ui.ui_scale;
  const float label_w = heatmap::HeatmapWidget::row_label_width(p.tokens, 110.0f * s);
  const float title_h = ImGui::GetTextLineHeightWithSpacing() * 2.6f;  // heading and one line of numbers
  const float gap = 24.0f * s;
  const int count = std::max(static_cast<int>(copies_.size()), 1);
  Grid best;
  best.cell = 0.0f;
  for (int cols = 1; cols <= count; ++cols) {
    const int rows = (count + cols - 1) / cols;
    float cell = (width / static_cast<float>(cols) - label_w - gap) / static_cast<float>(p.m());
    // Column labels turn vertical (and need more height) when cells get narrow: fit twice.
    for (int pass = 0; pass < 2; ++pass) {
      const float label_h = heatmap::HeatmapWidget::col_label_height(p.source_tokens, cell, 90.0f * s);
      cell = std::min(cell, (height / static_cast<float>(rows) - title_h - label_h - gap) / static_cast<float>(p.n()));
    }
    if (cell > best.cell) best = {cols, rows, cell, 0.0f, 0.0f};
  }
  best.cell = std::floor(std::clamp(best.cell, 2.0f, 80.0f * s));
  const float label_h = heatmap::HeatmapWidget::col_label_height(p.source_tokens, best.cell, 90.0f * s);
  best.slot_w = label_w + best.cell * static_cast<float>(p.m()) + gap;
  best.slot_h = title_h + label_h + best.cell * static_cast<float>(p.n()) + gap;
  return best;
}

void CompareView::draw_copy(ui::UiContext& ui, Copy& copy, const Grid& grid, const lesson::ValueRange& range) {
  const float s = ui.ui_scale;
  heading_text(copy.label);
  if (!copy.session->has_result()) {
    ImGui::TextWrapped("%s", copy.session->error().c_str());
    return;
  }
  const compute::ComputeSession& session = *copy.session;
  const Problem& p = session.problem();
  const Result& result = session.shown_result();
  const int head = shown_head_of(session, ui.view.selected_head);
  if (copy.stats_generation != session.generation() || copy.stats_head != head) {
    copy.stats = lesson::summarize(lesson::row_statistics(result.heads[static_cast<std::size_t>(head)].weights, result.mask));
    copy.stats_generation = session.generation();
    copy.stats_head = head;
  }
  const lesson::RowStatsSummary& stats = copy.stats;
  // Within the copy's own column: wrapped, never over the next copy.
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + grid.slot_w - 24.0f * s);
  const std::string head_text = p.num_heads > 1 ? "head " + std::to_string(head) + "/" + std::to_string(p.num_heads) + " \xc2\xb7 " : "";
  ImGui::TextDisabled("%sentropy %s bits \xc2\xb7 max %s", head_text.c_str(),
                      lesson::format_number(stats.mean_entropy_bits, 2).c_str(),
                      lesson::format_number(stats.mean_max_weight, 2).c_str());
  ImGui::PopTextWrapPos();
  const HeadMatrix which = show_scores_ ? HeadMatrix::Scores : HeadMatrix::Weights;
  heatmap::HeatmapSpec spec;
  spec.source.host = session.host_matrix(head, which);
  spec.source.version = copy.upload_version;
  spec.values = ui.view.show_numbers ? spec.source.host : nullptr;
  spec.numbers = ui.view.show_numbers;
  spec.value_scale = show_scores_ ? p.scale : 1.0f;
  spec.range_min = range.min;
  spec.range_max = range.max;
  spec.colormap = show_scores_ ? ui.view.scores_colormap : ui.view.weights_colormap;
  spec.mask = &p.mask;
  spec.row_labels = &p.tokens;
  spec.col_labels = &p.source_tokens;
  spec.row_label_width = heatmap::HeatmapWidget::row_label_width(p.tokens, 110.0f * s);
  spec.cells_width = grid.cell * static_cast<float>(p.m());
  spec.cells_height = grid.cell * static_cast<float>(p.n());
  spec.col_label_height = heatmap::HeatmapWidget::col_label_height(p.source_tokens, grid.cell, 90.0f * s);
  spec.pinned_row = ui.view.pinned_query.value_or(-1);
  spec.highlight_token = ui.view.hovered_token;
  spec.highlight_column = !p.cross_attention;
  const heatmap::HeatmapHover hover = ui.heatmaps.draw(("##copy" + copy.label).c_str(), spec);
  if (hover.hovered && hover.row >= 0 && hover.col >= 0 && spec.source.host != nullptr) {
    const bool visible = result.mask.at(hover.row, hover.col);
    ImGui::SetTooltip("%s \xe2\x86\x92 %s: %s", p.tokens[static_cast<std::size_t>(hover.row)].c_str(),
                      p.source_tokens[static_cast<std::size_t>(hover.col)].c_str(),
                      visible ? lesson::format_number(spec.value_scale * spec.source.host->at(hover.row, hover.col), 4).c_str()
                              : "hidden by the mask");
  }
  if (hover.clicked && hover.row >= 0) ui.view.pinned_query = hover.row;
  if (!hover.hovered && hover.row >= 0) ui.view.hovered_token_next = hover.row;
}

void CompareView::draw(ui::UiContext& ui) {
  ClassroomState& state = classroom_state();
  state.shown = MainView::Compare;
  state.shown_frame = ImGui::GetFrameCount();
  if (!ui.session.has_result()) {
    ImGui::TextWrapped("Nothing to compare yet. %s", ui.session.error().c_str());
    return;
  }
  draw_toolbar(ui);
  update_copies(ui);
  if (!error_.empty()) ImGui::TextWrapped("%s", error_.c_str());
  if (copies_.empty()) return;

  std::vector<std::uint64_t> versions;
  for (const Copy& copy : copies_) versions.push_back(copy.upload_version);
  if (versions != range_.versions || range_.head != ui.view.selected_head || range_.scores != show_scores_ ||
      range_.mode != ui.view.weights_range) {
    range_.range = shared_range(ui);
    range_.versions = std::move(versions);
    range_.head = ui.view.selected_head;
    range_.scores = show_scores_;
    range_.mode = ui.view.weights_range;
  }
  const lesson::ValueRange range = range_.range;
  const float s = ui.ui_scale;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float colorbar_h = ImGui::GetFontSize() * 3.0f;
  const Grid grid = arrange(ui, avail.x, avail.y - colorbar_h);
  Grid placed = grid;
  placed.slot_w = std::max(grid.slot_w, avail.x / static_cast<float>(grid.cols) * 0.5f);
  const float slot_w = placed.slot_w;
  const float slot_h = grid.slot_h;
  const ImVec2 start = ImGui::GetCursorPos();
  for (std::size_t i = 0; i < copies_.size(); ++i) {
    const int r = static_cast<int>(i) / grid.cols;
    const int c = static_cast<int>(i) % grid.cols;
    ImGui::SetCursorPos(ImVec2(start.x + slot_w * static_cast<float>(c), start.y + slot_h * static_cast<float>(r)));
    ImGui::PushID(static_cast<int>(i));
    ImGui::BeginGroup();
    draw_copy(ui, copies_[i], placed, range);
    ImGui::EndGroup();
    ImGui::PopID();
  }
  // The one colour scale right under the grid, where the eye looks for it.
  ImGui::SetCursorPos(ImVec2(start.x, std::min(start.y + slot_h * static_cast<float>(grid.rows), start.y + avail.y - colorbar_h)));
  const heatmap::Colormap map = show_scores_ ? ui.view.scores_colormap : ui.view.weights_colormap;
  ui.heatmaps.colorbar(map, range.min, range.max, std::min(avail.x * 0.5f, 520.0f * s),
                       show_scores_ ? "scaled score, one scale for all" : "weight, one scale for all");
}

}  // namespace

std::unique_ptr<ui::Panel> make_compare_view() { return std::make_unique<CompareView>(); }

}  // namespace attnviz::classroom
