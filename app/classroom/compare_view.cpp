// Compare: two or four copies of the scenario side by side, differing in the mask, the number
// of heads or the number of key/value heads (core/lesson/variants.h). Each copy has its own
// Document and ComputeSession (Eigen: small sentences compute in microseconds, and host
// results keep the copies independent of the main view's device buffers), recomputed
// whenever the main view recomputes, and all share one colour scale: the main view's (weights
// on 0..1 by default), so a colour means the same number here as there.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "app/classroom/compare_layers.h"
#include "app/classroom/draw_helpers.h"
#include "app/classroom/page_layout.h"
#include "app/classroom/step_view.h"
#include "app/compute/compute_session.h"
#include "app/document/document.h"
#include "app/heatmap/query_bars.h"
#include "app/heatmap/heatmap_overlay.h"
#include "app/heatmap/value_range.h"
#include "app/i18n/language.h"
#include "app/i18n/translate.h"
#include "app/ui/classroom_state.h"
#include "app/ui/model_layer.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "app/ui/long_text.h"
#include "core/common/number_text.h"
#include "core/lesson/row_stats.h"
#include "core/lesson/variants.h"
#include "core/scenario/positions.h"

namespace attnviz::classroom {
namespace {

using compute::HeadMatrix;

struct Copy {
  std::string label;  // in the shown language
  std::string key;    // the label in English: its heatmap's ImGui ID, the same in every language
  document::Document document;
  std::unique_ptr<compute::ComputeSession> session;
  std::uint64_t seen_generation = 0;
  std::uint64_t upload_version = 0;
  // Its row statistics for (generation, head): an N × M pass, not redone every frame.
  std::uint64_t stats_generation = 0;
  int stats_head = -1;
  lesson::RowStatsSummary stats;
};

// The colour scale all copies share.
struct SharedScale {
  lesson::ValueRange range;
  bool log = false;
};

class CompareView final : public ui::Panel {
 public:
  explicit CompareView(ViewStates& views) : views_(views) {}
  [[nodiscard]] const char* title() const override { return ui::tab_title(ui::MainView::Compare); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Main; }
  void draw(ui::UiContext& ui) override;

 private:
  void update_copies(const ui::UiContext& ui);
  void draw_toolbar(ui::UiContext& ui);
  [[nodiscard]] GridLayout arrange(const ui::UiContext& ui, float width, float height);
  // cells_y: where the heatmap's column labels start (window coordinates), the same for a grid row.
  void draw_copy(ui::UiContext& ui, Copy& copy, const GridLayout& grid, bool row_labels, const SharedScale& scale,
                 float cells_y);
  // Under a single row of copies: the pinned query's weights in each, as bars under the cells.
  void draw_pinned_bars(ui::UiContext& ui, const GridLayout& grid, ImVec2 start, float label_w, float room);
  [[nodiscard]] SharedScale shared_scale(const ui::UiContext& ui) const;
  [[nodiscard]] std::string stats_line(const Copy& copy, int head) const;

