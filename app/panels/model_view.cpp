// Model view: a pretrained model at a glance. The grid of layers × heads as thumbnails of
// their weights (click one to open it in the Heatmaps view, right-click to switch it off or on),
// the selected head's switch with undo, the grid coloured by a head role instead (model_roles.h)
// with the heads highest in it, or in the grid's place the logit lens (model_lens.h) or direct
// logit attribution (model_attribution.h) or activation patching between two texts
// (model_patching.h), the next tokens after the text (BERT: the tokens it
// predicts at [MASK]) with their probabilities, and attention rollout across the layers (Abnar &
// Zuidema 2020) as a heatmap.
// Everything shown is the core's (app/compute/model_session.h); nothing is computed here.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "app/compute/model_session.h"
#include "app/export_ui/export_ui.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/heatmap/value_range.h"
#include "app/i18n/translate.h"
#include "app/panels/bundled_models.h"
#include "app/panels/heatmaps_parts.h"
#include "app/panels/model_attribution.h"
#include "app/panels/model_lens.h"
#include "app/panels/model_parts.h"
#include "app/panels/model_patching.h"
#include "app/panels/model_roles.h"
#include "app/panels/panels.h"
#include "app/ui/classroom_state.h"
#include "app/ui/long_text.h"
#include "app/ui/model_layer.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/undo_timeline.h"
#include "app/ui/view_state.h"

namespace attnviz::panels {
namespace {

using heatmap::HeatmapHover;
using heatmap::HeatmapSpec;

constexpr float kSideMinShare = 0.34f;  // of the view's width, at least: next tokens and rollout

// The grid's geometry: thumbnails `side` pixels square, `spacing` apart, after the row labels.
struct GridSize {
  float side = 0.0f;
  float spacing = 0.0f;
  float row_label_w = 0.0f;
  float top_h = 0.0f;  // the head numbers above the columns
  [[nodiscard]] float width(int heads) const { return row_label_w + static_cast<float>(heads) * (side + spacing); }
};

// The largest thumbnails that fit `layers` × `heads` into width × height (never so small that a
// pattern cannot be seen: the grid scrolls then).
GridSize grid_size(int layers, int heads, float width, float height, float ui_scale) {
  GridSize g;
  const float font = ImGui::GetFontSize();
  g.row_label_w = ImGui::CalcTextSize("L00").x + 0.5f * font;
  g.spacing = std::max(3.0f, 5.0f * ui_scale);
  g.top_h = font + g.spacing;
  const float by_width = (width - g.row_label_w) / static_cast<float>(heads) - g.spacing;
  const float by_height = (height - g.top_h) / static_cast<float>(layers) - g.spacing;
  g.side = std::floor(std::clamp(std::min(by_width, by_height), 18.0f * ui_scale, 150.0f * ui_scale));
  return g;
}

class ModelView final : public ui::Panel {
 public:
  [[nodiscard]] const char* title() const override { return ui::kModelViewTitle; }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Main; }
  void draw(ui::UiContext& ui) override;

 private:
  void draw_grid(ui::UiContext& ui, const model::ForwardResult& result, float width, float height);
  void draw_thumbnail(ui::UiContext& ui, const model::ForwardResult& result, int layer, int head, float side);
  void draw_selected(ui::UiContext& ui);
  static void draw_shown_choice(ui::ViewState& view);
  static float shown_choice_width();
  void draw_next_tokens(ui::UiContext& ui, const model::ForwardResult& result, float width);
  static void draw_token_bars(const std::vector<model::TokenProbability>& tokens, float width);
  void draw_rollout(ui::UiContext& ui, const model::ForwardResult& result, float width);

