// Step by step: the pipeline of docs/design.md one page at a time (core/lesson/steps.h), the
// followed query token (the heatmaps' pinned query) traced through every page, the selected
// cell's dot product written out, and the scaling lesson on the Scaling and Softmax pages
// (its table and controls in the text column, the per-row statistics beside the weights).
// The Positions page adds a picture of one frequency pair turning with position (or ALiBi's
// slopes) and a slider that shifts every position; the Mistakes page switches between the
// classic mistakes (core/lesson/mistakes.h) and links the scaling lesson. Weights dropout
// dropped are hatched.
//
// The page scrolls below the toolbar: its heatmaps keep cells large enough for their numbers
// (page_layout.h) and the text column narrows or moves below them, rather than the heatmaps
// shrinking to fit a projector's 1280 × 720 at presentation text sizes.

#include "app/classroom/step_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "app/classroom/classroom_actions.h"
#include "app/classroom/draw_helpers.h"
#include "app/classroom/page_layout.h"
#include "app/classroom/position_picture.h"
#include "app/document/document.h"
#include "app/edits/position_edits.h"
#include "app/classroom/scaling_lesson.h"
#include "app/classroom/step_trace.h"
#include "app/compute/compute_session.h"
#include "app/compute/model_session.h"
#include "app/heatmap/axis_math.h"
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
#include "core/lesson/steps.h"

namespace attnviz::classroom {
namespace {

using lesson::ShownMatrix;
using lesson::StepKind;

// The matrices of one page, kept while (generation, step, head) stay the same, so that the
// heatmaps upload them once. The followed query and the selected cell are not part of it:
// they are drawn from the current focus every frame.
struct PageMatrices {
  std::uint64_t generation = 0;
  int step = -1;
  int head = -1;
  int mistake = -1;
  ui::WeightsRange weights_range = ui::WeightsRange::ZeroToOne;
  i18n::Language language = i18n::Language::Desktop;  // the matrices' names are worded
  std::vector<ShownMatrix> shown;
  std::vector<std::shared_ptr<const Matrix>> display;  // what the GPU draws (finite values)
  std::vector<std::shared_ptr<const Matrix>> kept;     // dropout's kept set as 1.0 / 0.0 (null: none)
  std::vector<heatmap::ValueRange> ranges;
  std::vector<std::string> widest_number;  // the longest number in its cells ("-0.12"); "" without numbers
  std::uint64_t version = 0;
};

struct Focus {
  int head = 0;
  int query = 0;
  int key = 0;
  lesson::Mistake mistake = lesson::Mistake::SoftmaxOverColumns;
};

class StepView final : public ui::Panel {
 public:
  explicit StepView(ViewStates& views) : views_(views) {}
  [[nodiscard]] const char* title() const override { return ui::tab_title(ui::MainView::Step); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Main; }
  void draw(ui::UiContext& ui) override;

 private:
  void refresh(const ui::UiContext& ui, const Focus& focus, int step);
  void draw_toolbar(ui::UiContext& ui, const Focus& focus);
  void draw_header(const ui::UiContext& ui, const lesson::StepPage& page) const;
  [[nodiscard]] float header_height(const lesson::StepPage& page, float width) const;
  void draw_text_column(ui::UiContext& ui, const Focus& focus, const lesson::StepPage& page) const;
  void draw_position_controls(ui::UiContext& ui, const Focus& focus, const lesson::StepPage& page) const;
  void draw_mistake_choice(const lesson::StepPage& page) const;
  [[nodiscard]] PageLayout arrange(const ui::UiContext& ui, float width, float height) const;
  void draw_matrices(ui::UiContext& ui, const Focus& focus, const PageLayout& layout, ImVec2 origin);
  void draw_matrix(ui::UiContext& ui, const Focus& focus, std::size_t i, const MatrixPlace& place, ImVec2 at);

  // The page's text for one (step, focus, rows): rebuilt only when one of them changes (a
  // long sentence's trace is not free, and the window redraws on every mouse move).
  const lesson::StepPage& text_page(int step, const lesson::PageFocus& focus);

