// Cross-attention: the target sentence (queries) on top, the source sentence (keys and values)
// below, a line from each query token to each source token as strong as its weight; the
// followed query's lines are drawn on top in the pinned colour. Beside it, the weights as a
// heatmap with both sentences on its axes.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/classroom/classroom_state.h"
#include "app/classroom/draw_helpers.h"
#include "app/classroom/step_view.h"
#include "app/compute/compute_session.h"
#include "app/heatmap/heatmap_overlay.h"
#include "app/state/document.h"
#include "app/ui/view_state.h"
#include "core/lesson/number_text.h"

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

void draw_boxes(ImDrawList* list, const std::vector<TokenBox>& boxes, const std::vector<std::string>& tokens, int selected) {
  const ImU32 fill = ImGui::GetColorU32(ImGuiCol_Button);
  const ImU32 border = ImGui::GetColorU32(ImGuiCol_Border);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const float pad = ImGui::GetStyle().FramePadding.x;
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const bool chosen = static_cast<int>(i) == selected;
    list->AddRectFilled(boxes[i].min, boxes[i].max, chosen ? heatmap::kPinnedColour : fill, 4.0f);
    list->AddRect(boxes[i].min, boxes[i].max, border, 4.0f);
    const std::string label = heatmap::ellipsize(ImGui::GetFont(), ImGui::GetFontSize(), tokens[i], boxes[i].max.x - boxes[i].min.x - pad);
    const float w = ImGui::CalcTextSize(label.c_str()).x;
    list->AddText(ImVec2((boxes[i].min.x + boxes[i].max.x - w) * 0.5f, boxes[i].min.y + ImGui::GetStyle().FramePadding.y),
                  chosen ? 0xffffffffu : text, label.c_str());
  }
}

class CrossView final : public ui::Panel {
 public:
  [[nodiscard]] const char* title() const override { return tab_title(MainView::Cross); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Main; }
  void draw(ui::UiContext& ui) override;

 private:
  void draw_lines(ui::UiContext& ui, float width, float height);
  void draw_heatmap(ui::UiContext& ui, float width, float height);
};

void offer_source(ui::UiContext& ui) {
  ImGui::TextWrapped("This scenario attends within one sentence (self-attention). Cross-attention takes the queries "
                     "from this sentence and the keys and values from a second one, the way a translation model's "
                     "decoder reads the sentence it translates.");
  if (ImGui::Button("Add a source sentence")) {
    Scenario next = ui.document.scenario();
    next.source = SourceSetting{};
    next.source->sentence = next.sentence;
    ui.document.apply(std::move(next), "Add a source sentence");
  }
  ImGui::TextDisabled("Then type it in the Source sentence panel, or open the preset cross-attention (File menu).");
}

void CrossView::draw(ui::UiContext& ui) {
  ClassroomState& state = classroom_state();
  state.shown = MainView::Cross;
  state.shown_frame = ImGui::GetFrameCount();
  if (!ui.session.has_result()) {
    ImGui::TextWrapped("Nothing to show yet. %s", ui.session.error().c_str());
    return;
  }
  const Problem& p = ui.session.problem();
  if (!p.cross_attention) {
    offer_source(ui);
    return;
  }
  const std::optional<SourceSetting>& source = ui.document.scenario().source;
  ImGui::Text("Queries (target):  %s", ui.document.scenario().sentence.c_str());
  ImGui::Text("Keys and values (source):  %s", source ? source->sentence.c_str() : "");
  const int head = std::clamp(ui.view.selected_head, 0, p.num_heads - 1);
  ImGui::TextDisabled("head %d of %d  \xc2\xb7  line strength = attention weight  \xc2\xb7  click a query token to follow it",
                      head, p.num_heads);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float heatmap_w = std::floor(avail.x * 0.42f);
  ImGui::BeginChild("##cross-lines", ImVec2(avail.x - heatmap_w, avail.y));
  draw_lines(ui, avail.x - heatmap_w - 16.0f * ui.ui_scale, avail.y);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("##cross-heatmap", ImVec2(heatmap_w, avail.y));
  draw_heatmap(ui, heatmap_w, avail.y);
  ImGui::EndChild();
}

