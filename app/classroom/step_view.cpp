// Step by step: the pipeline of DESIGN.md one page at a time (core/lesson/steps.h), the
// followed query token (the heatmaps' pinned query) traced through every page, the selected
// cell's dot product written out, and the scaling lesson on the Scaling and Softmax pages.

#include "app/classroom/step_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "app/classroom/classroom_state.h"
#include "app/classroom/draw_helpers.h"
#include "app/classroom/scaling_lesson.h"
#include "app/compute/compute_session.h"
#include "app/heatmap/value_range.h"
#include "app/ui/view_state.h"
#include "core/lesson/row_stats.h"
#include "core/lesson/steps.h"

namespace attnviz::classroom {
namespace {

using lesson::ShownMatrix;
using lesson::StepKind;

// The matrices of one page, kept while (generation, step, head) stay the same, so that the
// heatmaps upload them once.
struct PageMatrices {
  std::uint64_t generation = 0;
  int step = -1;
  int head = -1;
  ui::WeightsRange weights_range = ui::WeightsRange::ZeroToOne;
  std::vector<ShownMatrix> shown;
  std::vector<std::shared_ptr<const Matrix>> display;  // what the GPU draws (finite values)
  std::vector<heatmap::ValueRange> ranges;
  std::uint64_t version = 0;
};

struct Focus {
  int head = 0;
  int query = 0;
  int key = 0;
};

class StepView final : public ui::Panel {
 public:
  [[nodiscard]] const char* title() const override { return tab_title(MainView::Step); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Main; }
  void draw(ui::UiContext& ui) override;

 private:
  void refresh(const ui::UiContext& ui, const Focus& focus, int step);
  void draw_toolbar(ui::UiContext& ui, const Focus& focus);
  void draw_header(const ui::UiContext& ui, const lesson::StepPage& page) const;
  void draw_matrices(ui::UiContext& ui, const Focus& focus, float width, float height);
  void draw_trace(const lesson::StepPage& page) const;

  // The page's text for one (step, focus, rows): rebuilt only when one of them changes (a
  // long sentence's trace is not free, and the window redraws on every mouse move).
  const lesson::StepPage& text_page(int step, const lesson::PageFocus& focus);