  ViewStates& views_;  // the page, the selected key, the mistake shown (the desktop's)
  // The scenario's attention, or a pretrained model's chosen layer (its real Q, K, V).
  ui::ShownAttention shown_;
  std::uint64_t generation_ = 0;
  std::unique_ptr<lesson::StepModel> model_;
  PageMatrices matrices_;
  struct {
    std::uint64_t generation = 0;
    int step = -1, head = -1, query = -1, key = -1, rows = -1, terms = -1, mistake = -1;
    i18n::Language language = i18n::Language::Desktop;  // View ▸ Language rewords the page
    lesson::StepPage page;
  } text_;
  std::vector<lesson::RowStats> row_stats_;
  // What is drawn under the heatmaps (the scaling lesson, the softmax summary) measured in
  // the last frame: its height depends on the width the layout gives it.
  float below_h_ = 0.0f;
  int below_step_ = -1;
  // The text column's height in the last frame, for the page it was drawn on.
  float text_content_h_ = 0.0f;
  int text_step_ = -1;
  int last_step_ = 0;  // the step shown in the last frame (which way the keys moved)
};

// A model's layer starts at its queries, keys and values (the forward pass made them: norms,
// biases, RoPE), so the pages before Scores and the Output page (W_O and the residual stream
// are the model's, after the attention) are the scenario's only.
bool model_page(int step) {
  const StepKind kind = lesson::step_at(step);
  return kind != StepKind::Embeddings && kind != StepKind::Projections && kind != StepKind::Positions &&
         kind != StepKind::Output;
}

// The step moved onto a page a model's layer does not have: on to the next one it has in the
// direction it moved (Back from Scores stays on Scores).
int model_step(int step, int previous) {
  if (model_page(step)) return step;
  const int direction = step < previous ? -1 : 1;
  for (int s = step; s >= 0 && s < lesson::kStepCount; s += direction)
    if (model_page(s)) return s;
  for (int s = step; s >= 0 && s < lesson::kStepCount; s -= direction)
    if (model_page(s)) return s;
  return step;
}

// The names of the pages and of the classic mistakes, translated where shown: core/lesson writes
// them in English (it knows nothing of gettext), so they are marked for extraction here, word
// for word as steps.cpp and mistakes.cpp write them (a name missing here stays English).
[[maybe_unused]] constexpr const char* kLessonNames[] = {N_("Embeddings"),
                                                         N_("Q, K, V"),
                                                         N_("Positions"),
                                                         N_("Scores"),
                                                         N_("Scaling"),
                                                         N_("Mask"),
                                                         N_("Softmax"),
                                                         N_("Weighted sum"),
                                                         N_("Concatenate"),
                                                         N_("Output"),
                                                         N_("Mistakes"),
                                                         N_("softmax over the wrong axis"),
                                                         N_("no scaling"),
                                                         N_("masking after the softmax"),
                                                         N_("renormalising after masking")};

const char* step_title(StepKind kind) { return i18n::tr(lesson::step_name(kind)); }

Focus current_focus(const ui::UiContext& ui, const ViewStates& views, const Problem& p) {
  Focus f;
  f.head = std::clamp(ui.view.selected_head, 0, p.num_heads - 1);
  f.query = followed_query(ui.view.pinned_query, ui::MainView::Step, p.n()).value_or(0);
  // Until a cell is clicked, the arithmetic check is about the query and itself (its largest
  // score in most sentences), or key 0 in cross-attention.
  // On the Positions page the default key is the word before (RoPE's picture then shows two
  // arrows one position apart); elsewhere the query itself.
  const bool positions = lesson::step_at(views.step) == StepKind::Positions;
  const bool two_sentences = p.cross_attention && p.source_tokens != p.tokens;  // a model's layer: one text
  const int fallback = two_sentences ? 0 : positions ? std::max(f.query - 1, 0) : f.query;
  f.key = std::clamp(views.key.value_or(fallback), 0, p.m() - 1);
  f.mistake = lesson::mistake_at(views.mistake);
  return f;
}

// The longest of the numbers a heatmap shows (its extremes are the widest: the most digits
// and the minus sign), in the two decimals the cells show.
std::string widest_number(const Matrix& values, float scale) {
  float low = 0.0f;
  float high = 0.0f;
  for (float v : values.data)
    if (std::isfinite(v)) {
      low = std::min(low, v * scale);
      high = std::max(high, v * scale);
    }
  const std::string a = heatmap::fixed_number(low, 2);  // as the cells write it (draw_numbers)
  const std::string b = heatmap::fixed_number(high, 2);
  return a.size() > b.size() ? a : b;
}

void StepView::refresh(const ui::UiContext& ui, const Focus& focus, int step) {
  if (!model_ || generation_ != shown_.version()) {
    model_ = std::make_unique<lesson::StepModel>(shown_.problem(), shown_.result());
    generation_ = shown_.version();
    matrices_ = PageMatrices{};
  }
  if (matrices_.generation == generation_ && matrices_.step == step && matrices_.head == focus.head &&
      matrices_.weights_range == ui.view.weights_range && matrices_.mistake == static_cast<int>(focus.mistake) &&
      matrices_.language == i18n::shown_language())
    return;
  PageMatrices m;
  m.generation = generation_;
  m.step = step;
  m.head = focus.head;
  m.mistake = static_cast<int>(focus.mistake);
  m.weights_range = ui.view.weights_range;
  m.version = fresh_upload_version();
  lesson::PageFocus page_focus{.head = focus.head, .query = focus.query, .key = focus.key};
  page_focus.mistake = focus.mistake;
  m.shown = model_->page(lesson::step_at(step), page_focus, i18n::wording()).matrices;
  m.language = i18n::shown_language();
  const Result& result = model_->result();
  const int tokens = std::max(result.mask.rows, result.mask.cols);
  for (const ShownMatrix& shown : m.shown) {
    const Matrix& values = *shown.values;
    m.display.push_back(all_finite(values) ? shown.values : std::make_shared<const Matrix>(finite_copy(values)));
    std::shared_ptr<const Matrix> kept;
    if (shown.dropped && shown.dropped->rows == values.rows && shown.dropped->cols == values.cols) {
      auto floats = std::make_shared<Matrix>(values.rows, values.cols);
      for (std::size_t k = 0; k < floats->size(); ++k) floats->data[k] = shown.dropped->visible[k] != 0 ? 1.0f : 0.0f;
      kept = std::move(floats);
    }
    m.kept.push_back(std::move(kept));
    const bool numbered = values.rows <= kNumberedCells && values.cols <= kNumberedCells;
    switch (shown.kind) {
      case ShownMatrix::Kind::Mask: m.ranges.push_back({0.0f, 1.0f}); break;
      case ShownMatrix::Kind::Weights: {
        const ui::WeightsRange range = ui::resolve(m.weights_range, tokens);
        m.ranges.push_back(range == ui::WeightsRange::Auto ? heatmap::zero_to_max(values)
                                                           : heatmap::ValueRange{0.0f, 1.0f});
        break;
      }
      case ShownMatrix::Kind::Values: {
        const bool masked = !all_finite(values);  // −∞ where hidden: the range of what is visible
        m.ranges.push_back(heatmap::symmetric_range(*m.display.back(), 1.0f, masked ? &result.mask : nullptr));
        break;
      }
    }
    m.widest_number.push_back(numbered && shown.kind != ShownMatrix::Kind::Mask ? widest_number(values, 1.0f) : "");
  }
  matrices_ = std::move(m);
  // The softmax's rows (before dropout, with dropout: after it they no longer sum to 1).
  const HeadResult& head = result.heads[static_cast<std::size_t>(focus.head)];
  row_stats_ = lesson::row_statistics(head.weights_before_dropout.empty() ? head.weights : head.weights_before_dropout,
                                      result.mask);
}

const lesson::StepPage& StepView::text_page(int step, const lesson::PageFocus& focus) {
  if (text_.generation != generation_ || text_.step != step || text_.head != focus.head || text_.query != focus.query ||
      text_.key != focus.key || text_.rows != focus.max_trace_keys || text_.terms != focus.vector_terms_per_line ||
      text_.mistake != static_cast<int>(focus.mistake) || text_.language != i18n::shown_language()) {
    text_.page = model_->page(lesson::step_at(step), focus, i18n::wording());
    text_.language = i18n::shown_language();
    text_.generation = generation_;
    text_.step = step;
    text_.head = focus.head;
    text_.query = focus.query;
    text_.key = focus.key;
    text_.rows = focus.max_trace_keys;
    text_.terms = focus.vector_terms_per_line;
    text_.mistake = static_cast<int>(focus.mistake);
  }
  return text_.page;
}

void StepView::draw(ui::UiContext& ui) {
  ui::ClassroomState& state = ui.classroom;
  state.shown = ui::MainView::Step;
  state.shown_frame = ImGui::GetFrameCount();
  if (!shown_.update(ui)) {
    nothing_to_show(ui, i18n::tr("Nothing to show yet."));
    return;
  }
  views_.step = std::clamp(views_.step, 0, lesson::kStepCount - 1);
  if (shown_.model()) views_.step = model_step(views_.step, last_step_);
  last_step_ = views_.step;
  state.shown_step = views_.step;
  const Focus focus = current_focus(ui, views_, shown_.problem());
  refresh(ui, focus, views_.step);
  draw_toolbar(ui, focus);

  // Everything below the toolbar scrolls when the heatmaps at readable sizes need more room.
  ImGui::BeginChild("##step-page", ImGui::GetContentRegionAvail(), false);
  lesson::PageFocus text_focus{.head = focus.head, .query = focus.query, .key = focus.key};
  text_focus.include_matrices = false;
  text_focus.mistake = focus.mistake;
  text_focus.max_trace_keys = std::max(text_.rows, 8);
  text_focus.vector_terms_per_line = std::max(text_.terms, 0);
  const lesson::StepPage& header = text_page(views_.step, text_focus);  // title and formula: the same for any rows

  // The title and formula go across the top; when that leaves the heatmaps too little height
  // (a projector's 720 lines at presentation text sizes) they head the text column instead,
  // and the heatmaps start right under the toolbar.
  const ImVec2 top = ImGui::GetCursorPos();
  const float page_w = ImGui::GetContentRegionAvail().x;
  const float page_h = ImGui::GetWindowHeight() - top.y - ImGui::GetStyle().WindowPadding.y;
  PageLayout layout = arrange(ui, page_w, page_h - header_height(header, page_w));
  bool header_beside = false;
  if (layout.scrolls && !layout.text_below) {
    PageLayout tall = arrange(ui, page_w, page_h);
    if (!tall.text_below) {
      layout = std::move(tall);
      header_beside = true;
    }
  }
  if (!header_beside) draw_header(ui, header);
  const ImVec2 origin = ImGui::GetCursorPos();
  const float visible_h = page_h - (origin.y - top.y);
  draw_matrices(ui, focus, layout, origin);

  const float gap = 12.0f * ui.ui_scale;
  const Problem& p = shown_.problem();
  if (!layout.text_below) {
    const float text_h = std::max(layout.matrices_h, visible_h);
    const TraceFit fit = fit_trace(layout.text_w, text_h, p.d_v);
    text_focus.max_trace_keys = fit.rows;
    text_focus.vector_terms_per_line = fit.vector_terms;
    const lesson::StepPage& page = text_page(views_.step, text_focus);
    ImGui::SetCursorPos(ImVec2(origin.x + page_w - layout.text_w, origin.y));
    // As tall as its text (measured in the last frame): the page is the one thing that scrolls,
    // never a box inside it (two nested scrollbars cut the text off on a projector).
    const float column_h = text_step_ == views_.step ? std::max(text_h, text_content_h_) : text_h;
    const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
    ImGui::BeginChild("##step-trace", ImVec2(layout.text_w, column_h), true, fixed);
    if (header_beside) draw_header(ui, page);
    draw_text_column(ui, focus, page);
    text_content_h_ = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
    text_step_ = views_.step;
    ImGui::EndChild();
  } else {  // below the heatmaps, the page's full width: every key (the page scrolls anyway)
    const TraceFit fit = fit_trace(page_w, 1e6f, p.d_v);
    text_focus.max_trace_keys = fit.rows;
    text_focus.vector_terms_per_line = fit.vector_terms;
    const lesson::StepPage& page = text_page(views_.step, text_focus);
    ImGui::SetCursorPos(ImVec2(origin.x, origin.y + layout.matrices_h + gap));
    ImGui::Separator();
    draw_text_column(ui, focus, page);
  }
  ImGui::EndChild();
}

// A combo of `names` after `caption`; returns the chosen index or -1.
int choice_combo(const char* id, const char* caption, const std::vector<std::string>& names, int current, float width) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(caption);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(width);
  int chosen = -1;
  const std::string shown = current >= 0 && current < static_cast<int>(names.size())
                                ? ui::token_label(names[static_cast<std::size_t>(current)])
                                : "";
  if (ImGui::BeginCombo(id, shown.c_str())) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      ImGui::PushID(static_cast<int>(i));
      const std::string item = std::to_string(i) + "  " + ui::token_label(names[i]);
      if (ImGui::Selectable(item.c_str(), static_cast<int>(i) == current)) chosen = static_cast<int>(i);
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  return chosen;
}

// The page's note, then on the Scaling page the scaling lesson (all rows with and without
// 1/√d_k: that page's point), then the followed query's numbers.
void StepView::draw_text_column(ui::UiContext& ui, const Focus& focus, const lesson::StepPage& page) const {
  if (page.kind == StepKind::Mistakes) draw_mistake_choice(page);
  draw_step_note(page);
  if (page.kind == StepKind::Scaling) {
    draw_scaling_controls(ui, shown_.problem(), shown_.result(), focus.head, ImGui::GetContentRegionAvail().x,
                          !shown_.model());
    ImGui::Spacing();
    ImGui::Separator();
  }
  if (page.kind == StepKind::Positions) draw_position_controls(ui, focus, page);
  draw_step_trace(page);
}

// The classic mistakes as pills (the page shows the chosen one beside the right way), and on
// "no scaling" the way to the Scaling page, whose lesson is about exactly that.
void StepView::draw_mistake_choice(const lesson::StepPage& page) const {
  const float right = ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x;
  for (int i = 0; i < lesson::kMistakeCount; ++i) {
    const char* name = i18n::tr(lesson::mistake_name(lesson::mistake_at(i)));
    if (i > 0) same_line_if_fits(button_width(name), right);
    ImGui::PushID(2000 + i);
    // "###mistake": the pill keeps its ID (under PushID) in every language.
    if (pill((std::string(name) + "###mistake").c_str(), lesson::mistake_at(i) == page.mistake)) views_.mistake = i;
    ImGui::PopID();
  }
  if (page.links_to_scaling) {
    if (ImGui::Button(i18n::tr_label("Open the Scaling page \xe2\x96\xb6").c_str()))
      views_.step = lesson::step_index(StepKind::Scaling);
  }
  ImGui::Spacing();
}

// The Positions page: the picture of a pair turning (or ALiBi's lines), and a slider that
// moves every position at once (an undoable edit): with RoPE or ALiBi no score changes.
void StepView::draw_position_controls(ui::UiContext& ui, const Focus& focus, const lesson::StepPage& page) const {
  const Problem& p = shown_.problem();
  const float width = ImGui::GetContentRegionAvail().x;
  if (page.turning) {
    draw_turning_pair(*page.turning, std::min(width, 18.0f * ImGui::GetFontSize()));
    ImGui::Spacing();
  }
  if (!page.slopes.empty()) {
    draw_alibi_lines(page.slopes, focus.head, std::max(p.n(), p.m()) - 1, std::min(width, 16.0f * ImGui::GetFontSize()),
                     6.0f * ImGui::GetFontSize());
    ImGui::Spacing();
  }
  if (p.positional == PositionalKind::None) return;
  const Scenario& s = ui.document.scenario();
  int offset = s.position_offset;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("first position"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1.0f);
  if (ImGui::SliderInt("##position_offset", &offset, 0, 64)) {
    ui.document.apply(edits::set_position_offset(s, offset), i18n::format(i18n::tr("First position %d"), offset),
                      "position_offset");
  }
  if (ImGui::IsItemDeactivated()) ui.document.end_merge();
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", i18n::tr("Every word moves by the same number of positions. With RoPE and ALiBi the scores "
                                     "do not change (they depend only on distances); sinusoidal positions change X, "
                                     "so they do."));
  }
  ImGui::Spacing();
  ImGui::Separator();
}

