// Cross-attention: the target sentence (queries) on top, the source sentence (keys and values)
// below, a line from each query token to each source token as strong as its weight; the
// followed query's lines are drawn on top in the pinned colour. Beside it, the weights as a
// heatmap with both sentences on its axes.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/classroom/draw_helpers.h"
#include "app/classroom/page_layout.h"
#include "app/classroom/step_view.h"
#include "app/compute/compute_session.h"
#include "app/document/document.h"
#include "app/heatmap/heatmap_overlay.h"
#include "app/i18n/translate.h"
#include "app/ui/classroom_state.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "app/ui/long_text.h"
#include "app/ui/palette.h"
#include "core/common/number_text.h"

namespace attnviz::classroom {
namespace {

struct TokenBox {
  ImVec2 min;
  ImVec2 max;
  [[nodiscard]] ImVec2 left() const { return ImVec2(min.x, (min.y + max.y) * 0.5f); }
  [[nodiscard]] ImVec2 right() const { return ImVec2(max.x, (min.y + max.y) * 0.5f); }
};

float widest_token(const std::vector<std::string>& tokens) {
  float widest = 0.0f;
  for (const std::string& t : tokens) widest = std::max(widest, ImGui::CalcTextSize(t.c_str()).x);
  return widest + ImGui::GetStyle().FramePadding.x * 2.0f;
}

// One token per row, spread evenly over [top, top + height]; boxes `width` wide from x.
std::vector<TokenBox> place_column(std::size_t count, float x, float width, float top, float height) {
  std::vector<TokenBox> boxes;
  const float box_h = ImGui::GetFontSize() + ImGui::GetStyle().FramePadding.y * 2.0f;
  const float slot = height / static_cast<float>(std::max<std::size_t>(count, 1));
  const float h = std::min(box_h, slot - 2.0f);
  for (std::size_t i = 0; i < count; ++i) {
    const float cy = top + slot * (static_cast<float>(i) + 0.5f);
    boxes.push_back({ImVec2(x, cy - h * 0.5f), ImVec2(x + width, cy + h * 0.5f)});
  }
  return boxes;
}

void draw_boxes(ImDrawList* list, const std::vector<TokenBox>& boxes, const std::vector<std::string>& tokens,
                int selected) {
  const ImU32 fill = ImGui::GetColorU32(ImGuiCol_Button);
  const ImU32 border = ImGui::GetColorU32(ImGuiCol_Border);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const float pad = ImGui::GetStyle().FramePadding.x;
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const bool chosen = static_cast<int>(i) == selected;
    list->AddRectFilled(boxes[i].min, boxes[i].max, chosen ? heatmap::kPinnedColour : fill, 4.0f);
    list->AddRect(boxes[i].min, boxes[i].max, border, 4.0f);
    const std::string label = heatmap::ellipsize(ImGui::GetFont(), ImGui::GetFontSize(), ui::token_label(tokens[i]),
                                                 boxes[i].max.x - boxes[i].min.x - pad);
    const float w = ImGui::CalcTextSize(label.c_str()).x;
    list->AddText(
        ImVec2((boxes[i].min.x + boxes[i].max.x - w) * 0.5f, boxes[i].min.y + ImGui::GetStyle().FramePadding.y),
        chosen ? 0xffffffffu : text, label.c_str());
  }
}

class CrossView final : public ui::Panel {
 public:
  [[nodiscard]] const char* title() const override { return ui::tab_title(ui::MainView::Cross); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Main; }
  void draw(ui::UiContext& ui) override;