  std::uint64_t generation_ = 0;
  std::unique_ptr<lesson::StepModel> model_;
  PageMatrices matrices_;
  struct {
    std::uint64_t generation = 0;
    int step = -1, head = -1, query = -1, key = -1, rows = -1;
    lesson::StepPage page;
  } text_;
  std::vector<lesson::RowStats> row_stats_;
};

Focus current_focus(const ui::UiContext& ui) {
  const Problem& p = ui.session.problem();
  Focus f;
  f.head = std::clamp(ui.view.selected_head, 0, p.num_heads - 1);
  f.query = std::clamp(ui.view.pinned_query.value_or(0), 0, p.n() - 1);
  // Until a cell is clicked, the arithmetic check is about the query and itself (its largest
  // score in most sentences), or key 0 in cross-attention.
  f.key = std::clamp(classroom_state().key.value_or(p.cross_attention ? 0 : f.query), 0, p.m() - 1);
  return f;
}

void StepView::refresh(const ui::UiContext& ui, const Focus& focus, int step) {
  const compute::ComputeSession& session = ui.session;
  if (!model_ || generation_ != session.generation()) {
    model_ = std::make_unique<lesson::StepModel>(session.problem(), session.shown_result());
    generation_ = session.generation();
    matrices_ = PageMatrices{};
  }
  if (matrices_.generation == generation_ && matrices_.step == step && matrices_.head == focus.head &&
      matrices_.weights_range == ui.view.weights_range)
    return;
  PageMatrices m;
  m.generation = generation_;
  m.step = step;
  m.head = focus.head;
  m.weights_range = ui.view.weights_range;
  m.version = fresh_upload_version();
  m.shown = model_->page(lesson::step_at(step), {.head = focus.head, .query = focus.query}).matrices;
  const Result& result = model_->result();
  for (const ShownMatrix& shown : m.shown) {
    const Matrix& values = *shown.values;
    m.display.push_back(all_finite(values) ? shown.values : std::make_shared<const Matrix>(finite_copy(values)));
    switch (shown.kind) {
      case ShownMatrix::Kind::Mask: m.ranges.push_back({0.0f, 1.0f}); break;
      case ShownMatrix::Kind::Weights:
        m.ranges.push_back(m.weights_range == ui::WeightsRange::Auto ? heatmap::zero_to_max(values) : heatmap::ValueRange{0.0f, 1.0f});
        break;
      case ShownMatrix::Kind::Values: {
        const bool masked = !all_finite(values);  // −∞ where hidden: the range of what is visible
        m.ranges.push_back(heatmap::symmetric_range(*m.display.back(), 1.0f, masked ? &result.mask : nullptr));
        break;
      }
    }
  }
  matrices_ = std::move(m);
  const Matrix& weights = result.heads[static_cast<std::size_t>(focus.head)].weights;
  row_stats_ = lesson::row_statistics(weights, result.mask);
}

const lesson::StepPage& StepView::text_page(int step, const lesson::PageFocus& focus) {
  if (text_.generation != generation_ || text_.step != step || text_.head != focus.head || text_.query != focus.query ||
      text_.key != focus.key || text_.rows != focus.max_trace_keys) {
    text_.page = model_->page(lesson::step_at(step), focus);
    text_.generation = generation_;
    text_.step = step;
    text_.head = focus.head;
    text_.query = focus.query;
    text_.key = focus.key;
    text_.rows = focus.max_trace_keys;
  }
  return text_.page;
}

void StepView::draw(ui::UiContext& ui) {
  ClassroomState& state = classroom_state();
  state.shown = MainView::Step;
  state.shown_frame = ImGui::GetFrameCount();
  if (!ui.session.has_result()) {
    ImGui::TextWrapped("Nothing to show yet. %s", ui.session.error().c_str());
    return;
  }
  state.step = std::clamp(state.step, 0, lesson::kStepCount - 1);
  const Focus focus = current_focus(ui);
  refresh(ui, focus, state.step);

  draw_toolbar(ui, focus);
  lesson::PageFocus text_focus{.head = focus.head, .query = focus.query, .key = focus.key};
  text_focus.include_matrices = false;
  // As many table rows as the trace box has room for (below the header's ~4 lines, with a
  // few lines of its own around the table).
  const float row_h = ImGui::GetTextLineHeight() + ImGui::GetStyle().CellPadding.y * 2.0f;
  const float table_h = ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing() * 11.0f;
  text_focus.max_trace_keys = std::clamp(static_cast<int>(table_h / row_h), 8, 64);
  const lesson::StepPage& page = text_page(state.step, text_focus);
  draw_header(ui, page);

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = 12.0f * ui.ui_scale;
  const float trace_w = std::floor(std::clamp(avail.x * 0.36f, std::min(320.0f * ui.ui_scale, avail.x * 0.5f), 720.0f * ui.ui_scale));
  ImGui::BeginChild("##step-matrices", ImVec2(avail.x - trace_w - gap, avail.y), false, ImGuiWindowFlags_NoScrollWithMouse);
  draw_matrices(ui, focus, avail.x - trace_w - gap, avail.y);
  ImGui::EndChild();
  ImGui::SameLine(0.0f, gap);
  ImGui::BeginChild("##step-trace", ImVec2(trace_w, avail.y), true);
  draw_trace(page);
  ImGui::EndChild();
}

void StepView::draw_toolbar(ui::UiContext& ui, const Focus& focus) {
  ClassroomState& state = classroom_state();
  const Problem& p = ui.session.problem();
  ImGui::BeginDisabled(state.step == 0);
  if (ImGui::Button("\xe2\x97\x80 Back")) --state.step;
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(state.step == lesson::kStepCount - 1);
  if (ImGui::Button("Next \xe2\x96\xb6")) ++state.step;
  ImGui::EndDisabled();
  ImGui::SameLine(0.0f, 16.0f * ui.ui_scale);

  // Step pills with names when they fit, numbers otherwise.
  float named_w = 0.0f;
  for (int i = 0; i < lesson::kStepCount; ++i)
    named_w += ImGui::CalcTextSize(lesson::step_name(lesson::step_at(i))).x + ImGui::CalcTextSize("9 ").x +
               ImGui::GetStyle().FramePadding.x * 2.0f + ImGui::GetStyle().ItemSpacing.x * 0.5f;
  const bool named = named_w < ImGui::GetContentRegionAvail().x;
  for (int i = 0; i < lesson::kStepCount; ++i) {
    ImGui::PushID(i);
    const std::string label = std::to_string(i + 1) + (named ? std::string(" ") + lesson::step_name(lesson::step_at(i)) : "");
    if (pill(label.c_str(), i == state.step)) state.step = i;
    if (!named && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", lesson::step_name(lesson::step_at(i)));
    ImGui::PopID();
    if (i + 1 < lesson::kStepCount) ImGui::SameLine(0.0f, ImGui::GetStyle().ItemSpacing.x * 0.5f);
  }

  if (p.n() <= 40) {
    // On the steps' line when it has room (presentation mode saves a line for the heatmaps).
    float chips_w = ImGui::CalcTextSize("Follow").x + ImGui::GetStyle().ItemSpacing.x;
    for (const std::string& token : p.tokens)
      chips_w += ImGui::CalcTextSize(token.c_str()).x + ImGui::GetStyle().FramePadding.x * 2.0f + ImGui::GetStyle().ItemSpacing.x * 0.6f;
    ImGui::SameLine(0.0f, 24.0f * ui.ui_scale);
    if (ImGui::GetContentRegionAvail().x < chips_w) ImGui::NewLine();
    const int clicked = token_chips("##follow", "Follow", p.tokens, focus.query);
    if (clicked >= 0) ui.view.pinned_query = clicked;
  } else {
    int query = focus.query;
    ImGui::SameLine(0.0f, 24.0f * ui.ui_scale);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.0f);
    if (ImGui::SliderInt("follow query", &query, 0, p.n() - 1)) ui.view.pinned_query = query;
  }
  if (p.num_heads > 1) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Head");
    for (int h = 0; h < std::min(p.num_heads, 16); ++h) {
      ImGui::SameLine(0.0f, ImGui::GetStyle().ItemSpacing.x * 0.5f);
      ImGui::PushID(1000 + h);
      if (pill(std::to_string(h).c_str(), h == focus.head)) ui.view.selected_head = h;
      ImGui::PopID();
    }
  }
  if (p.cross_attention) {
    ImGui::TextDisabled("Cross-attention: queries come from the target sentence (%d tokens), keys and values from the "
                        "source sentence (%d tokens).",
                        p.n(), p.m());
  }
  ImGui::Separator();
}

void StepView::draw_header(const ui::UiContext& ui, const lesson::StepPage& page) const {
  heading_text(page.title);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_CheckMark));
  ImGui::TextUnformatted(page.formula.c_str());
  ImGui::PopStyleColor();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", page.note.c_str());
  ImGui::PopTextWrapPos();
  ImGui::Dummy(ImVec2(0.0f, 2.0f * ui.ui_scale));
}