// The toolbar flows onto as few lines as it can (each line taken here is a line less for the
// heatmaps on a projector): the buttons lose their words first, then the token chips and head
// pills that would need a line of their own become drop-down lists (Up / Down and H still
// step through them).
void StepView::draw_toolbar(ui::UiContext& ui, const Focus& focus) {
  const Problem& p = shown_.problem();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float right = ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x;
  const float full_w = ImGui::GetContentRegionAvail().x;
  const float pill_gap = style.ItemSpacing.x * 0.5f;
  float numbered_w = 0.0f;
  float named_w = 0.0f;
  for (int i = 0; i < lesson::kStepCount; ++i) {
    const float pill_w = button_width(i >= 9 ? "10" : "9") + pill_gap;
    numbered_w += pill_w;
    named_w += pill_w + ImGui::CalcTextSize((std::string(" ") + step_title(lesson::step_at(i))).c_str()).x;
  }
  const char* follow = i18n::tr("Follow");
  float chips_w = ImGui::CalcTextSize(follow).x + style.ItemSpacing.x;
  for (const std::string& token : p.tokens)
    chips_w += button_width(ui::token_label(token).c_str()) + style.ItemSpacing.x * 0.6f;
  // Translated, with the English as their ID (the tests' path to them in every language).
  const std::string back = i18n::tr_label("\xe2\x97\x80 Back");
  const std::string next = i18n::tr_label("Next \xe2\x96\xb6");
  const float worded_w = button_width(back.c_str()) + button_width(next.c_str()) + style.ItemSpacing.x;
  const bool compact = worded_w + numbered_w + chips_w > full_w;
  const float group_gap = (compact ? 12.0f : 20.0f) * ui.ui_scale;

  const int first_step = shown_.model() ? lesson::step_index(StepKind::Scores) : 0;
  ImGui::BeginDisabled(views_.step == first_step);
  if (ImGui::Button(compact ? "\xe2\x97\x80##back" : back.c_str())) --views_.step;  // not translated: an arrow
  if (compact && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr("Back (Left, Page Up)"));
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(views_.step == lesson::kStepCount - 1);
  if (ImGui::Button(compact ? "\xe2\x96\xb6##next" : next.c_str())) ++views_.step;  // not translated: an arrow
  if (compact && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr("Next (Right, Page Down)"));
  ImGui::EndDisabled();
  ImGui::SameLine(0.0f, group_gap);

  // Step pills with names when they fit, numbers otherwise.
  const bool named = named_w < ImGui::GetContentRegionAvail().x;
  bool first_pill = true;
  for (int i = 0; i < lesson::kStepCount; ++i) {
    if (shown_.model() && !model_page(i)) continue;
    if (!first_pill) ImGui::SameLine(0.0f, pill_gap);
    first_pill = false;
    ImGui::PushID(i);
    const std::string label = std::to_string(i + 1) + (named ? std::string(" ") + step_title(lesson::step_at(i)) : "");
    if (pill((label + "###step").c_str(), i == views_.step)) views_.step = i;  // one ID in every language
    if (!named && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", step_title(lesson::step_at(i)));
    ImGui::PopID();
  }

  // Follow: chips when they fit on one line (the rest of this one, or a line of their own).
  const float combo_w = ImGui::GetFontSize() * 9.0f;
  ImGui::SameLine(0.0f, group_gap);
  const bool chips_here = ImGui::GetCursorPosX() + chips_w <= right;
  if (chips_here || chips_w <= full_w) {
    if (!chips_here) ImGui::NewLine();
    const int clicked = token_chips("##follow", follow, p.tokens, focus.query);
    if (clicked >= 0) ui.view.pinned_query = clicked;
  } else {
    if (ImGui::GetCursorPosX() + combo_w + ImGui::CalcTextSize(follow).x + ImGui::GetStyle().ItemSpacing.x > right)
      ImGui::NewLine();
    const int chosen = choice_combo("##follow-combo", follow, p.tokens, focus.query, combo_w);
    if (chosen >= 0) ui.view.pinned_query = chosen;
  }
  if (p.num_heads > 1) {
    const char* head = i18n::tr("Head");
    float pills_w = ImGui::CalcTextSize(head).x;
    for (int h = 0; h < p.num_heads; ++h) pills_w += button_width(std::to_string(h).c_str()) + pill_gap;
    ImGui::SameLine(0.0f, group_gap);
    const bool pills_here = ImGui::GetCursorPosX() + pills_w <= right;
    if (pills_here || (pills_w <= full_w && p.num_heads <= 16)) {
      if (!pills_here) ImGui::NewLine();
      ImGui::AlignTextToFramePadding();
      ImGui::TextUnformatted(head);
      for (int h = 0; h < p.num_heads; ++h) {
        ImGui::SameLine(0.0f, pill_gap);
        ImGui::PushID(1000 + h);
        if (pill(std::to_string(h).c_str(), h == focus.head)) ui.view.selected_head = h;
        ImGui::PopID();
      }
    } else {
      std::vector<std::string> heads;
      for (int h = 0; h < p.num_heads; ++h) heads.push_back(i18n::format(i18n::tr("head %d"), h));
      if (ImGui::GetCursorPosX() + combo_w + ImGui::CalcTextSize(head).x + ImGui::GetStyle().ItemSpacing.x > right)
        ImGui::NewLine();
      const int chosen = choice_combo("##head-combo", head, heads, focus.head, combo_w);
      if (chosen >= 0) ui.view.selected_head = chosen;
    }
  }
  if (shown_.model()) {
    // The model's layer (the Heatmaps view's selector: one layer in every view), on the next line
    // (the head pills' line has ended: a NewLine here would leave an empty one).
    ui::draw_layer_selector(ui, "step");
    ImGui::SameLine(0.0f, group_gap);
    ImGui::PushTextWrapPos(0.0f);
    ui::text_wrapped_disabled(
        "%s", i18n::tr("the layer's own queries, keys and values, as the model computed them (norms, biases, RoPE)"));
    ImGui::PopTextWrapPos();
  } else if (p.cross_attention) {
    ImGui::PushTextWrapPos(0.0f);
    // Two counts in one sentence: each its own plural phrase, put into the sentence's format.
    const std::string target =
        i18n::format(i18n::trn("%d token", "%d tokens", static_cast<unsigned long>(p.n())), p.n());
    const std::string source =
        i18n::format(i18n::trn("%d token", "%d tokens", static_cast<unsigned long>(p.m())), p.m());
    ui::text_wrapped_disabled(
        "%s", i18n::format(i18n::tr("Cross-attention: queries come from the target sentence (%s), keys and values "
                                    "from the source sentence (%s)."),
                           target.c_str(), source.c_str())
                  .c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::Separator();
}

// The formula's lines ('\n' in it), each wrapped at spaces: "Σₖ exp(s'[i," never splits.
std::vector<std::string> formula_lines(const std::string& formula) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= formula.size()) {
    const std::size_t end = std::min(formula.find('\n', start), formula.size());
    lines.push_back(formula.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

float StepView::header_height(const lesson::StepPage& page, float width) const {
  std::size_t lines = 0;
  for (const std::string& line : formula_lines(page.formula)) lines += wrap_at_spaces(line, width).size();
  return heading_height(page.title, width) + static_cast<float>(lines) * ImGui::GetTextLineHeightWithSpacing() +
         ImGui::GetStyle().ItemSpacing.y + 2.0f * ImGui::GetFontSize() / 17.0f;
}

void StepView::draw_header(const ui::UiContext& ui, const lesson::StepPage& page) const {
  heading_text(page.title);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_CheckMark));
  for (const std::string& line : formula_lines(page.formula)) text_wrapped_at_spaces(line);
  ImGui::PopStyleColor();
  ImGui::Dummy(ImVec2(0.0f, 2.0f * ui.ui_scale));
}

PageLayout StepView::arrange(const ui::UiContext& ui, float width, float height) const {
  const float s = ui.ui_scale;
  const float font = ImGui::GetFontSize();
  const StepKind kind = lesson::step_at(matrices_.step);
  // The smallest cell that still shows a number: its text in the cells' (small) font.
  ImFont* small = cell_font();
  const float small_size = small->FontSize * ImGui::GetIO().FontGlobalScale;
  std::vector<MatrixBox> boxes;
  for (std::size_t i = 0; i < matrices_.shown.size(); ++i) {
    const ShownMatrix& m = matrices_.shown[i];
    MatrixBox box;
    box.rows = m.values->rows;
    box.cols = m.values->cols;
    const std::string& number = matrices_.widest_number[i];
    const float number_cell =
        number.empty()
            ? 0.0f
            : std::max(small->CalcTextSizeA(small_size, 1e9f, 0.0f, number.c_str()).x + 8.0f, small_size + 6.0f);
    box.min_cell = readable_cell(box.rows, box.cols, ui.view.show_numbers && !number.empty(), number_cell, font);
    box.row_label_w = heatmap::HeatmapWidget::row_label_width(m.row_labels, 110.0f * s);
    box.caption_w = ImGui::CalcTextSize((m.name + "   " + m.shape_text()).c_str()).x;
    box.side_w = m.kind == ShownMatrix::Kind::Weights && !m.dropped && kind == StepKind::Softmax
                     ? row_stats_column_width() + 10.0f * s
                     : 0.0f;
    box.min_w = m.kind == ShownMatrix::Kind::Mask ? 0.0f : 80.0f * s;  // the colorbar's ticks
    box.top_h = m.column_groups.empty() ? 0.0f : ImGui::GetTextLineHeight();
    if (!m.col_labels.empty()) {
      const std::vector<std::string>* labels = &m.col_labels;
      box.col_label_h = [labels, s](float cell_w) {
        return heatmap::HeatmapWidget::col_label_height(*labels, cell_w, 100.0f * s);
      };
    }
    boxes.push_back(std::move(box));
  }
  PageSpace space;
  space.width = width;
  space.height = height;
  space.caption_h = ImGui::GetTextLineHeightWithSpacing();
  space.colorbar_h = std::round(font * 0.6f) + 2.0f + font + ImGui::GetStyle().ItemSpacing.y * 2.0f;
  // The scaling lesson or the softmax summary, as tall as it was in the last frame.
  const bool has_below = kind == StepKind::Softmax;
  space.below_h = !has_below                      ? 0.0f
                  : below_step_ == matrices_.step ? below_h_
                                                  : ImGui::GetTextLineHeightWithSpacing() * 2.0f;
  space.gap = 24.0f * s;
  space.max_cell = 72.0f * s;
  // The text column: the followed query's table of four columns needs about 20 em.
  space.text_pref_w = std::floor(std::clamp(width * 0.36f, std::min(320.0f * s, width * 0.5f), 720.0f * s));
  space.text_min_w = std::min(space.text_pref_w, font * 17.0f);
  return layout_page(boxes, space);
}

void StepView::draw_matrices(ui::UiContext& ui, const Focus& focus, const PageLayout& layout, ImVec2 origin) {
  if (matrices_.shown.empty()) return;
  for (std::size_t i = 0; i < matrices_.shown.size() && i < layout.places.size(); ++i) {
    const MatrixPlace& place = layout.places[i];
    draw_matrix(ui, focus, i, place, ImVec2(origin.x + place.x, origin.y + place.y));
  }
  const StepKind kind = lesson::step_at(matrices_.step);
  if (kind != StepKind::Softmax) {
    ImGui::SetCursorPos(ImVec2(origin.x, origin.y + layout.matrices_h));
    return;
  }
  float top = origin.y;  // under the lowest heatmap
  for (const MatrixPlace& place : layout.places) top = std::max(top, origin.y + place.y + place.h);
  ImGui::SetCursorPos(ImVec2(origin.x, top + 4.0f * ui.ui_scale));
  const float start = ImGui::GetCursorPosY();
  ImGui::BeginGroup();
  // Wrapped where the text column starts (a window of its own beside the heatmaps).
  const float width = std::max(layout.area_w, ImGui::GetFontSize() * 16.0f);
  ImGui::PushTextWrapPos(origin.x + width);
  draw_row_stats_summary(row_stats_, shown_.problem().num_heads > 1 ? focus.head : -1, width);
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  below_h_ = ImGui::GetCursorPosY() - start + 4.0f * ui.ui_scale;
  below_step_ = matrices_.step;
}

void StepView::draw_matrix(ui::UiContext& ui, const Focus& focus, std::size_t i, const MatrixPlace& place, ImVec2 at) {
  const ShownMatrix& m = matrices_.shown[i];
  const Matrix& display = *matrices_.display[i];
  const float s = ui.ui_scale;
  const float row_label_w = heatmap::HeatmapWidget::row_label_width(m.row_labels, 110.0f * s);
  ImGui::SetCursorPos(at);
  ImGui::BeginGroup();
  // The caption over the cells, moved left where it is wider than they are (never past its slot).
  const std::string caption = m.name + "   " + m.shape_text();
  ImGui::SetCursorPosX(at.x + std::min(row_label_w, std::max(place.w - ImGui::CalcTextSize(caption.c_str()).x, 0.0f)));
  ImGui::TextUnformatted(caption.c_str());
  const float cells_x = ImGui::GetWindowPos().x - ImGui::GetScrollX() + at.x + row_label_w;
  if (!m.column_groups.empty()) {  // which head's columns these are, above their labels
    const ImVec2 top = ImGui::GetCursorScreenPos();
    for (const ShownMatrix::ColumnGroup& group : m.column_groups) {
      const float x0 = cells_x + place.cell_w * static_cast<float>(group.first);
      const float w = place.cell_w * static_cast<float>(group.count);
      const float text_w = ImGui::CalcTextSize(group.label.c_str()).x;
      if (text_w < w)
        ImGui::GetWindowDrawList()->AddText(ImVec2(std::round(x0 + (w - text_w) * 0.5f), top.y),
                                            ImGui::GetColorU32(ImGuiCol_Text), group.label.c_str());
    }
    ImGui::Dummy(ImVec2(0.0f, ImGui::GetTextLineHeight()));
  }
  ImGui::SetCursorPosX(at.x);
  heatmap::HeatmapSpec spec;
  spec.source.host = &display;
  spec.source.version = matrices_.version;
  // The mask's cells say visible or hidden by colour and hatching; a 0 or 1 adds nothing.
  const bool numbers = ui.view.show_numbers && m.kind != ShownMatrix::Kind::Mask;
  spec.values = numbers ? &display : nullptr;
  spec.numbers = numbers;
  spec.range_min = matrices_.ranges[i].min;
  spec.range_max = matrices_.ranges[i].max;
  spec.colormap = m.kind == ShownMatrix::Kind::Values ? ui.view.scores_colormap : ui.view.weights_colormap;
  if (matrices_.kept[i]) spec.kept = {.device = {}, .host = matrices_.kept[i].get(), .version = matrices_.version};
  const bool hides = m.kind != ShownMatrix::Kind::Values || !all_finite(*m.values) || m.mask.has_value();
  if (hides && m.key_cols) spec.mask = m.mask ? &*m.mask : &shown_.problem().mask;
  spec.mask_head = std::clamp(ui.view.selected_head, 0, shown_.problem().num_heads - 1);
  spec.mask_heads = shown_.problem().num_heads;
  spec.row_labels = &m.row_labels;
  spec.col_labels = m.col_labels.empty() ? nullptr : &m.col_labels;
  spec.row_label_width = row_label_w;
  spec.col_label_height = m.col_labels.empty() ? 0.0f : place.label_h;
  spec.cells_width = place.cell_w * static_cast<float>(display.cols);
  spec.cells_height = place.cell_h * static_cast<float>(display.rows);
  spec.pinned_row = m.query_rows ? focus.query : -1;  // the followed query now, not when the page was built
  spec.highlight_token = ui.view.hovered_token;
  spec.highlight_column = false;
  if (m.col_labels.empty()) ImGui::Dummy(ImVec2(0.0f, place.label_h));  // align the cells' tops
  // A model's layer in the ID as well: what the widget log (and a test) sees is which layer is drawn.
  const std::string id =
      "##step-matrix" + std::to_string(i) + (shown_.model() ? "-layer" + std::to_string(shown_.layer()) : "");
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const heatmap::HeatmapHover hover = ui.heatmaps.draw(id.c_str(), spec);
  const ImVec2 cells(origin.x + row_label_w, origin.y + spec.col_label_height);
  ImDrawList* list = ImGui::GetWindowDrawList();
  for (std::size_t g = 1; g < m.column_groups.size(); ++g) {  // where each head's columns start
    const float x = std::round(cells.x + place.cell_w * static_cast<float>(m.column_groups[g].first));
    list->AddLine(ImVec2(x, cells.y - 4.0f * s), ImVec2(x, cells.y + spec.cells_height + 4.0f * s),
                  ImGui::GetColorU32(ImGuiCol_Text), 2.5f * s);
  }
  // The selected cell of S: the one the arithmetic check writes out.
  if (lesson::step_at(matrices_.step) == StepKind::Scores && m.query_rows && m.key_cols) {
    const ImVec2 a(cells.x + place.cell_w * static_cast<float>(focus.key),
                   cells.y + place.cell_h * static_cast<float>(focus.query));
    const ImVec2 b(a.x + place.cell_w, a.y + place.cell_h);
    list->AddRect(a, b, 0xff000000u, 0.0f, 0, 4.0f * s);
    list->AddRect(a, b, 0xff00d7ffu, 0.0f, 0, 2.0f * s);  // gold (ABGR), apart from the blue row box
  }
  // The selected key's row of K (the Positions page: the key RoPE's picture turns).
  if (m.key_rows && focus.key < display.rows) {
    const ImVec2 a(cells.x, cells.y + place.cell_h * static_cast<float>(focus.key));
    const ImVec2 b(a.x + spec.cells_width, a.y + place.cell_h);
    list->AddRect(a, b, 0xff000000u, 0.0f, 0, 4.0f * s);
    list->AddRect(a, b, 0xff00d7ffu, 0.0f, 0, 2.0f * s);
  }
  if (hover.hovered && hover.row >= 0 && hover.col >= 0)
    ImGui::SetTooltip("%s[%d, %d] = %.4g", m.name.c_str(), hover.row, hover.col,
                      static_cast<double>(m.values->at(hover.row, hover.col)));
  if (hover.clicked && hover.row >= 0 && m.query_rows) {
    ui.view.pinned_query = hover.row;
    if (m.key_cols && hover.col >= 0) views_.key = hover.col;
  }
  if (hover.clicked && hover.row >= 0 && m.key_rows) views_.key = hover.row;
  ImGui::SetCursorPosX(at.x + row_label_w);
  if (m.kind != ShownMatrix::Kind::Mask)
    ui.heatmaps.colorbar(spec.colormap, spec.range_min, spec.range_max, std::max(spec.cells_width, 80.0f * s), nullptr);
  ImGui::EndGroup();
  if (m.kind == ShownMatrix::Kind::Weights && !m.dropped && lesson::step_at(matrices_.step) == StepKind::Softmax)
    draw_row_stats_column(row_stats_, origin.x + row_label_w + spec.cells_width + 10.0f * s, cells.y,
                          spec.cells_height);
}

}  // namespace

std::unique_ptr<ui::Panel> make_step_view(ViewStates& views) { return std::make_unique<StepView>(views); }

}  // namespace attnviz::classroom