 private:
  // Both return the height they took (the view scrolls when it is more than the window's).
  float draw_lines(ui::UiContext& ui, float width, float height);
  float draw_heatmap(ui::UiContext& ui, float width, float height);
};

void offer_source(ui::UiContext& ui) {
  ui::text_wrapped("%s", i18n::tr("This scenario attends within one sentence (self-attention). Cross-attention takes "
                                  "the queries from this sentence and the keys and values from a second one, the way a "
                                  "translation model's decoder reads the sentence it translates."));
  if (ImGui::Button(i18n::tr_label("Add a source sentence").c_str())) {
    Scenario next = ui.document.scenario();
    next.source = SourceSetting{};
    next.source->sentence = next.sentence;
    ui.document.apply(std::move(next), i18n::tr("Add a source sentence"));
  }
  ImGui::TextDisabled("%s", i18n::tr("Then type it in the Source sentence panel, or open the preset cross-attention "
                                     "(File menu). Key: X."));
}

// Generated weights are random: a pair of words with a strong line means nothing yet, and a
// class reading "chicken attends to 어제" as a translation should be told so.
bool weights_are_random(const Scenario& s) { return !s.wq || !s.wk; }

void CrossView::draw(ui::UiContext& ui) {
  ui::ClassroomState& state = ui.classroom;
  state.shown = ui::MainView::Cross;
  state.shown_frame = ImGui::GetFrameCount();
  if (!ui.session.has_result()) {
    nothing_to_show(ui, i18n::tr("Nothing to show yet."));
    return;
  }
  const Problem& p = ui.session.problem();
  if (!p.cross_attention) {
    offer_source(ui);
    return;
  }
  const Scenario& scenario = ui.document.scenario();
  const int head = std::clamp(ui.view.selected_head, 0, p.num_heads - 1);
  // The token boxes below spell both sentences out: one line says what is what.
  text_wrapped_at_spaces(i18n::format(i18n::tr("Queries come from the target sentence (left), keys and values from "
                                               "the source (right). Head %d of %d \xc2\xb7 line strength = attention "
                                               "weight \xc2\xb7 click a query token to follow it."),
                                      head, p.num_heads),
                         0.0f, false);
  if (weights_are_random(scenario)) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped_at_spaces(i18n::format(i18n::tr("W_Q, W_K and W_V here are random (seed %s), not trained: which "
                                                 "words pair up means nothing yet. The view shows how the weights are "
                                                 "computed, not a translation."),
                                        std::to_string(scenario.seed).c_str()),
                           0.0f, false);
    ImGui::PopStyleColor();
  }
  ImGui::BeginChild("##cross-page", ImGui::GetContentRegionAvail(), false);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = 16.0f * ui.ui_scale;
  // The heatmap takes what it needs for readable cells, the lines keep at least a third.
  const float heatmap_w = std::floor(std::clamp(avail.x * 0.45f, avail.x * 0.3f, avail.x * 0.62f));
  const ImVec2 start = ImGui::GetCursorPos();
  const float lines_h = draw_lines(ui, avail.x - heatmap_w - gap, avail.y);
  ImGui::SetCursorPos(ImVec2(start.x + avail.x - heatmap_w, start.y));
  ImGui::BeginGroup();
  const float heatmap_h = draw_heatmap(ui, heatmap_w, avail.y);
  ImGui::EndGroup();
  ImGui::SetCursorPos(ImVec2(start.x, start.y + std::max(lines_h, heatmap_h)));
  ImGui::Dummy(ImVec2(1.0f, 1.0f));
  ImGui::EndChild();
}

float CrossView::draw_lines(ui::UiContext& ui, float width, float height) {
  const compute::ComputeSession& session = ui.session;
  const Problem& p = session.problem();
  const int head = std::clamp(ui.view.selected_head, 0, p.num_heads - 1);
  const Matrix* weights = session.host_matrix(head, compute::HeadMatrix::Weights);
  if (weights == nullptr) return 0.0f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float top_local = ImGui::GetCursorPosY();
  const float font = ImGui::GetFontSize();
  // Queries on the left, keys and values on the right, one token per row; a row is never
  // lower than its box (the view scrolls instead of squashing the boxes into each other).
  const float target_w = std::min(widest_token(p.tokens), width * 0.3f);
  const float source_w = std::min(widest_token(p.source_tokens), width * 0.3f);
  const float top = origin.y + font * 1.5f;
  const float box_slot = font + ImGui::GetStyle().FramePadding.y * 2.0f + 6.0f * ui.ui_scale;
  const float summary_h = ImGui::GetTextLineHeightWithSpacing() * 2.5f;
  const float rows_h =
      std::max({height - font * 1.5f - summary_h, box_slot * static_cast<float>(std::max(p.n(), p.m())), font * 4.0f});
  const std::vector<TokenBox> targets = place_column(p.tokens.size(), origin.x, target_w, top, rows_h);
  const std::vector<TokenBox> sources =
      place_column(p.source_tokens.size(), origin.x + width - source_w, source_w, top, rows_h);
  const int followed = ui.view.pinned_query.value_or(-1);

  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImU32 caption = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  list->AddText(ImVec2(origin.x, origin.y), caption, i18n::tr("queries (target)"));
  const char* source_caption = i18n::tr("keys and values (source)");
  list->AddText(ImVec2(origin.x + width - ImGui::CalcTextSize(source_caption).x, origin.y), caption, source_caption);
  const float thick = 7.0f * ui.ui_scale;
  for (int pass = 0; pass < 2; ++pass) {  // everyone faint first, the followed query on top
    for (int i = 0; i < p.n(); ++i) {
      const bool is_followed = i == followed;
      if ((pass == 1) != is_followed) continue;
      for (int j = 0; j < p.m(); ++j) {
        const float w = weights->at(i, j);
        if (w <= 0.01f) continue;
        const float alpha = followed >= 0 && !is_followed ? 0.18f * w : std::min(1.0f, 0.25f + w);
        const ImU32 colour =
            is_followed ? (ui::palette::strong_blue() & 0x00ffffffu) | (static_cast<ImU32>(alpha * 255.0f) << 24)
                        : ImGui::GetColorU32(ImGuiCol_Text, alpha);  // dark or light with the theme
        list->AddLine(targets[static_cast<std::size_t>(i)].right(), sources[static_cast<std::size_t>(j)].left(), colour,
                      std::max(1.0f, thick * w));
      }
    }
  }
  draw_boxes(list, targets, p.tokens, followed);
  draw_boxes(list, sources, p.source_tokens, -1);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (ImGui::IsMouseHoveringRect(targets[i].min, targets[i].max) && ImGui::IsMouseClicked(ImGuiMouseButton_Left) &&
        ImGui::IsWindowHovered())
      ui.view.pinned_query = static_cast<int>(i);
  }
  ImGui::Dummy(ImVec2(width, top - origin.y + rows_h + font * 0.5f));
  if (followed >= 0 && followed < p.n()) {  // the followed query's strongest source tokens, in words
    std::vector<int> order(static_cast<std::size_t>(p.m()));
    for (int j = 0; j < p.m(); ++j) order[static_cast<std::size_t>(j)] = j;
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return weights->at(followed, a) > weights->at(followed, b); });
    std::string most;  // "어제 (0.41), 밤에 (0.22)": tokens and numbers, the same in every language
    for (std::size_t k = 0; k < std::min<std::size_t>(3, order.size()); ++k)
      most += (k == 0 ? "" : ", ") + ui::token_label(p.source_tokens[static_cast<std::size_t>(order[k])]) + " (" +
              format_number(weights->at(followed, order[k]), 2) + ")";
    const std::string line =
        i18n::format(i18n::tr("%s attends most to %s"),
                     ui::token_label(p.tokens[static_cast<std::size_t>(followed)]).c_str(), most.c_str());
    ImGui::BeginGroup();
    text_wrapped_at_spaces(line, width, false);  // within the lines' column, never under the heatmap
    ImGui::EndGroup();
  }
  return ImGui::GetCursorPosY() - top_local;
}