  std::string text_;
  ModelRoles roles_;
  ModelLens lens_;
  ModelAttribution attribution_;
  ModelPatching patching_;
  std::uint64_t rollout_generation_ = 0;
  heatmap::ValueRange rollout_range_;
  export_ui::RolloutExport rollout_export_;
};

// "2 heads switched, 1 matrix edited".
std::string edits_summary(const model::ModelEdits& edits) {
  std::string text;
  const std::size_t switched = edits.head_factors.size();
  const std::size_t edited = edits.weights.size();
  if (switched > 0) text = i18n::format(i18n::trn("%zu head switched", "%zu heads switched", switched), switched);
  if (edited > 0) {
    text += (text.empty() ? "" : ", ") +
            i18n::format(i18n::trn("%zu matrix edited", "%zu matrices edited", edited), edited);
  }
  return text;
}

// A head's weights as a thumbnail `side` pixels square; true when clicked.
bool draw_weights_thumbnail(ui::UiContext& ui, const char* id, const Matrix& weights, float side) {
  HeatmapSpec spec;
  spec.source.host = &weights;
  spec.source.version = ui.model.generation();
  spec.colormap = ui.view.weights_colormap;
  const bool log = ui::resolve(ui.view.weights_range, weights.rows) == ui::WeightsRange::Log;
  spec.range_min = log ? heatmap::kLogWeights.min : 0.0f;
  spec.log_scale = log;
  spec.cells_width = side;
  spec.cells_height = side;
  spec.numbers = false;
  spec.max_samples = 1;
  return ui.heatmaps.draw(id, spec).clicked;
}

void draw_no_model(ui::UiContext& ui) {
  ImGui::Spacing();
  ui::text_wrapped("%s", i18n::tr("Open a pretrained model you have on disk: a Hugging Face folder (config.json, "
                                  "model.safetensors and the tokenizer files of GPT-2, a Llama-family model or "
                                  "BERT) or a .gguf file. Every layer's and head's attention then shows here, with "
                                  "the next tokens and attention rollout."));
  if (ImGui::Button(i18n::tr_label("Open a model\xE2\x80\xA6", "Open a model\xE2\x80\xA6##model-view").c_str()))
    ui.view.open_model_dialog_requested = true;
  ImGui::TextDisabled("%s", i18n::tr("or start attnviz --model PATH --text \"...\""));
  draw_bundled_model_buttons(ui);
}

void ModelView::draw(ui::UiContext& ui) {
  roles_.update(ui);
  lens_.update(ui, ui.view.model_shown == ui::ModelShown::Lens);
  attribution_.update(ui, ui.view.model_shown == ui::ModelShown::Attribution);
  patching_.update(ui, ui.view.model_shown == ui::ModelShown::Patching);
  draw_model_bar(ui, "model-view", text_);
  const model::ForwardResult* result = ui.model.result();
  if (result == nullptr || result->layers.empty()) {
    if (!ui.model.busy()) draw_no_model(ui);
    return;
  }
  ImGui::Separator();
  const ImVec2 area = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetFontSize() * 1.5f;
  // The grid as large as the height allows, the rest of the width to the next tokens and rollout.
  const int layers = static_cast<int>(result->layers.size());
  const int heads = std::max<int>(1, static_cast<int>(result->layers.front().attention.heads.size()));
  const float grid_h =
      area.y - 3.0f * ImGui::GetFrameHeightWithSpacing() - ModelRoles::chooser_height(ui) - title_height();
  const float most_grid_w = area.x * (1.0f - kSideMinShare) - gap;
  const GridSize by_height = grid_size(layers, heads, most_grid_w, grid_h, ui.ui_scale);
  // The lens's table and the bars take all the room they may; the grid no more than its
  // thumbnails need, and at least what the Show line needs (a deep model's grid is narrow).
  const float grid_w = ui.view.model_shown != ui::ModelShown::Heads
                           ? most_grid_w
                           : std::min(most_grid_w, std::max(shown_choice_width(),
                                                            by_height.width(heads) + ImGui::GetStyle().ScrollbarSize));
  const float side_w = area.x - grid_w - gap;
  if (ImGui::BeginChild("##model-grid-column", ImVec2(grid_w, area.y), false)) {
    draw_selected(ui);
    draw_shown_choice(ui.view);
    if (ui.view.model_shown == ui::ModelShown::Lens) {
      lens_.draw(ui, grid_w, ImGui::GetContentRegionAvail().y);
    } else if (ui.view.model_shown == ui::ModelShown::Attribution) {
      attribution_.draw(ui, grid_w, ImGui::GetContentRegionAvail().y);
    } else if (ui.view.model_shown == ui::ModelShown::Patching) {
      patching_.draw(ui, grid_w, ImGui::GetContentRegionAvail().y);
    } else {
      roles_.draw_chooser(ui, grid_w);
      draw_grid(ui, *result, grid_w, ImGui::GetContentRegionAvail().y);
    }
  }
  ImGui::EndChild();
  ImGui::SameLine(0.0f, gap);
  if (ImGui::BeginChild("##model-side-column", ImVec2(side_w, area.y), false)) {
    if (ui.view.model_shown == ui::ModelShown::Heads && roles_.colouring(ui)) {
      roles_.draw_strongest(ui, side_w);
      ImGui::Spacing();
    }
    draw_next_tokens(ui, *result, side_w);
    ImGui::Spacing();
    draw_rollout(ui, *result, side_w);
  }
  ImGui::EndChild();
}

// The selected head's switch, undo and redo.
void ModelView::draw_selected(ui::UiContext& ui) {
  compute::ModelSession& model = ui.model;
  ImGui::AlignTextToFramePadding();
  ImGui::Text(i18n::tr("Layer %d head %d"), ui.view.model_layer, ui.view.model_head);
  ImGui::SameLine();
  draw_head_switch(ui, "model-switch", ui.view.model_layer, ui.view.model_head);
  ImGui::BeginDisabled(!model.can_undo());
  if (ImGui::Button(i18n::tr_label("Undo", "Undo##model").c_str()))
    ui.undo.undo(ui.document, model, ui::History::Model);
  if (model.can_undo() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(i18n::tr("Undo %s"), model.undo_label().c_str());
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!model.can_redo());
  if (ImGui::Button(i18n::tr_label("Redo", "Redo##model").c_str()))
    ui.undo.redo(ui.document, model, ui::History::Model);
  if (model.can_redo() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(i18n::tr("Redo %s"), model.redo_label().c_str());
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(model.edits().head_factors.empty());
  if (ImGui::Button(i18n::tr_label("Every head on", "Every head on##model").c_str())) model.reset_heads();
  ImGui::EndDisabled();
  const std::size_t switched = model.edits().head_factors.size();
  const std::size_t edited = model.edits().weights.size();
  if (switched > 0 || edited > 0) {
    ImGui::SameLine();
    ImGui::TextColored(ui::palette::vec4(ui::palette::warning_text()), "%s", edits_summary(model.edits()).c_str());
  }
}

// Whether the grid of heads, the logit lens, the logit attribution or the patching fills the column.
// The Show line's width: its word and four radio buttons with their labels.
float ModelView::shown_choice_width() {
  const ImGuiStyle& style = ImGui::GetStyle();
  float width = ImGui::CalcTextSize(i18n::tr("Show")).x;
  for (const char* label :
       {i18n::tr("Layers \xC3\x97 heads"), i18n::tr("Logit lens"), i18n::tr("Logit attribution"), i18n::tr("Patching")})
    width += style.ItemSpacing.x + ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
  return width + style.ItemSpacing.x;
}

void ModelView::draw_shown_choice(ui::ViewState& view) {
  using ui::ModelShown;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Show"));
  ImGui::SameLine();
  if (ImGui::RadioButton(i18n::tr_label("Layers \xC3\x97 heads", "model-show-heads").c_str(),
                         view.model_shown == ModelShown::Heads))
    view.model_shown = ModelShown::Heads;
  ImGui::SameLine();
  if (ImGui::RadioButton(i18n::tr_label("Logit lens", "model-show-lens").c_str(), view.model_shown == ModelShown::Lens))
    view.model_shown = ModelShown::Lens;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s",
                      i18n::tr("What the model would predict if it ended after each layer (nostalgebraist 2020)"));
  ImGui::SameLine();
  if (ImGui::RadioButton(i18n::tr_label("Logit attribution", "model-show-attribution").c_str(),
                         view.model_shown == ModelShown::Attribution))
    view.model_shown = ModelShown::Attribution;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s",
                      i18n::tr("How much each head, MLP, the embeddings and the biases add to one token's logit"));
  ImGui::SameLine();
  if (ImGui::RadioButton(i18n::tr_label("Patching", "model-show-patching").c_str(),
                         view.model_shown == ModelShown::Patching))
    view.model_shown = ModelShown::Patching;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", i18n::tr("Each head's output taken from a second text of the same length: how much one "
                                     "token's logit moves (activation patching)"));
}

