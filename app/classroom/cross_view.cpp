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
  [[nodiscard]] ImVec2 top() const { return ImVec2((min.x + max.x) * 0.5f, min.y); }
  [[nodiscard]] ImVec2 bottom() const { return ImVec2((min.x + max.x) * 0.5f, max.y); }
};

// Tokens spread evenly over [left, left + width] at height y, each in a rounded box.
std::vector<TokenBox> place_tokens(const std::vector<std::string>& tokens, float left, float width, float y) {
  std::vector<TokenBox> boxes;
  const float pad = ImGui::GetStyle().FramePadding.x;
  const float h = ImGui::GetFontSize() + ImGui::GetStyle().FramePadding.y * 2.0f;
  const float slot = width / static_cast<float>(std::max<std::size_t>(tokens.size(), 1));
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const float w = std::min(ImGui::CalcTextSize(tokens[i].c_str()).x + pad * 2.0f, slot - 2.0f);
    const float cx = left + slot * (static_cast<float>(i) + 0.5f);
    boxes.push_back({ImVec2(cx - w * 0.5f, y), ImVec2(cx + w * 0.5f, y + h)});
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
  const float top_y = origin.y + font * 1.6f;
  const float bottom_y = origin.y + std::max(height - font * 3.2f, font * 8.0f);
  const std::vector<TokenBox> targets = place_tokens(p.tokens, origin.x, width, top_y);
  const std::vector<TokenBox> sources = place_tokens(p.source_tokens, origin.x, width, bottom_y);
  const int followed = ui.view.pinned_query.value_or(-1);

  ImDrawList* list = ImGui::GetWindowDrawList();
  list->AddText(ImVec2(origin.x, origin.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), "queries");
  list->AddText(ImVec2(origin.x, bottom_y + font * 1.8f), ImGui::GetColorU32(ImGuiCol_TextDisabled), "keys and values");
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
        list->AddLine(targets[static_cast<std::size_t>(i)].bottom(), sources[static_cast<std::size_t>(j)].top(), colour,
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
    list->AddText(ImVec2(origin.x, bottom_y + font * 3.0f), ImGui::GetColorU32(ImGuiCol_Text), line.c_str());
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
  const float cell_w = (width - spec.row_label_width - 8.0f * s) / static_cast<float>(p.m());
  spec.col_label_height = heatmap::HeatmapWidget::col_label_height(p.source_tokens, cell_w, 110.0f * s);
  const float cell_h = (height - spec.col_label_height - ImGui::GetFontSize() * 4.0f) / static_cast<float>(p.n());
  const float cell = std::floor(std::max(std::min(cell_w, cell_h), 2.0f));
  spec.cells_width = cell * static_cast<float>(p.m());
  spec.cells_height = cell * static_cast<float>(p.n());
  spec.pinned_row = ui.view.pinned_query.value_or(-1);
  spec.highlight_column = false;
  ImGui::TextDisabled("weights: rows = target tokens, columns = source tokens");
  const heatmap::HeatmapHover hover = ui.heatmaps.draw("##cross-weights", spec);
  if (hover.clicked && hover.row >= 0) ui.view.pinned_query = hover.row;
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + spec.row_label_width);
  ui.heatmaps.colorbar(spec.colormap, spec.range_min, spec.range_max, spec.cells_width, "weight");
}

}  // namespace

std::unique_ptr<ui::Panel> make_cross_view() { return std::make_unique<CrossView>(); }

}  // namespace attnviz::classroom