  ViewStates& views_;  // the variants compared, weights or scores (the desktop's)
  std::vector<Copy> copies_;
  LayerComparison layers_;  // the "layers" axis of a pretrained model
  // The shared scale, for the copies' upload versions, head and what is shown.
  struct {
    std::vector<std::uint64_t> versions;
    int head = -1;
    bool scores = false;
    ui::WeightsRange mode = ui::WeightsRange::ZeroToOne;
    SharedScale scale;
  } range_;
  std::uint64_t base_generation_ = 0;
  lesson::CompareOptions built_;
  i18n::Language built_language_ = i18n::Language::Desktop;  // View ▸ Language rewords the labels and note
  bool built_once_ = false;
  std::string error_;
  std::string note_;  // why a copy is left out, or how the base was changed first
};

// Narrow: each copy has its title, and four copies of 8 tokens need every pixel of 1920 for
// their numbers at presentation text sizes.
// Column labels may reach past their cells by the overhang on the right and as much on the
// left of a copy without row labels: the gap holds both and some air, so the last label of one
// copy never runs into the first of the next ("먹었다어제").
float grid_gap(const ui::UiContext& ui) {
  return std::max(10.0f * ui.ui_scale, 2.0f * heatmap::HeatmapWidget::label_overhang() + 6.0f * ui.ui_scale);
}
// Titles and numbers need only some air before the next copy's.
float title_gap(const ui::UiContext& ui) { return 10.0f * ui.ui_scale; }

bool same_options(const lesson::CompareOptions& a, const lesson::CompareOptions& b) {
  return a.axis == b.axis && a.count == b.count && a.window == b.window && a.global == b.global;
}

int shown_head_of(const compute::ComputeSession& session, int requested) {
  return session.has_result() ? lesson::shown_head(session.shown_result(), requested) : 0;
}

void CompareView::update_copies(const ui::UiContext& ui) {
  const lesson::CompareOptions& options = views_.compare;
  if (!built_once_ || base_generation_ != ui.session.generation() || !same_options(built_, options) ||
      built_language_ != i18n::shown_language()) {
    built_once_ = true;
    base_generation_ = ui.session.generation();
    built_ = options;
    built_language_ = i18n::shown_language();
    error_.clear();
    lesson::Comparison comparison;
    try {
      comparison = lesson::derive_comparison(ui.document.scenario(), ui.session.problem(), options, i18n::wording());
    } catch (const std::exception& e) {
      error_ = e.what();
    }
    note_ = comparison.note;
    std::vector<lesson::Variant>& variants = comparison.variants;
    copies_.resize(variants.size());
    for (std::size_t i = 0; i < variants.size(); ++i) {
      Copy& copy = copies_[i];
      copy.label = variants[i].label;
      copy.key = variants[i].key;
      if (!copy.session) copy.session = std::make_unique<compute::ComputeSession>(nullptr, compute::BackendMode::Cpu);
      if (!(copy.document.scenario() == variants[i].scenario))
        copy.document.reset(std::move(variants[i].scenario), std::nullopt);
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
  lesson::CompareOptions& options = views_.compare;
  const float right = ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x;
  const float group_gap = 20.0f * ui.ui_scale;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Compare"));
  // Pills shown translated with the English as their ID ("layers": the tests click it).
  const struct {
    lesson::CompareAxis axis;
    const char* label;
    const char* tooltip;
  } axes[] = {{lesson::CompareAxis::Masks, N_("masks"), N_("no mask, causal, sliding window, Longformer (A)")},
              {lesson::CompareAxis::Heads, N_("heads"), N_("1, 2, 4, 8 heads over the same W_Q, W_K, W_V columns (A)")},
              {lesson::CompareAxis::KvHeads, N_("MHA/GQA/MQA"), N_("the same query heads sharing fewer K/V heads (A)")},
              {lesson::CompareAxis::Positions, N_("positions"),
               N_("no positions, sinusoidal, RoPE, ALiBi over the same weights (A)")},
              {lesson::CompareAxis::Patterns, N_("patterns"),
               N_("mask expressions: causal, attention sinks, strided, block-local (A)")}};
  const bool layers = views_.compare_layers && ui::shows_model(ui);
  if (ui::shows_model(ui)) {  // the model's layers first: with a model open, what a class came for
    const std::string label = i18n::tr_label("layers");
    same_line_if_fits(button_width(label.c_str()), right);
    if (pill(label.c_str(), layers)) views_.compare_layers = true;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", i18n::tr("the model's layers side by side on its text: one head, or the heads averaged"));
  }
  for (const auto& a : axes) {
    const std::string label = i18n::tr_label(a.label);
    same_line_if_fits(button_width(label.c_str()), right);
    if (pill(label.c_str(), !layers && options.axis == a.axis)) {
      options.axis = a.axis;
      views_.compare_layers = false;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr(a.tooltip));
  }
  if (layers) {  // the scenario's copy count and window do not apply to the layers
    ImGui::Separator();
    return;
  }
  same_line_if_fits(button_width("2") * 2.0f + group_gap, right);
  ImGui::Dummy(ImVec2(group_gap - ImGui::GetStyle().ItemSpacing.x, 0.0f));
  ImGui::SameLine();
  if (pill("2", options.count == 2)) options.count = 2;
  ImGui::SameLine();
  if (pill("4", options.count == 4)) options.count = 4;
  if ((options.axis == lesson::CompareAxis::Masks && options.count == 4) ||
      options.axis == lesson::CompareAxis::Patterns) {
    const float slider_w = ImGui::GetFontSize() * 4.5f;
    const std::string label = i18n::tr_label("window r");
    same_line_if_fits(slider_w + ImGui::CalcTextSize(label.c_str(), nullptr, true).x + group_gap, right);
    ImGui::SetNextItemWidth(slider_w);
    ImGui::SliderInt(label.c_str(), &options.window, 0, 8);
  }
  ImGui::Separator();
}

// What the copies show (`scores`: scaled scores, else weights), and its one colour scale beside
// it: one line for both.
void draw_scale_line(ui::UiContext& ui, bool& scores, const SharedScale& scale) {
  if (pill(i18n::tr_label("weights").c_str(), !scores)) scores = false;
  ImGui::SameLine();
  if (pill(i18n::tr_label("scaled scores").c_str(), scores)) scores = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr("W switches"));
  ImGui::SameLine(0.0f, 20.0f * ui.ui_scale);
  const heatmap::Colormap map = scores ? ui.view.scores_colormap : ui.view.weights_colormap;
  const char* caption = scores ? i18n::tr("scaled score: one scale for all copies")
                               : i18n::tr("weight: one scale for all copies, as in Heatmaps");
  const float caption_w = ImGui::CalcTextSize(caption).x + ImGui::GetStyle().ItemSpacing.x;
  const float bar_w =
      std::clamp(ImGui::GetContentRegionAvail().x - caption_w, ImGui::GetFontSize() * 8.0f, 520.0f * ui.ui_scale);
  ImGui::BeginGroup();
  ui.heatmaps.colorbar(map, scale.range.min, scale.range.max, bar_w, nullptr, scale.log);
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::PushTextWrapPos(0.0f);
  ui::text_wrapped_disabled("%s", caption);
  ImGui::PopTextWrapPos();
}

SharedScale CompareView::shared_scale(const ui::UiContext& ui) const {
  const bool scores = views_.compare_scores;
  std::vector<lesson::ComparedMatrix> matrices;
  int tokens = 0;
  for (const Copy& copy : copies_) {
    if (!copy.session->has_result()) continue;
    const int head = shown_head_of(*copy.session, ui.view.selected_head);
    const HeadMatrix which = scores ? HeadMatrix::Scores : HeadMatrix::Weights;
    const Problem& p = copy.session->problem();
    matrices.push_back({copy.session->host_matrix(head, which), &copy.session->shown_result().mask,
                        scores ? p.scale : 1.0f, scores ? head_slopes(p).at(static_cast<std::size_t>(head)) : 0.0f});
    tokens = std::max({tokens, copy.session->problem().n(), copy.session->problem().m()});
  }
  if (scores) return {lesson::shared_range(matrices, lesson::RangeKind::Scores), false};
  // Weights as the main view colours them (View ▸ Weights scale): 0..1 unless asked otherwise.
  switch (ui::resolve(ui.view.weights_range, tokens)) {
    case ui::WeightsRange::Auto: return {lesson::shared_range(matrices, lesson::RangeKind::Weights), false};
    case ui::WeightsRange::Log: return {{heatmap::kLogWeights.min, heatmap::kLogWeights.max}, true};
    case ui::WeightsRange::ZeroToOne:
    case ui::WeightsRange::Automatic: break;
  }
  return {{0.0f, 1.0f}, false};
}

std::string CompareView::stats_line(const Copy& copy, int head) const {
  const Problem& p = copy.session->problem();
  const std::string head_text =
      p.num_heads > 1 ? i18n::format(i18n::tr("head %d/%d \xc2\xb7 "), head, p.num_heads) : std::string();
  // A long sentence's rows peak far below 0.01, where two decimals would say "max 0.00".
  const double peak = copy.stats.mean_max_weight;
  const std::string entropy = format_number(copy.stats.mean_entropy_bits, 2);
  const std::string max = peak >= 0.01 || peak == 0.0 ? format_number(peak, 2) : format_significant(peak, 2);
  return head_text + i18n::format(i18n::tr("entropy %s bits \xc2\xb7 max %s"), entropy.c_str(), max.c_str());
}

GridLayout CompareView::arrange(const ui::UiContext& ui, float width, float height) {
  const Problem& p = ui.session.problem();
  const float s = ui.ui_scale;
  GridSpace space;
  space.width = width;
  space.height = height;
  space.rows = p.n();
  space.cols = p.m();
  // Every row keeps its token label: the heatmap shrinks labels to 62% of the text before it
  // leaves any out. All copies on one screen matter more here than full-size labels.
  space.min_cell = std::ceil(ImGui::GetFontSize() * 0.62f);
  // Presenting, the copies keep their numbers (up to about 16 × 16): cells as wide as a number,
  // fewer copies side by side and the grid scrolls, rather than four copies without numbers.
  const bool numbers = ui.view.show_numbers && !range_.scale.log;
  if (ui.classroom.presenting && numbers && std::max(p.n(), p.m()) <= ui::ClassroomState::kNumberedWhilePresenting) {
    space.min_cell = std::max(space.min_cell, heatmap::number_cell(views_.compare_scores ? "-0.00" : "0.00"));
  }
  space.max_cell = 80.0f * s;
  space.row_label_w = heatmap::HeatmapWidget::row_label_width(p.tokens, 110.0f * s);
  space.min_slot_w = ImGui::GetFontSize() * 7.0f;
  space.gap = grid_gap(ui);
  space.title_gap = title_gap(ui);
  std::vector<std::string> labels;
  std::vector<std::string> lines;
  for (const Copy& copy : copies_) {
    labels.push_back(copy.label);
    if (copy.session->has_result())
      lines.push_back(stats_line(copy, shown_head_of(*copy.session, ui.view.selected_head)));
  }
  space.title_h = [labels, lines](float slot_w) {
    float h = 0.0f;
    for (const std::string& label : labels) h = std::max(h, heading_height(label, slot_w));
    std::size_t line_count = 1;
    for (const std::string& line : lines) line_count = std::max(line_count, wrap_at_spaces(line, slot_w, false).size());
    return h + static_cast<float>(line_count) * ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
  };
  const std::vector<std::string>* columns = &p.source_tokens;
  space.col_label_h = [columns, s](float cell) {
    return heatmap::HeatmapWidget::col_label_height(*columns, cell, 90.0f * s);
  };
  return layout_grid(static_cast<int>(copies_.size()), space);
}

void CompareView::draw_copy(ui::UiContext& ui, Copy& copy, const GridLayout& grid, bool row_labels,
                            const SharedScale& scale, float cells_y) {
  const float s = ui.ui_scale;
  const float wrap = grid.slot_w - title_gap(ui);  // the slot less the air before the next copy
  const float x = ImGui::GetCursorPosX();
  const compute::ComputeSession& session = *copy.session;
  const Problem& base = ui.session.problem();
  const float label_w = row_labels ? heatmap::HeatmapWidget::row_label_width(base.tokens, 110.0f * s) : 0.0f;
  // Titles and numbers wrap within the copy's own column, never over the next copy.
  ImGui::SetCursorPosX(x + label_w);
  ImGui::PushTextWrapPos(x + label_w + wrap);
  heading_text(copy.label);
  if (!session.has_result()) {
    ui::text_lines(session.error());
    ImGui::PopTextWrapPos();
    return;
  }
  const Problem& p = session.problem();
  const Result& result = session.shown_result();
  const int head = shown_head_of(session, ui.view.selected_head);
  if (copy.stats_generation != session.generation() || copy.stats_head != head) {
    copy.stats =
        lesson::summarize(lesson::row_statistics(result.heads[static_cast<std::size_t>(head)].weights, result.mask));
    copy.stats_generation = session.generation();
    copy.stats_head = head;
  }
  ImGui::PopTextWrapPos();
  ImGui::SetCursorPosX(x + label_w);
  ImGui::BeginGroup();  // continuation lines indent from the copy's column, not the window's
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped_at_spaces(stats_line(copy, head), wrap, false);  // "max 0.13" stays whole
  ImGui::PopStyleColor();
  ImGui::EndGroup();
  const bool scores = views_.compare_scores;
  const HeadMatrix which = scores ? HeadMatrix::Scores : HeadMatrix::Weights;
  heatmap::HeatmapSpec spec;
  spec.source.host = session.host_matrix(head, which);
  spec.source.version = copy.upload_version;
  spec.values = ui.view.show_numbers ? spec.source.host : nullptr;
  spec.numbers = ui.view.show_numbers && !scale.log;
  spec.value_scale = scores ? p.scale : 1.0f;
  spec.distance_bias =
      scores ? head_slopes(p).at(static_cast<std::size_t>(head)) : 0.0f;  // ALiBi: what the softmax sees
  spec.range_min = scale.range.min;
  spec.range_max = scale.range.max;
  spec.log_scale = scale.log;
  spec.colormap = scores ? ui.view.scores_colormap : ui.view.weights_colormap;
  spec.mask = &p.mask;
  spec.mask_head = head;
  spec.mask_heads = p.num_heads;
  spec.row_labels = &p.tokens;
  spec.col_labels = &p.source_tokens;
  spec.row_label_width = label_w;
  spec.cells_width = drawn_extent(p.m(), grid.cell);
  spec.cells_height = drawn_extent(p.n(), grid.cell);
  spec.col_label_height = grid.label_h;
  spec.pinned_row = ui.view.pinned_query.value_or(-1);
  spec.highlight_token = ui.view.hovered_token;
  spec.highlight_column = !p.cross_attention;
  // The cells' tops line up across a grid row, whatever each title's height.
  ImGui::SetCursorPos(ImVec2(x, std::max(cells_y, ImGui::GetCursorPosY())));
  const heatmap::HeatmapHover hover = ui.heatmaps.draw(("##copy" + copy.key).c_str(), spec);
  if (hover.hovered && hover.row >= 0 && hover.col >= 0 && spec.source.host != nullptr) {
    const bool visible = result.mask.at(hover.row, hover.col);
    ImGui::SetTooltip("%s \xe2\x86\x92 %s: %s", ui::token_label(p.tokens[static_cast<std::size_t>(hover.row)]).c_str(),
                      ui::token_label(p.source_tokens[static_cast<std::size_t>(hover.col)]).c_str(),
                      visible ? format_number(scaled_score(spec.source.host->at(hover.row, hover.col), spec.value_scale,
                                                           spec.distance_bias, hover.row, hover.col),
                                              4)
                                    .c_str()
                              : i18n::tr("hidden by the mask"));
  }
  if (hover.clicked && hover.row >= 0) ui.view.pinned_query = hover.row;
  if (!hover.hovered && hover.row >= 0) ui.view.hovered_token_next = hover.row;
}

// Copies side by side are square heatmaps, so a wide screen leaves room below them: it shows
// what the teacher follows ("which words does 배 attend to?") under every setting at once,
// each bar under its key's column.
void CompareView::draw_pinned_bars(ui::UiContext& ui, const GridLayout& grid, ImVec2 start, float label_w, float room) {
  const Problem& base = ui.session.problem();
  const float font = ImGui::GetFontSize();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float label_h = ImGui::GetTextLineHeight() * 2.0f + 4.0f;  // two lines: labels may take turns
  const float bars_h = std::min(room - line - label_h - ImGui::GetStyle().ItemSpacing.y * 2.0f, 200.0f * ui.ui_scale);
  if (bars_h < font * 3.0f) return;  // too little room: the heatmaps come first
  const int row = ui.view.pinned_query.value_or(-1);
  ImGui::SetCursorPos(ImVec2(start.x + label_w, start.y));
  if (row < 0 || row >= base.n()) {
    ImGui::TextDisabled("%s", i18n::tr("Click a row to see that token's weights under every setting, as bars."));
    return;
  }
  const float spacing = ImGui::CalcTextSize(" ").x;
  ImGui::TextDisabled("%s", i18n::tr("Following"));
  ImGui::SameLine(0.0f, spacing);
  ImGui::TextUnformatted(ui::token_label(base.tokens[static_cast<std::size_t>(row)]).c_str());
  ImGui::SameLine(0.0f, spacing);
  ImGui::TextDisabled(
      "%s", i18n::format(i18n::tr("(query %d): its weights over the keys in each copy, 0 to 1"), row).c_str());
  const float bars_y = ImGui::GetCursorPosY();
  // The bars in the weights heatmaps' colours (on their shared scale when they show).
  heatmap::BarColours colours{ui.view.weights_colormap, 0.0f, 1.0f, false};
  if (!views_.compare_scores)
    colours = {ui.view.weights_colormap, range_.scale.range.min, range_.scale.range.max, range_.scale.log};
  for (std::size_t i = 0; i < copies_.size(); ++i) {
    const compute::ComputeSession& session = *copies_[i].session;
    if (!session.has_result() || row >= session.problem().n()) continue;
    const int head = shown_head_of(session, ui.view.selected_head);
    const Matrix* weights = session.host_matrix(head, HeadMatrix::Weights);
    if (weights == nullptr) continue;
    heatmap::BarChart bars =
        heatmap::weights_row_chart(*weights, session.shown_result().mask, row, &session.problem().source_tokens);
    bars.width = drawn_extent(weights->cols, grid.cell);
    bars.height = bars_h;
    bars.label_height = label_h;
    bars.highlight = ui.view.hovered_token;
    bars.colours = colours;
    const int column = static_cast<int>(i) % grid.columns;
    ImGui::SetCursorPos(ImVec2(start.x + label_w + grid.slot_w * static_cast<float>(column), bars_y));
    ImGui::PushID(static_cast<int>(i));
    const int hovered = heatmap::draw_bar_chart("##pinned-bars", bars);
    ImGui::PopID();
    if (hovered >= 0 && !session.problem().cross_attention) ui.view.hovered_token_next = hovered;
  }
}

void CompareView::draw(ui::UiContext& ui) {
  ui::ClassroomState& state = ui.classroom;
  state.shown = ui::MainView::Compare;
  state.shown_frame = ImGui::GetFrameCount();
  if (views_.compare_layers && ui::shows_model(ui)) {
    draw_toolbar(ui);
    layers_.draw(ui, views_.compare_heads_averaged);
    return;
  }
  if (!ui.session.has_result()) {
    nothing_to_show(ui, i18n::tr("Nothing to compare yet."));
    return;
  }
  draw_toolbar(ui);
  update_copies(ui);
  if (!error_.empty()) ui::text_lines(error_);
  if (copies_.empty()) return;

  std::vector<std::uint64_t> versions;
  for (const Copy& copy : copies_) versions.push_back(copy.upload_version);
  if (versions != range_.versions || range_.head != ui.view.selected_head || range_.scores != views_.compare_scores ||
      range_.mode != ui.view.weights_range) {
    range_.scale = shared_scale(ui);
    range_.versions = std::move(versions);
    range_.head = ui.view.selected_head;
    range_.scores = views_.compare_scores;
    range_.mode = ui.view.weights_range;
  }
  const SharedScale scale = range_.scale;
  const float s = ui.ui_scale;
  // The one colour scale and the note stay above the copies, in view while the grid scrolls.
  draw_scale_line(ui, views_.compare_scores, scale);
  if (!note_.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ui::text_wrapped_disabled("%s", note_.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::BeginChild("##compare-grid", ImGui::GetContentRegionAvail(), false, ImGuiWindowFlags_HorizontalScrollbar);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const GridLayout grid = arrange(ui, avail.x, avail.y);
  const float label_w = heatmap::HeatmapWidget::row_label_width(ui.session.problem().tokens, 110.0f * s);
  const ImVec2 start = ImGui::GetCursorPos();
  // The titles' height in this grid (the tallest copy's): every heatmap of a grid row starts below it.
  const float title_h = grid.slot_h - grid.label_h - drawn_extent(ui.session.problem().n(), grid.cell) - grid_gap(ui);
  for (std::size_t i = 0; i < copies_.size(); ++i) {
    const int r = static_cast<int>(i) / grid.columns;
    const int c = static_cast<int>(i) % grid.columns;
    // Column 0 draws the row labels all copies share; the others start where its cells do.
    const float x = start.x + (c == 0 ? 0.0f : label_w + grid.slot_w * static_cast<float>(c));
    const float y = start.y + grid.slot_h * static_cast<float>(r);
    ImGui::PushID(static_cast<int>(i));
    ImGui::SetCursorPos(ImVec2(x, y));
    ImGui::BeginGroup();
    draw_copy(ui, copies_[i], grid, c == 0, scale, y + title_h);
    ImGui::EndGroup();
    ImGui::PopID();
  }
  const float grid_h = grid.slot_h * static_cast<float>(grid.rows);
  ImGui::SetCursorPos(ImVec2(start.x, start.y + grid_h));
  if (grid.rows == 1 && !grid.scrolls) draw_pinned_bars(ui, grid, ImGui::GetCursorPos(), label_w, avail.y - grid_h);
  ImGui::Dummy(ImVec2(label_w + grid.slot_w * static_cast<float>(grid.columns), 1.0f));
  ImGui::EndChild();
}

}  // namespace

std::unique_ptr<ui::Panel> make_compare_view(ViewStates& views) { return std::make_unique<CompareView>(views); }

}  // namespace attnviz::classroom
