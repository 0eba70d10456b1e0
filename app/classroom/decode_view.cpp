// The Decode view: the scenario's sentence generated one token at a time with a KV cache
// (core/decode), the way a decoder runs in production. At each step: the new token's q, k and
// v; the K and V caches as their buffer holds them, the row written at this step outlined and
// the reused rows marked (under a sliding window a rolling buffer whose leaving rows are shown
// under it); the new row of scores and weights beside the rows they belong to; the context;
// and, beside it all, what the step costs with and without the cache.
//
// The trace is decoded once per (result, head, prompt); stepping only reads it. With a
// pretrained model open, the view shows the model's own generation (decode_view_model.h).

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/classroom/decode_view_model.h"
#include "app/classroom/decode_view_parts.h"
#include "app/classroom/draw_helpers.h"
#include "app/classroom/production_views.h"
#include "app/classroom/view_steps.h"
#include "app/classroom/view_widgets.h"
#include "app/compute/compute_session.h"
#include "app/compute/model_session.h"
#include "app/document/document.h"
#include "app/edits/text_edits.h"
#include "app/heatmap/heatmap_overlay.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/i18n/translate.h"
#include "app/ui/classroom_state.h"
#include "app/ui/first_tokens_button.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "app/ui/long_text.h"
#include "core/decode/cache_view.h"
#include "core/decode/decoder.h"
#include "core/common/number_text.h"

namespace attnviz::classroom {
namespace {

// Decoding keeps every step's rows: beyond this many cache rows summed over the steps,
// N·(N + 1)/2, the view asks for a shorter sentence.
constexpr std::int64_t kMaxHeldRows = std::int64_t{1} << 22;

// The longest sentence whose N·(N + 1)/2 rows fit in `rows`.
constexpr int longest_sentence_within(std::int64_t rows) {
  int n = 0;
  while (std::int64_t{n + 1} * (n + 2) / 2 <= rows) ++n;
  return n;
}
constexpr int kMaxDecodedTokens = longest_sentence_within(kMaxHeldRows);  // 2,895

// Too long to step through here: says so, with the sentence's first kMaxDecodedTokens tokens
// one click away (one undo step) when it is a text the window splits.
void refuse_long_sentence(ui::UiContext& ui, int n) {
  ui::text_wrapped("%s", i18n::format(i18n::tr("Decoding %s tokens one at a time keeps too many rows to step through "
                                               "here: the Decode view takes sentences of up to %s tokens (attnviz "
                                               "trace decode takes any)."),
                                      format_grouped(n).c_str(), format_grouped(kMaxDecodedTokens).c_str())
                             .c_str());
  if (edits::texts_can_be_cut(ui.document.scenario())) ui::keep_first_tokens_button(ui, "##decode", kMaxDecodedTokens);
}

constexpr std::uint32_t kGold = 0xff00d7ffu;
constexpr std::uint32_t kBlack = 0xff000000u;

struct TraceKey {
  std::uint64_t generation = 0;
  int head = -1, prompt = -1;
  friend bool operator==(const TraceKey&, const TraceKey&) = default;
};

// One step's matrices, in the buffer's slot order.
struct ShownStep {
  int step = -1;
  TraceKey key;
  std::uint64_t version = 0;
  decode::CacheView cache;
  Matrix q, k, v, context;               // 1 × d
  Matrix keys, values, scores, weights;  // slots × d_k, slots × d_v, slots × 1, slots × 1
  Matrix leaving_k, leaving_v;           // evicted × d
  std::vector<std::string> slot_labels, leaving_labels, new_label;
};

struct Ranges {
  heatmap::ValueRange q, k, v, scores;
};

// The widths of the cache's line besides its cells: the slots' numbers (a rolling buffer),
// the row labels, the gaps, the status at the end.
struct CacheColumns {
  float slots = 0.0f;
  float labels = 0.0f;
  float gap = 0.0f;
  float status = 0.0f;
  int cells = 0;  // d_k + 2 + d_v
  [[nodiscard]] float width(float cell) const {
    return slots + labels + 3.0f * gap + status + cell * static_cast<float>(cells);
  }
};

class DecodeView final : public ui::Panel {
 public:
  explicit DecodeView(ViewStates& views) : views_(views), model_(views.decode) {}
  [[nodiscard]] const char* title() const override { return ui::tab_title(ui::MainView::Decode); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Main; }
  void draw(ui::UiContext& ui) override;