void ModelView::draw_grid(ui::UiContext& ui, const model::ForwardResult& result, float width, float height) {
  const int layers = static_cast<int>(result.layers.size());
  const int heads = result.layers.front().attention.heads.empty()
                        ? 0
                        : static_cast<int>(result.layers.front().attention.heads.size());
  if (heads == 0) return;
  const float line_start = ImGui::GetCursorPosX();
  const bool coloured = roles_.colouring(ui);
  heading(i18n::tr("Layers \xC3\x97 heads"),
          i18n::tr("weights \xC2\xB7 click: open in Heatmaps \xC2\xB7 right-click: switch off / on"),
          coloured ? width - export_ui::export_button_room() : width);
  if (coloured) roles_.draw_export(ui, line_start + width);
  const float font = ImGui::GetFontSize();
  const GridSize g =
      grid_size(layers, heads, width - ImGui::GetStyle().ScrollbarSize, height - title_height(), ui.ui_scale);
  const float side = g.side;
  const float spacing = g.spacing;
  const float row_label_w = g.row_label_w;
  const float top_h = g.top_h;
  if (!ImGui::BeginChild("##model-grid", ImVec2(0.0f, 0.0f), false, ImGuiWindowFlags_HorizontalScrollbar)) {
    ImGui::EndChild();
    return;
  }
  const ImVec2 origin = ImGui::GetCursorPos();
  const bool short_heads = ImGui::CalcTextSize(("h" + std::to_string(heads - 1)).c_str()).x > side;
  for (int h = 0; h < heads; ++h) {
    if (short_heads && h % 4 != 0) continue;
    ImGui::SetCursorPos(ImVec2(origin.x + row_label_w + static_cast<float>(h) * (side + spacing), origin.y));
    const char* long_name = i18n::tr("head %d");
    ImGui::TextDisabled(side > ImGui::CalcTextSize(i18n::format(long_name, 10).c_str()).x ? long_name : "h%d", h);
  }
  for (int l = 0; l < layers; ++l) {
    const float y = origin.y + top_h + static_cast<float>(l) * (side + spacing);
    ImGui::SetCursorPos(ImVec2(origin.x, y + 0.5f * (side - font)));
    ImGui::TextDisabled("L%d", result.layers[static_cast<std::size_t>(l)].layer);
    for (int h = 0; h < heads; ++h) {
      ImGui::SetCursorPos(ImVec2(origin.x + row_label_w + static_cast<float>(h) * (side + spacing), y));
      draw_thumbnail(ui, result, l, h, side);
    }
  }
  ImGui::EndChild();
}