float CrossView::draw_heatmap(ui::UiContext& ui, float width, float height) {
  const compute::ComputeSession& session = ui.session;
  const Problem& p = session.problem();
  const int head = std::clamp(ui.view.selected_head, 0, p.num_heads - 1);
  const float s = ui.ui_scale;
  const float top = ImGui::GetCursorPosY();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  ui::text_wrapped_disabled("%s", i18n::tr("weights: a row per target token, a column per source token"));
  ImGui::PopTextWrapPos();
  const compute::MatrixSource source = session.head_matrix(head, compute::HeadMatrix::Weights);
  const Matrix* values = session.host_matrix(head, compute::HeadMatrix::Weights);
  heatmap::HeatmapSpec spec;
  spec.source.device = source.device;
  spec.source.host = source.host;
  spec.source.version = source.version;
  spec.values = ui.view.show_numbers ? values : nullptr;
  spec.numbers = ui.view.show_numbers;
  spec.colormap = ui.view.weights_colormap;
  spec.mask = &p.mask;
  spec.mask_head = head;
  spec.mask_heads = p.num_heads;
  spec.row_labels = &p.tokens;
  spec.col_labels = &p.source_tokens;
  spec.row_label_width = heatmap::HeatmapWidget::row_label_width(p.tokens, 120.0f * s);
  // Cells as readable as in the step view: a number fits ("0.12" in the cells' font).
  ImFont* small = cell_font();
  const float small_size = small->FontSize * ImGui::GetIO().FontGlobalScale;
  MatrixBox box;
  box.rows = p.n();
  box.cols = p.m();
  box.min_cell = readable_cell(box.rows, box.cols, ui.view.show_numbers,
                               small->CalcTextSizeA(small_size, 1e9f, 0.0f, "0.00").x + 8.0f, ImGui::GetFontSize());
  box.row_label_w = spec.row_label_width;
  const std::vector<std::string>* columns = &p.source_tokens;
  box.col_label_h = [columns, s](float cell) {
    return heatmap::HeatmapWidget::col_label_height(*columns, cell, 110.0f * s);
  };
  PageSpace space;
  space.width = width;
  space.height = height - (ImGui::GetCursorPosY() - top);
  space.caption_h = 0.0f;
  space.colorbar_h = ImGui::GetFontSize() * 3.5f;
  space.max_cell = 80.0f * s;
  const PageLayout layout = layout_page({box}, space);
  const MatrixPlace& place = layout.places.front();
  spec.col_label_height = place.label_h;
  spec.cells_width = place.cell_w * static_cast<float>(p.m());
  spec.cells_height = place.cell_h * static_cast<float>(p.n());
  spec.pinned_row = ui.view.pinned_query.value_or(-1);
  spec.highlight_column = false;
  const heatmap::HeatmapHover hover = ui.heatmaps.draw("##cross-weights", spec);
  if (hover.clicked && hover.row >= 0) ui.view.pinned_query = hover.row;
  if (hover.hovered && hover.row >= 0 && hover.col >= 0 && values != nullptr)
    ImGui::SetTooltip("%s \xe2\x86\x92 %s: %s", ui::token_label(p.tokens[static_cast<std::size_t>(hover.row)]).c_str(),
                      ui::token_label(p.source_tokens[static_cast<std::size_t>(hover.col)]).c_str(),
                      format_number(values->at(hover.row, hover.col), 4).c_str());
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + spec.row_label_width);
  ui.heatmaps.colorbar(spec.colormap, spec.range_min, spec.range_max, std::max(spec.cells_width, 80.0f * s),
                       i18n::tr("weight"));
  return ImGui::GetCursorPosY() - top;
}

}  // namespace

std::unique_ptr<ui::Panel> make_cross_view() { return std::make_unique<CrossView>(); }

}  // namespace attnviz::classroom