 private:
  void draw_toolbar(ui::UiContext& ui, int prompt, int steps);
  bool refresh(const ui::UiContext& ui, const TraceKey& key);
  void show_step(const ui::UiContext& ui, int step);
  void draw_header(const ui::UiContext& ui, int t) const;
  void draw_notes(const ui::UiContext& ui, float width) const;
  void draw_cache(ui::UiContext& ui, const CacheColumns& c, float width, float height);
  [[nodiscard]] CacheColumns columns(const ui::UiContext& ui) const;

  ViewStates& views_;  // the prompt and the step shown (the desktop's)
  TraceKey key_;
  std::optional<decode::DecodeTrace> trace_;
  std::string error_;
  Ranges ranges_;
  ShownStep shown_;
  ModelDecode model_;  // with a pretrained model open: its generation
};

heatmap::ValueRange symmetric_over(const std::vector<decode::DecodeStep>& steps,
                                   std::vector<float> decode::DecodeStep::*field) {
  float largest = 0.0f;
  for (const decode::DecodeStep& step : steps)
    for (const float v : step.*field)
      if (std::isfinite(v)) largest = std::max(largest, std::fabs(v));
  if (largest <= 0.0f) largest = 1.0f;
  return {-largest, largest};
}

Matrix row_matrix(const std::vector<float>& values) {
  Matrix m(1, static_cast<int>(values.size()));
  std::copy(values.begin(), values.end(), m.data.begin());
  return m;
}

bool DecodeView::refresh(const ui::UiContext& ui, const TraceKey& key) {
  if (key == key_) return trace_.has_value();
  key_ = key;
  trace_.reset();
  error_.clear();
  shown_ = ShownStep{};
  const Problem& problem = ui.session.problem();
  if (problem.cross_attention) {
    error_ = i18n::tr(
        "Decoding generates the sentence itself, one token after another: it has no second sentence "
        "to read keys and values from. Turn cross-attention off (X, or the Source sentence panel) to "
        "decode this sentence.");
    return false;
  }
  try {
    trace_ = decode::decode_head(problem, key.head, key.prompt);
  } catch (const std::exception& e) {
    error_ = i18n::format(i18n::tr("Decoding failed: %s"), e.what());
    return false;
  }
  ranges_.q = symmetric_over(trace_->steps, &decode::DecodeStep::q);
  ranges_.k = symmetric_over(trace_->steps, &decode::DecodeStep::k);
  ranges_.v = symmetric_over(trace_->steps, &decode::DecodeStep::v);
  ranges_.scores = symmetric_over(trace_->steps, &decode::DecodeStep::scores);
  return true;
}

std::string slot_label(const decode::CacheSlot& slot, const std::vector<std::string>& tokens) {
  if (slot.key < 0) return i18n::tr("(empty)");
  return format_grouped(slot.key) + " " + ui::token_label(tokens[static_cast<std::size_t>(slot.key)]);
}

void DecodeView::show_step(const ui::UiContext& ui, int step) {
  if (shown_.step == step && shown_.key == key_) return;
  const Problem& problem = ui.session.problem();
  const decode::DecodeTrace& trace = *trace_;
  const int t = decoded_position(trace.prompt, step);
  const bool rolling = trace.mask.window.has_value();
  ShownStep s;
  s.step = step;
  s.key = key_;
  s.version = fresh_upload_version();
  s.cache = decode::cache_view(trace, t, rolling, step == 0 ? 0 : t);
  const decode::DecodeStep& row = trace.steps[static_cast<std::size_t>(t)];
  s.q = row_matrix(row.q);
  s.k = row_matrix(row.k);
  s.v = row_matrix(row.v);
  s.context = row_matrix(row.context);
  const int slots = static_cast<int>(s.cache.slots.size());
  s.keys = Matrix(slots, problem.d_k);
  s.values = Matrix(slots, problem.d_v);
  s.scores = Matrix(slots, 1);
  s.weights = Matrix(slots, 1);
  for (int i = 0; i < slots; ++i) {
    const decode::CacheSlot& slot = s.cache.slots[static_cast<std::size_t>(i)];
    s.slot_labels.push_back(slot_label(slot, problem.tokens));
    if (slot.key < 0) continue;
    std::copy(slot.k.begin(), slot.k.end(), s.keys.row(i));
    std::copy(slot.v.begin(), slot.v.end(), s.values.row(i));
    s.scores.at(i, 0) = slot.score;
    s.weights.at(i, 0) = slot.weight;
  }
  const int leaving = static_cast<int>(s.cache.evicted.size());
  s.leaving_k = Matrix(leaving, problem.d_k);
  s.leaving_v = Matrix(leaving, problem.d_v);
  for (int e = 0; e < leaving; ++e) {
    const auto i = static_cast<std::size_t>(e);
    std::copy(s.cache.evicted_k[i].begin(), s.cache.evicted_k[i].end(), s.leaving_k.row(e));
    std::copy(s.cache.evicted_v[i].begin(), s.cache.evicted_v[i].end(), s.leaving_v.row(e));
    const int key = s.cache.evicted[i];
    s.leaving_labels.push_back(format_grouped(key) + " " +
                               ui::token_label(problem.tokens[static_cast<std::size_t>(key)]));
  }
  s.new_label = {format_grouped(t) + " " + ui::token_label(problem.tokens[static_cast<std::size_t>(t)])};
  shown_ = std::move(s);
}

void DecodeView::draw(ui::UiContext& ui) {
  ui::ClassroomState& state = ui.classroom;
  state.shown = ui::MainView::Decode;
  state.shown_frame = ImGui::GetFrameCount();
  state.shown_step = views_.decode.step;
  views_.decode.model_steps = 0;  // ModelDecode sets it while it shows a generation
  if (ui.model.has_model() && model_.draw(ui)) return;
  if (!ui.session.has_result()) {
    nothing_to_show(ui, i18n::tr("Nothing to show yet."));
    return;
  }
  const Problem& problem = ui.session.problem();
  if (problem.n() > kMaxDecodedTokens && !problem.cross_attention) {  // cross-attention: refresh() says why not
    refuse_long_sentence(ui, problem.n());
    return;
  }
  const int head = std::clamp(ui.view.selected_head, 0, problem.num_heads - 1);
  const int prompt = decode_prompt(views_.decode, problem.n());
  const int steps = decode_step_count(prompt, problem.n());
  Playback& playback = views_.decode.playback;
  views_.decode.step = moved_step(views_.decode.step, 0, steps);
  if (advance_playback(playback, views_.decode.step, steps, ImGui::GetTime()) || playback.playing)
    state.wants_frames = true;
  draw_toolbar(ui, prompt, steps);
  if (!refresh(ui, {ui.session.generation(), head, prompt})) {
    ImGui::PushTextWrapPos(0.0f);
    ui::text_lines(error_.c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  show_step(ui, views_.decode.step);
  const int t = decoded_position(prompt, views_.decode.step);

  ImGui::BeginChild("##decode-page", ImGui::GetContentRegionAvail(), false);
  const float page_w = ImGui::GetContentRegionAvail().x;
  const float page_h = ImGui::GetContentRegionAvail().y;
  draw_header(ui, t);
  const float gap = 24.0f * ui.ui_scale;
  const float font = ImGui::GetFontSize();
  const float cost_w = std::clamp(page_w * 0.28f, font * 17.0f, font * 24.0f);
  // The cost panel beside the cache when the cache keeps its numbers there (first without the
  // rows' status words: the gold outline already marks the new row), or could not have them
  // anyway; else under it.
  CacheColumns columns_shown = columns(ui);
  const float number_w = heatmap::number_cell("-0.00");
  if (page_w - cost_w - gap < columns_shown.width(number_w)) columns_shown.status = 0.0f;
  const float numbered_w = columns_shown.width(number_w);
  const bool numbered_anywhere = numbered_w <= page_w;
  const bool beside = page_w - cost_w - gap >= (numbered_anywhere ? numbered_w : font * 26.0f);
  if (!beside) columns_shown = columns(ui);
  const float left_w = beside ? page_w - cost_w - gap : page_w;
  const ImVec2 start = ImGui::GetCursorPos();
  draw_cache(ui, columns_shown, left_w, page_h - start.y);
  draw_notes(ui, left_w);
  const float left_bottom = ImGui::GetCursorPosY();
  if (beside) {
    ImGui::SetCursorPos(ImVec2(start.x + left_w + gap, start.y));
    ImGui::BeginGroup();
    draw_cost_panel(*trace_, t, cost_w, ui.ui_scale);
    ImGui::EndGroup();
    ImGui::SetCursorPosY(std::max(left_bottom, ImGui::GetCursorPosY()));
  } else {
    ImGui::Separator();
    draw_cost_panel(*trace_, t, page_w, ui.ui_scale);
  }
  ImGui::EndChild();
}

void DecodeView::draw_toolbar(ui::UiContext& ui, int prompt, int steps) {
  DecodeViewState& state = views_.decode;
  const Problem& problem = ui.session.problem();
  step_toolbar(state.playback, state.step, steps, i18n::tr("Step %s of %s"));
  const float group_gap = 20.0f * ui.ui_scale;
  const float right = ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x;
  ImGui::SameLine(0.0f, group_gap);
  if (ImGui::GetCursorPosX() + ImGui::GetFontSize() * 10.0f > right) ImGui::NewLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Prompt P"));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr("The first P tokens are prefilled at once (--prompt)"));
  ImGui::SameLine();
  int edited = prompt;
  ImGui::SetNextItemWidth(int_input_width(std::max(problem.n(), 999)));
  if (ImGui::InputInt("##prompt", &edited, 1, 4)) {
    edited = std::clamp(edited, 1, std::max(1, problem.n()));
    if (edited != prompt) {
      state.prompt = edited;
      state.step = 0;
      state.playback.playing = false;
    }
  }
  head_pills(problem.num_heads, ui.view.selected_head, group_gap, right, 3000);
  const int clicked = draw_sentence_strip(problem.tokens, prompt, decoded_position(prompt, state.step));
  if (clicked >= 0) {
    state.step = moved_step(clicked, 0, steps);
    state.playback.playing = false;
  }
  ImGui::Separator();
}

void DecodeView::draw_header(const ui::UiContext& ui, int t) const {
  const decode::DecodeTrace& trace = *trace_;
  const Problem& problem = ui.session.problem();
  const std::string token = ui::token_label(problem.tokens[static_cast<std::size_t>(t)]);
  // The heading font has Latin letters only: the token goes on the line under it.
  const int step = t - trace.prompt + 1;
  const std::string steps = format_grouped(problem.n() - trace.prompt + 1);
  if (step == 0) {
    heading_text(i18n::format(i18n::tr("Step 1 of %s: the prefill"), steps.c_str()));
    const std::string prompt = format_grouped(trace.prompt);
    // Wrapped: on a projector's 1280 pixels the sentence is wider than the view.
    text_wrapped_at_spaces(
        i18n::format(
            i18n::trn("The prompt's %s token is computed in one pass (a %s \xc3\x97 %s causal matrix): its k and v "
                      "fill the cache. Shown: its last row, token %s \xe2\x80\x9c%s\xe2\x80\x9d.",
                      "The prompt's %s tokens are computed in one pass (a %s \xc3\x97 %s causal matrix): their k "
                      "and v fill the cache. Shown: its last row, token %s \xe2\x80\x9c%s\xe2\x80\x9d.",
                      static_cast<unsigned long>(trace.prompt)),
            prompt.c_str(), prompt.c_str(), prompt.c_str(), format_grouped(t).c_str(), token.c_str()),
        0.0f, false);
  } else {
    heading_text(i18n::format(i18n::tr("Step %s of %s: token %s"), format_grouped(step + 1).c_str(), steps.c_str(),
                              format_grouped(t).c_str()));
    text_wrapped_at_spaces(
        i18n::format(i18n::tr("\xe2\x80\x9c%s\xe2\x80\x9d: q, k, v from its own embedding; every earlier k and v "
                              "from the cache."),
                     token.c_str()),
        0.0f, false);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_CheckMark));
  text_wrapped_at_spaces(i18n::tr("s_j = scale\xc2\xb7q\xc2\xb7k_j for each cached row,   w = softmax(s),   context = "
                                  "\xce\xa3 w_j\xc2\xb7v_j"),
                         0.0f, true);
  ImGui::PopStyleColor();
  ImGui::Spacing();
}

// What the mask and the heads do to the cache, under it (the header stays short for a projector).
void DecodeView::draw_notes(const ui::UiContext& ui, float width) const {
  const Problem& problem = ui.session.problem();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  std::string notes = cache_mask_text(*trace_) + " " + cache_sharing_text(problem, trace_->head);
  if (!problem.mask.causal)
    notes +=
        std::string(" ") + i18n::tr("Decoding is always causal: a token cannot attend to tokens not generated yet.");
  bool kept = false;
  for (const decode::CacheSlot& slot : shown_.cache.slots) kept |= slot.key >= 0 && !slot.visible;
  if (kept)
    notes +=
        std::string(" ") + i18n::tr("Kept: a row this token does not see, held for a later global token that will.");
  ImGui::TextDisabled("%s", notes.c_str());
  ImGui::PopTextWrapPos();
}

// The status right of a cache row: written now, reused, empty, or kept for a later query.
const char* slot_status(const decode::CacheSlot& slot) {
  if (slot.key < 0) return i18n::tr("empty");
  if (slot.written) return i18n::tr("new");
  if (!slot.visible) return i18n::tr("kept");
  return i18n::tr("reused");
}

CacheColumns DecodeView::columns(const ui::UiContext& ui) const {
  const float sc = ui.ui_scale;
  CacheColumns c;
  c.slots =
      trace_->mask.window ? ImGui::CalcTextSize(i18n::format(i18n::tr("slot %d"), 88).c_str()).x + 8.0f * sc : 0.0f;
  c.labels = std::max(heatmap::HeatmapWidget::row_label_width(shown_.slot_labels, 120.0f * sc),
                      heatmap::HeatmapWidget::row_label_width(shown_.new_label, 120.0f * sc));
  c.gap = 8.0f * sc;
  ImFont* small = cell_font();
  // As wide as the widest of the four words in this language.
  float status_w = 0.0f;
  for (const char* word : {i18n::tr("empty"), i18n::tr("new"), i18n::tr("kept"), i18n::tr("reused")})
    status_w =
        std::max(status_w, small->CalcTextSizeA(small->FontSize * ImGui::GetIO().FontGlobalScale, 1e9f, 0.0f, word).x);
  c.status = status_w + 12.0f * sc;
  c.cells = ui.session.problem().d_k + ui.session.problem().d_v + 2;
  return c;
}

void DecodeView::draw_cache(ui::UiContext& ui, const CacheColumns& c, float width, float height) {
  const ShownStep& s = shown_;
  const float sc = ui.ui_scale;
  const float font = ImGui::GetFontSize();
  const bool prefill = s.step == 0;
  const int rows = s.keys.rows;
  const float gap = c.gap;
  const float label_w = c.labels;
  const float number_w = heatmap::number_cell("-0.00");
  const float lines = ImGui::GetTextLineHeightWithSpacing() * 8.0f;
  const int leaving = s.leaving_k.rows;
  const float fit_w = (width - c.width(0.0f)) / static_cast<float>(c.cells);
  const float fit_h = (height - lines) / static_cast<float>(rows + 3 + leaving);
  // As large as the room allows (52 px at 1× at most), never narrower than a number when the
  // width has room for that: the page scrolls down rather than the numbers going.
  const float floor_w = std::max(6.0f, std::min(number_w, fit_w));
  const float cell = std::floor(std::max(floor_w, std::min({fit_w, fit_h, 52.0f * sc})));
  // Rows a little lower than wide: a projector's 720 lines hold the whole step.
  const float cell_h = std::floor(std::max(font * 1.3f, std::min(cell * 0.6f, font * 1.8f)));
  const auto small = [&](const std::string& id, const std::string& caption, const Matrix& values,
                         heatmap::ValueRange range, heatmap::Colormap colormap,
                         const std::vector<std::string>* labels) {
    SmallMatrix m;
    m.id = id;
    m.caption = caption;
    m.values = &values;
    m.version = s.version;
    m.range = range;
    m.colormap = colormap;
    m.row_labels = labels;
    m.row_label_w = labels ? label_w : 0.0f;
    m.cell_w = cell;
    m.cell_h = cell_h;
    m.numbers = values.cols <= heatmap::kMaxNumberedCells && values.rows <= heatmap::kMaxNumberedCells;
    return m;
  };
  const heatmap::Colormap diverging = ui.view.scores_colormap;
  int held = 0;
  int fresh = 0;
  for (const decode::CacheSlot& slot : s.cache.slots) {
    held += slot.key >= 0;
    fresh += slot.key >= 0 && slot.written;
  }
  const std::string reuse =
      i18n::format(i18n::tr("%s new, %s reused"), format_grouped(fresh).c_str(), format_grouped(held - fresh).c_str());
  // Column positions (window coordinates): the K cache's row labels, its cells, s, w, the V cache.
  const float x0 = ImGui::GetCursorPosX();
  const float k_x = x0 + c.slots;
  const float s_x = k_x + label_w + cell * static_cast<float>(s.keys.cols) + gap;
  const float w_x = s_x + cell + gap;
  const float v_x = w_x + cell + gap;
  // Two items side by side at the same height, the cursor under the taller; their cells.
  const auto pair = [&](float left_x, const SmallMatrix& left, float right_x, const SmallMatrix* right) {
    const float y = ImGui::GetCursorPosY();
    ImGui::SetCursorPos(ImVec2(left_x, y));
    std::pair<CellsRect, CellsRect> cells{draw_small_matrix(ui, left), CellsRect{}};
    float bottom = ImGui::GetCursorPosY();
    if (right != nullptr) {
      ImGui::SetCursorPos(ImVec2(right_x, y));
      cells.second = draw_small_matrix(ui, *right);
      bottom = std::max(bottom, ImGui::GetCursorPosY());
    }
    ImGui::SetCursorPos(ImVec2(x0, bottom));
    return cells;
  };

  // The new token: its query over the K cache (q·k_j is what each cache row gets), then the k
  // and v this step writes, each over the cache it goes into.
  int written_slot = 0;
  for (std::size_t i = 0; i < s.cache.slots.size(); ++i)
    if (s.cache.slots[i].written) written_slot = static_cast<int>(i);
  const std::string into = trace_->mask.window && !prefill
                               ? i18n::format(i18n::tr(" \xe2\x86\x92 slot %d"), written_slot)
                               : std::string(i18n::tr(" \xe2\x86\x92 cache"));
  (void)pair(k_x, small("##decode-q", i18n::tr("q: the new token's query"), s.q, ranges_.q, diverging, &s.new_label),
             0.0f, nullptr);
  const SmallMatrix v =
      small("##decode-v", prefill ? i18n::tr("v (the prompt's last)") : "v" + into, s.v, ranges_.v, diverging, nullptr);
  (void)pair(k_x,
             small("##decode-k", prefill ? i18n::tr("k (the prompt's last)") : "k" + into, s.k, ranges_.k, diverging,
                   &s.new_label),
             v_x, &v);
  ImGui::Spacing();

  // The cache and the row of scores and weights, one line per slot.
  const float cache_y = ImGui::GetCursorPosY();
  const std::string long_caption = i18n::format(i18n::tr("V cache: %s"), reuse.c_str());
  const float v_room = cell * static_cast<float>(s.values.cols) + c.status;
  const std::string v_caption =
      ImGui::CalcTextSize(long_caption.c_str()).x <= v_room ? long_caption : std::string(i18n::tr("V cache"));
  ImGui::SetCursorPos(ImVec2(k_x, cache_y));
  const CellsRect keys = draw_small_matrix(
      ui, small("##decode-keys",
                i18n::format(i18n::trn("K cache (%s row)", "K cache (%s rows)", static_cast<unsigned long>(held)),
                             format_grouped(held).c_str()),
                s.keys, ranges_.k, diverging, &s.slot_labels));
  ImGui::SetCursorPos(ImVec2(s_x, cache_y));
  const CellsRect scores =
      draw_small_matrix(ui, small("##decode-scores", "s", s.scores, ranges_.scores, diverging, nullptr));
  ImGui::SetCursorPos(ImVec2(w_x, cache_y));
  const CellsRect weights =
      draw_small_matrix(ui, small("##decode-weights", "w", s.weights, {0.0f, 1.0f}, ui.view.weights_colormap, nullptr));
  ImGui::SetCursorPos(ImVec2(v_x, cache_y));
  const CellsRect values =
      draw_small_matrix(ui, small("##decode-values", v_caption, s.values, ranges_.v, diverging, nullptr));
  ImGui::SetCursorPosX(x0);
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  const std::uint32_t wash = ImGui::ColorConvertFloat4ToU32(ImVec4(bg.x, bg.y, bg.z, 0.75f));
  for (int i = 0; i < rows; ++i) {
    const decode::CacheSlot& slot = s.cache.slots[static_cast<std::size_t>(i)];
    const float y0 = keys.y0 + cell_h * static_cast<float>(i);
    const float y1 = y0 + cell_h;
    if (slot.key < 0 || !slot.visible) {  // an empty slot: blank; a row this query does not see: washed out
      const std::uint32_t cover = slot.key < 0 ? ImGui::GetColorU32(ImGuiCol_FrameBg, 1.0f) : wash;
      for (const CellsRect* r : {&keys, &scores, &weights, &values})
        list->AddRectFilled(ImVec2(r->x0, y0), ImVec2(r->x1, y1), cover);
    }
    const char* status = c.status > 0.0f ? slot_status(slot) : "";
    const std::uint32_t colour =
        slot.written ? ImGui::GetColorU32(ImGuiCol_CheckMark) : ImGui::GetColorU32(ImGuiCol_TextDisabled);
    ImFont* status_font = cell_font();
    const float small_size = status_font->FontSize * ImGui::GetIO().FontGlobalScale;
    list->AddText(status_font, small_size, ImVec2(values.x1 + 6.0f * sc, std::round((y0 + y1 - small_size) * 0.5f)),
                  colour, status);
    if (slot.written) {
      for (const CellsRect* r : {&keys, &values}) {
        list->AddRect(ImVec2(r->x0, y0), ImVec2(r->x1, y1), kBlack, 0.0f, 0, 4.0f * sc);
        list->AddRect(ImVec2(r->x0, y0), ImVec2(r->x1, y1), kGold, 0.0f, 0, 2.0f * sc);
      }
    }
  }
  if (trace_->mask.window) {  // the buffer's slots, left of the row labels
    for (int i = 0; i < rows; ++i) {
      const std::string slot = i18n::format(i18n::tr("slot %d"), i);
      const float y = keys.y0 + cell_h * static_cast<float>(i) + (cell_h - font) * 0.5f;
      list->AddText(ImVec2(keys.x0 - label_w - ImGui::CalcTextSize(slot.c_str()).x - 6.0f * sc, std::round(y)),
                    ImGui::GetColorU32(ImGuiCol_TextDisabled), slot.c_str());
    }
  }

  // Rows leaving the cache at this step (a sliding window), faded and struck through, under it.
  if (leaving > 0) {
    const SmallMatrix gone_v = small("##decode-leaving-v", " ", s.leaving_v, ranges_.v, diverging, nullptr);
    const auto [gone_k, gone_values] = pair(k_x,
                                            small("##decode-leaving-k", i18n::tr("leaving the cache now"), s.leaving_k,
                                                  ranges_.k, diverging, &s.leaving_labels),
                                            v_x, &gone_v);
    for (const CellsRect* r : {&gone_k, &gone_values}) {
      list->AddRectFilled(ImVec2(r->x0, r->y0), ImVec2(r->x1, r->y1), wash);
      for (int e = 0; e < leaving; ++e) {
        const float mid = r->y0 + cell_h * (static_cast<float>(e) + 0.5f);
        list->AddLine(ImVec2(r->x0, mid), ImVec2(r->x1, mid), ImGui::GetColorU32(ImGuiCol_Text), 2.0f * sc);
      }
    }
  }

  // The context under the V cache: Σ w_j · v_j.
  ImGui::SetCursorPosX(v_x);
  (void)draw_small_matrix(ui, small("##decode-context", i18n::tr("context = \xce\xa3 w_j\xc2\xb7v_j"), s.context,
                                    ranges_.v, diverging, nullptr));
  ImGui::SetCursorPosX(x0);
  ImGui::Spacing();
}

}  // namespace

std::unique_ptr<ui::Panel> make_decode_view(ViewStates& views) { return std::make_unique<DecodeView>(views); }

}  // namespace attnviz::classroom