void ModelView::draw_thumbnail(ui::UiContext& ui, const model::ForwardResult& result, int index, int head, float side) {
  const model::LayerAttention& layer = result.layers[static_cast<std::size_t>(index)];
  const HeadResult& h = layer.attention.heads[static_cast<std::size_t>(head)];
  const std::string id = "##thumb-" + std::to_string(layer.layer) + "-" + std::to_string(head);
  // Coloured by a head role, a cell is its value's colour; else the head's weights in small.
  const bool clicked = roles_.colouring(ui) ? roles_.draw_cell(ui, id.c_str(), index, head, side)
                                            : draw_weights_thumbnail(ui, id.c_str(), h.weights, side);

  const ImVec2 a = ImGui::GetItemRectMin();
  const ImVec2 b = ImGui::GetItemRectMax();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const std::optional<float> factor = ui.model.head_factor(layer.layer, head);
  if (factor) {
    // Off: a veil and a cross; scaled: the factor in the corner.
    if (*factor == 0.0f) {
      draw->AddRectFilled(a, b, ui::palette::veil(0xb0));
      draw->AddLine(a, b, ui::palette::error_text(), 2.0f * ui.ui_scale);
      draw->AddLine(ImVec2(a.x, b.y), ImVec2(b.x, a.y), ui::palette::error_text(), 2.0f * ui.ui_scale);
    } else {
      char text[16];
      std::snprintf(text, sizeof text, "\xC3\x97%.2g", static_cast<double>(*factor));
      draw->AddRectFilled(a, ImVec2(a.x + ImGui::CalcTextSize(text).x + 4.0f, a.y + ImGui::GetFontSize()),
                          ui::palette::veil(0xe0));
      draw->AddText(ImVec2(a.x + 2.0f, a.y), ui::palette::warning_text(), text);
    }
  }
  const bool weights_edited = std::any_of(
      ui.model.edits().weights.begin(), ui.model.edits().weights.end(),
      [&](const auto& edit) { return std::get<0>(edit.first) == layer.layer && std::get<1>(edit.first) == head; });
  if (weights_edited) {  // its W_Q, W_K or W_V edited: a "W" in the bottom corner
    const ImVec2 size = ImGui::CalcTextSize("W");
    draw->AddRectFilled(ImVec2(b.x - size.x - 4.0f, b.y - size.y), b, ui::palette::veil(0xe0));
    draw->AddText(ImVec2(b.x - size.x - 2.0f, b.y - size.y), ui::palette::warning_text(), "W");
  }
  if (layer.layer == ui.view.model_layer && head == ui.view.model_head) {
    draw->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2), ui::palette::strong_blue(), 0.0f, 0,
                  2.5f * ui.ui_scale);
  }
  if (clicked) {
    ui.view.model_layer = layer.layer;
    ui.view.model_head = head;
    ui.view.heatmaps_show_scenario = false;
    ui.view.select_main_tab = "Heatmaps";  // not translated: the tab's ID
  }
  if (ImGui::IsItemHovered()) {
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Right)) {
      ui.view.model_layer = layer.layer;
      ui.view.model_head = head;
      const bool off = factor && *factor == 0.0f;
      ui.model.set_head_factor(layer.layer, head, off ? std::nullopt : std::optional<float>(0.0f));
    }
    const bool off = factor && *factor == 0.0f;
    ImGui::SetTooltip("%s%s%s\n%s\n%s", i18n::format(i18n::tr("layer %d head %d"), layer.layer, head).c_str(),
                      factor ? (off ? i18n::tr(" (off)") : i18n::tr(" (scaled)")) : "",
                      roles_.tooltip_line(ui, index, head).c_str(), i18n::tr("click: open it in the Heatmaps view"),
                      off ? i18n::tr("right-click: switch it on") : i18n::tr("right-click: switch it off"));
  }
}