void CrossView::draw_lines(ui::UiContext& ui, float width, float height) {
  const compute::ComputeSession& session = ui.session;
  const Problem& p = session.problem();
  const int head = std::clamp(ui.view.selected_head, 0, p.num_heads - 1);
  const Matrix* weights = session.host_matrix(head, compute::HeadMatrix::Weights);
  if (weights == nullptr) return;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float font = ImGui::GetFontSize();
  // Queries on the left, keys and values on the right, one token per row.
  const float target_w = std::min(widest_token(p.tokens), width * 0.3f);
  const float source_w = std::min(widest_token(p.source_tokens), width * 0.3f);
  const float top = origin.y + font * 1.5f;
  const float rows_h = std::max(height - font * 4.0f, font * 4.0f);
  const std::vector<TokenBox> targets = place_column(p.tokens.size(), origin.x, target_w, top, rows_h);
  const std::vector<TokenBox> sources = place_column(p.source_tokens.size(), origin.x + width - source_w, source_w, top, rows_h);
  const int followed = ui.view.pinned_query.value_or(-1);

  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImU32 caption = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  list->AddText(ImVec2(origin.x, origin.y), caption, "queries (target)");
  const char* source_caption = "keys and values (source)";
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
        const ImU32 colour = is_followed ? (heatmap::kPinnedColour & 0x00ffffffu) | (static_cast<ImU32>(alpha * 255.0f) << 24)
                                         : IM_COL32(40, 60, 90, static_cast<int>(alpha * 255.0f));
        list->AddLine(targets[static_cast<std::size_t>(i)].right(), sources[static_cast<std::size_t>(j)].left(), colour,
                      std::max(1.0f, thick * w));
      }
    }
  }
  draw_boxes(list, targets, p.tokens, followed);
  draw_boxes(list, sources, p.source_tokens, -1);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (ImGui::IsMouseHoveringRect(targets[i].min, targets[i].max) && ImGui::IsMouseClicked(ImGuiMouseButton_Left))
      ui.view.pinned_query = static_cast<int>(i);
  }
  if (followed >= 0 && followed < p.n()) {  // the followed query's strongest source tokens, in words
    std::vector<int> order(static_cast<std::size_t>(p.m()));
    for (int j = 0; j < p.m(); ++j) order[static_cast<std::size_t>(j)] = j;
    std::sort(order.begin(), order.end(), [&](int a, int b) { return weights->at(followed, a) > weights->at(followed, b); });
    std::string line = p.tokens[static_cast<std::size_t>(followed)] + " attends most to";
    for (std::size_t k = 0; k < std::min<std::size_t>(3, order.size()); ++k)
      line += (k == 0 ? " " : ", ") + p.source_tokens[static_cast<std::size_t>(order[k])] + " (" +
              lesson::format_number(weights->at(followed, order[k]), 2) + ")";
    list->AddText(ImVec2(origin.x, top + rows_h + font * 0.8f), ImGui::GetColorU32(ImGuiCol_Text), line.c_str());
  }
  ImGui::Dummy(ImVec2(width, height));
}

void CrossView::draw_heatmap(ui::UiContext& ui, float width, float height) {
  const compute::ComputeSession& session = ui.session;
  const Problem& p = session.problem();
  const int head = std::clamp(ui.view.selected_head, 0, p.num_heads - 1);
  const float s = ui.ui_scale;
  const compute::MatrixSource source = session.head_matrix(head, compute::HeadMatrix::Weights);
  heatmap::HeatmapSpec spec;
  spec.source.device = source.device;
  spec.source.host = source.host;
  spec.source.version = source.version;
  spec.values = ui.view.show_numbers ? session.host_matrix(head, compute::HeadMatrix::Weights) : nullptr;
  spec.numbers = ui.view.show_numbers;
  spec.colormap = ui.view.weights_colormap;
  spec.mask = &p.mask;
  spec.row_labels = &p.tokens;
  spec.col_labels = &p.source_tokens;
  spec.row_label_width = heatmap::HeatmapWidget::row_label_width(p.tokens, 120.0f * s);
  // Column labels turn vertical (and need more height) when cells get narrow: fit twice.
  float cell = (width - spec.row_label_width - 8.0f * s) / static_cast<float>(p.m());
  for (int pass = 0; pass < 2; ++pass) {
    spec.col_label_height = heatmap::HeatmapWidget::col_label_height(p.source_tokens, cell, 110.0f * s);
    cell = std::min(cell, (height - spec.col_label_height - ImGui::GetFontSize() * 4.0f) / static_cast<float>(p.n()));
  }
  cell = std::floor(std::max(cell, 2.0f));
  spec.col_label_height = heatmap::HeatmapWidget::col_label_height(p.source_tokens, cell, 110.0f * s);
  spec.cells_width = cell * static_cast<float>(p.m());
  spec.cells_height = cell * static_cast<float>(p.n());
  spec.pinned_row = ui.view.pinned_query.value_or(-1);
  spec.highlight_column = false;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("weights: a row per target token, a column per source token");
  ImGui::PopTextWrapPos();
  const heatmap::HeatmapHover hover = ui.heatmaps.draw("##cross-weights", spec);
  if (hover.clicked && hover.row >= 0) ui.view.pinned_query = hover.row;
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + spec.row_label_width);
  ui.heatmaps.colorbar(spec.colormap, spec.range_min, spec.range_max, spec.cells_width, "weight");
}

}  // namespace

std::unique_ptr<ui::Panel> make_cross_view() { return std::make_unique<CrossView>(); }

}  // namespace attnviz::classroom