void StepView::draw_matrices(ui::UiContext& ui, const Focus& focus, float width, float height) {
  const std::vector<ShownMatrix>& shown = matrices_.shown;
  if (shown.empty()) return;
  const float s = ui.ui_scale;
  const float font = ImGui::GetFontSize();
  const StepKind kind = lesson::step_at(matrices_.step);
  // Below the matrices: on the Scaling page the scaling lesson (a caption, a table of 2 or 3
  // cases, the controls); on the Softmax page its one-line summary.
  float controls_h = 0.0f;
  if (kind == StepKind::Scaling)
    controls_h = ImGui::GetTextLineHeightWithSpacing() * 5.0f + ImGui::GetFrameHeightWithSpacing() * 1.5f;
  if (kind == StepKind::Softmax) controls_h = ImGui::GetTextLineHeightWithSpacing() * 1.5f;
  const float stats_w = kind == StepKind::Softmax ? row_stats_column_width() : 0.0f;
  const float gap = 28.0f * s;
  const float caption_h = ImGui::GetTextLineHeightWithSpacing();
  const float colorbar_h = std::round(font * 0.6f) + 2.0f + font + ImGui::GetStyle().ItemSpacing.y * 2.0f;

  std::vector<float> label_w;
  float total_label_w = 0.0f;
  int total_cols = 0;
  int max_rows = 1;
  for (const ShownMatrix& m : shown) {
    label_w.push_back(heatmap::HeatmapWidget::row_label_width(m.row_labels, 110.0f * s));
    total_label_w += label_w.back();
    total_cols += m.values->cols;
    max_rows = std::max(max_rows, m.values->rows);
  }
  const float free_w = width - total_label_w - gap * static_cast<float>(shown.size() - 1) - stats_w - 8.0f * s;
  float cell = free_w / static_cast<float>(std::max(total_cols, 1));
  // Column labels turn vertical (and need more height) when cells get narrow: fit twice.
  const auto labels_height = [&](float cell_px) {
    float h = 0.0f;
    for (const ShownMatrix& m : shown)
      if (!m.col_labels.empty()) h = std::max(h, heatmap::HeatmapWidget::col_label_height(m.col_labels, cell_px, 100.0f * s));
    return h;
  };
  float label_h = 0.0f;
  for (int pass = 0; pass < 2; ++pass) {
    label_h = labels_height(cell);
    const float free_h = height - caption_h - label_h - colorbar_h - controls_h - 8.0f * s;
    cell = std::min(cell, free_h / static_cast<float>(max_rows));
  }
  cell = std::floor(std::clamp(cell, 2.0f, 72.0f * s));
  label_h = labels_height(cell);

  const ImVec2 start = ImGui::GetCursorPos();
  float x = start.x;
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const ShownMatrix& m = shown[i];
    const Matrix& display = *matrices_.display[i];
    ImGui::SetCursorPos(ImVec2(x, start.y));
    ImGui::BeginGroup();
    ImGui::SetCursorPosX(x + label_w[i]);
    ImGui::Text("%s   %s", m.name.c_str(), m.shape_text().c_str());
    ImGui::SetCursorPosX(x);
    heatmap::HeatmapSpec spec;
    spec.source.host = &display;
    spec.source.version = matrices_.version;
    spec.values = ui.view.show_numbers ? &display : nullptr;
    spec.numbers = ui.view.show_numbers;
    spec.range_min = matrices_.ranges[i].min;
    spec.range_max = matrices_.ranges[i].max;
    spec.colormap = m.kind == ShownMatrix::Kind::Values ? ui.view.scores_colormap : ui.view.weights_colormap;
    const bool hides = m.kind == ShownMatrix::Kind::Weights || !all_finite(*m.values);
    if (hides) spec.mask = &ui.session.problem().mask;
    spec.row_labels = &m.row_labels;
    spec.col_labels = m.col_labels.empty() ? nullptr : &m.col_labels;
    spec.row_label_width = label_w[i];
    spec.col_label_height = m.col_labels.empty() ? 0.0f : label_h;
    spec.cells_width = cell * static_cast<float>(display.cols);
    spec.cells_height = cell * static_cast<float>(display.rows);
    spec.pinned_row = m.highlight_row;
    spec.highlight_token = ui.view.hovered_token;
    spec.highlight_column = false;
    if (m.col_labels.empty()) ImGui::Dummy(ImVec2(0.0f, label_h));  // align the cells' tops
    const std::string id = "##step-matrix" + std::to_string(i);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const heatmap::HeatmapHover hover = ui.heatmaps.draw(id.c_str(), spec);
    const bool key_columns = m.col_labels == ui.session.problem().source_tokens && m.kind != ShownMatrix::Kind::Mask;
    if (hover.hovered && hover.row >= 0 && hover.col >= 0)
      ImGui::SetTooltip("%s[%d, %d] = %.4g", m.name.c_str(), hover.row, hover.col, static_cast<double>(m.values->at(hover.row, hover.col)));
    if (hover.clicked && hover.row >= 0 && m.highlight_row >= 0) {
      ui.view.pinned_query = hover.row;
      if (key_columns && hover.col >= 0) classroom_state().key = hover.col;
    }
    ImGui::SetCursorPosX(x + label_w[i]);
    ui.heatmaps.colorbar(spec.colormap, spec.range_min, spec.range_max, std::max(spec.cells_width, 80.0f * s), nullptr);
    ImGui::EndGroup();
    float right = x + label_w[i] + std::max(spec.cells_width, 80.0f * s);
    if (m.kind == ShownMatrix::Kind::Weights) {
      draw_row_stats_column(row_stats_, origin.x + label_w[i] + spec.cells_width + 10.0f * s, origin.y + spec.col_label_height,
                            spec.cells_height);
      right += stats_w;
    }
    x = right + gap;
  }
  ImGui::SetCursorPos(ImVec2(start.x, start.y + caption_h + label_h + cell * static_cast<float>(max_rows) + colorbar_h + 8.0f * s));
  if (kind == StepKind::Scaling) draw_scaling_controls(ui, focus.head);
  if (kind == StepKind::Softmax) draw_row_stats_summary(row_stats_);
}