// BERT predicts the token hidden as [MASK] (the core's query_tokens, at the first [MASK]); the
// others the token after the text.
void ModelView::draw_next_tokens(ui::UiContext& ui, const model::ForwardResult& result, float width) {
  const bool masked_lm = ui::model_is_encoder(ui);
  if (masked_lm) {
    const std::string where =
        result.query_position >= 0 ? i18n::format(i18n::tr("token %d"), result.query_position) : std::string();
    heading(i18n::tr("Predicted at [MASK]"), where.c_str(), width);
  } else {
    const std::string last = result.tokens.empty() ? std::string() : result.tokens.back();
    heading(i18n::tr("Next token"), i18n::format(i18n::tr("after \xE2\x80\x9C%s\xE2\x80\x9D"), last.c_str()).c_str(),
            width);
  }
  if (result.next_tokens.empty()) {
    ImGui::TextDisabled("%s", i18n::tr("This model has no language-model head: it predicts no tokens."));
    return;
  }
  if (masked_lm && result.query_tokens.empty()) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    ui::text_lines_disabled(
        i18n::tr("BERT predicts a word hidden as [MASK]: put [MASK] in the text, as in "
                 "\xE2\x80\x9CThe capital of France is [MASK].\xE2\x80\x9D"));
    ImGui::PopTextWrapPos();
    return;
  }
  if (!ui.model.shown_edits().empty()) {
    ImGui::TextColored(ui::palette::vec4(ui::palette::warning_text()), i18n::tr("with %s"),
                       edits_summary(ui.model.shown_edits()).c_str());
  }
  draw_token_bars(masked_lm ? result.query_tokens : result.next_tokens, width);
}

// The tokens as a list with their probabilities as bars.
void ModelView::draw_token_bars(const std::vector<model::TokenProbability>& tokens, float width) {
  const float label_w = std::floor(width * 0.5f);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const model::TokenProbability& next = tokens[i];
    char label[200];
    const char* format = "%2zu. %s##next-token-%zu";  // not translated: a number, a token and an ID
    std::snprintf(label, sizeof label, format, i + 1, ui::token_label(next.token).c_str(), i);
    ImGui::Selectable(label, false, ImGuiSelectableFlags_None, ImVec2(label_w, 0.0f));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(i18n::tr("token id %d, logit %.4g, p = %.6f"), next.id, static_cast<double>(next.logit),
                        next.p);
    ImGui::SameLine();
    // The bar: an item whose ID holds the probability, so that the widget log (and a test) reads it.
    char percent[64];
    std::snprintf(percent, sizeof percent, "%.2f%%##next-p-%zu", 100.0 * next.p, i);  // not translated: an ID
    const float bar_w = std::max(1.0f, ImGui::GetContentRegionAvail().x);
    ImGui::InvisibleButton(percent, ImVec2(bar_w, ImGui::GetTextLineHeight()));
    const ImVec2 a = ImGui::GetItemRectMin();
    const ImVec2 b = ImGui::GetItemRectMax();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
    draw->AddRectFilled(a, ImVec2(a.x + (b.x - a.x) * static_cast<float>(std::clamp(next.p, 0.0, 1.0)), b.y),
                        ImGui::GetColorU32(ImGuiCol_PlotHistogram));
    const std::string shown(percent, std::strchr(percent, '#'));
    const ImVec2 size = ImGui::CalcTextSize(shown.c_str());
    draw->AddText(ImVec2(b.x - size.x - 4.0f, a.y), ImGui::GetColorU32(ImGuiCol_Text), shown.c_str());
  }
}

void ModelView::draw_rollout(ui::UiContext& ui, const model::ForwardResult& result, float width) {
  const Matrix& rollout = ui.model.rollout();
  const int layers = static_cast<int>(result.layers.size());
  if (rollout_generation_ != ui.model.generation()) {
    rollout_range_ = heatmap::zero_to_max(rollout);
    rollout_generation_ = ui.model.generation();
  }
  const float line_start = ImGui::GetCursorPosX();
  heading(i18n::tr("Attention rollout"),
          i18n::format(i18n::trn("through all %d layer", "through all %d layers", static_cast<unsigned long>(layers)),
                       layers)
              .c_str(),
          width - export_ui::export_button_room());
  rollout_export_.draw(ui, line_start + width, {rollout_range_.min, rollout_range_.max});
  if (rollout.empty()) {
    ImGui::TextDisabled("%s", i18n::tr("Not computed past 512 tokens (a product of N \xC3\x97 N matrices per layer)."));
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ui::text_wrapped("%s", i18n::tr("Abnar & Zuidema 2020: heads averaged, 0.5\xC2\xB7"
                                  "A + 0.5\xC2\xB7I, rows renormalised, multiplied through the layers"));
  ImGui::PopStyleColor();
  const float height = ImGui::GetContentRegionAvail().y;
  const float label_w = heatmap::HeatmapWidget::row_label_width(result.tokens, width * 0.25f);
  const float room_w = width - label_w - heatmap::HeatmapWidget::label_overhang();
  const float n = static_cast<float>(std::max(1, rollout.rows));
  const float col_label_h = heatmap::HeatmapWidget::col_label_height(result.tokens, room_w / n, height * 0.25f);
  const float side = std::max(60.0f * ui.ui_scale, std::min(room_w, height - col_label_h - colorbar_height() -
                                                                        2.0f * ImGui::GetStyle().ItemSpacing.y));
  HeatmapSpec spec;
  spec.source.host = &rollout;
  spec.source.version = ui.model.generation();
  spec.values = &rollout;
  spec.range_min = rollout_range_.min;
  spec.range_max = rollout_range_.max;
  spec.colormap = ui.view.weights_colormap;
  spec.row_labels = &result.tokens;
  spec.col_labels = &result.tokens;
  spec.row_label_width = label_w;
  spec.col_label_height = col_label_h;
  spec.cells_width = side;
  spec.cells_height = side;
  spec.highlight_token = ui.view.hovered_model_token;
  spec.numbers = ui.view.show_numbers && !ui::is_long_sentence(rollout.rows);
  const HeatmapHover hover = ui.heatmaps.draw("##model-rollout", spec);
  if (hover.hovered && hover.row >= 0 && hover.col >= 0 && hover.row < rollout.rows && hover.col < rollout.cols) {
    ui.view.hovered_model_token_next = hover.row;
    ImGui::SetTooltip(
        i18n::tr("rollout: \xE2\x80\x9C%s\xE2\x80\x9D draws %.3g of its input from \xE2\x80\x9C%s\xE2\x80\x9D"),
        token_text(result.tokens, hover.row).c_str(), static_cast<double>(rollout.at(hover.row, hover.col)),
        token_text(result.tokens, hover.col).c_str());
  }
  export_ui::RolloutExport::hover_actions(ui, hover.hovered);  // Ctrl+C: copy as CSV
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label_w);
  ui.heatmaps.colorbar(spec.colormap, spec.range_min, spec.range_max, side,
                       i18n::tr("rollout (0 to its largest value)"));
}

}  // namespace

std::unique_ptr<ui::Panel> make_model_view() { return std::make_unique<ModelView>(); }

}  // namespace attnviz::panels