// highlight: whether the selected cell's key gets a highlighted row (the Scores page, where
// the arithmetic check below is about that cell).
void draw_trace_table(const lesson::TraceTable& table, bool highlight_key) {
  const int columns = static_cast<int>(table.header.size());
  if (table.empty() || columns == 0) return;
  const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_BordersOuter | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("##trace-table", columns, flags)) return;
  for (const std::string& title : table.header) ImGui::TableSetupColumn(title.c_str());
  ImGui::TableHeadersRow();
  const ImU32 highlight = ImGui::GetColorU32(ImGuiCol_ButtonHovered);
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    ImGui::TableNextRow();
    if (highlight_key && static_cast<int>(r) == table.highlight_row) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, highlight);
    for (const std::string& cell : table.rows[r]) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(cell.c_str());
    }
  }
  ImGui::EndTable();
  if (!table.more.empty()) ImGui::TextDisabled("%s", table.more.c_str());
}

// `line` wrapped at spaces only, continuation lines indented. ImGui's own wrapping also
// breaks after a '.', which splits numbers ("-0." / "591") on a narrow column.
void text_wrapped_at_spaces(const std::string& line) {
  const float width = ImGui::GetContentRegionAvail().x;
  const float indent = ImGui::GetFontSize();
  std::string current;
  std::size_t start = 0;
  bool first = true;
  while (start <= line.size()) {
    std::size_t end = line.find(' ', start);
    if (end == std::string::npos) end = line.size();
    const std::string word = line.substr(start, end - start);
    const std::string candidate = current.empty() ? word : current + " " + word;
    const float limit = first ? width : width - indent;
    if (!current.empty() && ImGui::CalcTextSize(candidate.c_str()).x > limit) {
      if (!first) ImGui::Indent(indent);
      ImGui::TextUnformatted(current.c_str());
      if (!first) ImGui::Unindent(indent);
      first = false;
      current = word;
    } else {
      current = candidate;
    }
    start = end + 1;
  }
  if (!first) ImGui::Indent(indent);
  ImGui::TextUnformatted(current.c_str());
  if (!first) ImGui::Unindent(indent);
}

void draw_lines(const std::vector<std::string>& lines) {
  for (const std::string& line : lines) {
    if (line.rfind("Check", 0) == 0) {  // the arithmetic check gets its own block
      ImGui::Spacing();
      ImGui::Separator();
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      text_wrapped_at_spaces(line);
      ImGui::PopStyleColor();
      continue;
    }
    text_wrapped_at_spaces(line);
  }
}

void StepView::draw_trace(const lesson::StepPage& page) const {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_CheckMark));
  ImGui::TextUnformatted(page.trace_heading.c_str());
  ImGui::PopStyleColor();
  ImGui::Separator();
  draw_lines(page.trace);
  draw_trace_table(page.table, page.kind == StepKind::Scores);  // columns fit their numbers: no wrapping
  draw_lines(page.trace_after);
  if (page.kind == StepKind::Scores) ImGui::TextDisabled("(click a cell of S to check another one)");
}

}  // namespace

std::unique_ptr<ui::Panel> make_step_view() { return std::make_unique<StepView>(); }

}  // namespace attnviz::classroom
