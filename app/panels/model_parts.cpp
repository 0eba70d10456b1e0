// The model bar above both model views, the head switch, and the Heatmaps view's model mode:
// the chosen layer's and head's raw scores Q·Kᵀ, weights and context as the core computed them,
// with the cells the Model view's head role is read from outlined in the weights.

#include "app/panels/model_parts.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "app/compute/model_messages.h"
#include "app/compute/model_session.h"
#include "app/export_ui/export_ui.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/i18n/translate.h"
#include "app/panels/heatmaps_parts.h"
#include "app/panels/model_roles.h"
#include "app/ui/model_layer.h"
#include "app/ui/long_text.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/common/number_text.h"

namespace attnviz::panels {
namespace {

using heatmap::HeatmapHover;
using heatmap::HeatmapSpec;

// The file or folder a path names ("gpt2" for "models/gpt2/"), for a line that has no room for
// the whole path.
std::string path_name(const std::string& path) {
  const std::filesystem::path p = std::filesystem::path(path).lexically_normal();
  return p.has_filename() ? p.filename().string() : p.parent_path().filename().string();
}

// How far the worker is, on the model bar's first line: a short bar with its percentage, what
// it does and Cancel. The bar held the whole "opening /a/long/path…" label, which ImGui centres
// and so cut at its start, and on a line of its own it pushed everything below down while it
// showed (the Model view's grid jumped at each recompute).
void draw_progress(ui::UiContext& ui, const char* id) {
  compute::ModelSession& model = ui.model;
  const model::Progress progress = model.progress();
  const bool loading = model.activity() == compute::ModelActivity::Loading;
  std::string doing = loading ? i18n::format(i18n::tr("Opening %s"), path_name(model.loading_path()).c_str())
                              : std::string(i18n::tr("Computing"));
  if (!progress.stage.empty()) doing += ": " + progress.stage;
  doing += "\xE2\x80\xA6";
  char percent[16];
  std::snprintf(percent, sizeof percent, "%.0f%%", 100.0 * progress.fraction);
  ImGui::ProgressBar(static_cast<float>(progress.fraction), ImVec2(ImGui::GetFontSize() * 6.0f, 0.0f), percent);
  if (loading && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", model.loading_path().c_str());
  ImGui::SameLine();
  ImGui::TextUnformatted(doing.c_str());
  ImGui::SameLine();
  if (ImGui::Button(i18n::tr_label("Cancel", id).c_str())) model.cancel();
}

void draw_error(compute::ModelSession& model) {
  const std::string& error = model.error();
  if (error.empty()) return;
  if (ImGui::SmallButton(i18n::tr_label("Dismiss", "Dismiss##model-error").c_str())) {
    model.dismiss_error();
    return;
  }
  ImGui::SameLine();
  if (error == "cancelled") {
    ImGui::TextDisabled("%s", i18n::tr("Cancelled: the window shows what it showed before."));
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
  ui::text_wrapped("%s%s", error.c_str(),
                   model.result() != nullptr ? i18n::tr("  (the window shows the last result)") : "");
  ImGui::PopStyleColor();
  // A text too long for the model: its start that fits, one click (and one Ctrl+Z) away.
  if (const model::TextCut* cut = model.text_cut()) {
    const std::string label = i18n::format(i18n::trn("Keep the first %s token", "Keep the first %s tokens",
                                                     static_cast<unsigned long>(cut->tokens)),
                                           format_grouped(cut->tokens).c_str()) +
                              "##model-text-cut";
    if (ImGui::Button(label.c_str())) model.keep_text_start();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "%s",
          i18n::tr("The text up to the word that would pass the model's limit; Ctrl+Z brings the whole text back"));
  }
}

// The tokens as chips, wrapping; hovering one highlights it in every heatmap.
void draw_tokens(ui::UiContext& ui, const std::vector<std::string>& tokens) {
  const float right = ImGui::GetWindowContentRegionMax().x;
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(4.0f * ui.ui_scale, 1.0f * ui.ui_scale));
  ImGui::PushStyleColor(ImGuiCol_Button, ImGui::ColorConvertU32ToFloat4(ui::palette::chip_fill()));
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_Text));  // on the chip, either theme
  const std::size_t shown = std::min<std::size_t>(tokens.size(), 256);            // the rest says how many
  for (std::size_t i = 0; i < shown; ++i) {
    const std::string text = ui::token_label(tokens[i]);
    const std::string label = text + "##token" + std::to_string(i);
    const float width = ImGui::CalcTextSize(text.c_str()).x + 8.0f * ui.ui_scale;
    if (i > 0 &&
        ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetStyle().ItemSpacing.x + width < right) {
      ImGui::SameLine();
    }
    const bool hovered_elsewhere = ui.view.hovered_model_token == static_cast<int>(i);
    if (hovered_elsewhere) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonHovered));
    ImGui::SmallButton(label.c_str());
    if (hovered_elsewhere) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) {
      ui.view.hovered_model_token_next = static_cast<int>(i);
      ui::token_tooltip(i18n::format(i18n::tr("token %zu"), i), tokens[i]);
    }
  }
  ImGui::PopStyleColor(2);
  ImGui::PopStyleVar();
  if (shown < tokens.size()) {
    ImGui::SameLine();
    ImGui::TextDisabled(i18n::tr("\xE2\x80\xA6 and %zu more"), tokens.size() - shown);
  }
}

constexpr std::uint32_t kOutline = 0xffff30ffu;  // magenta (ABGR): apart from every colormap's colours

// The role's key cells outlined over a heatmap's cells (x0, y0, width × height, n × n cells).
// Past a few thousand cells only the first are outlined: each is a rectangle drawn every frame.
void outline_cells(const std::vector<std::pair<int, int>>& cells, ImVec2 origin, float width, float height, int n,
                   float ui_scale) {
  constexpr std::size_t kMostOutlined = 4096;
  const float cw = width / static_cast<float>(n);
  const float ch = height / static_cast<float>(n);
  const float thickness = std::clamp(std::min(cw, ch) * 0.15f, 1.0f, 2.5f * ui_scale);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (std::size_t i = 0; i < cells.size() && i < kMostOutlined; ++i) {
    const auto [row, col] = cells[i];
    if (row >= n || col >= n) continue;
    const ImVec2 a(origin.x + static_cast<float>(col) * cw, origin.y + static_cast<float>(row) * ch);
    draw->AddRect(a, ImVec2(a.x + cw, a.y + ch), kOutline, 0.0f, 0, thickness);
  }
}

// Under the weights: a magenta square and what it marks ("induction: the token after an earlier
// occurrence"), or that the text has no such cell. Nothing for a role read from whole rows.
void draw_outline_legend(const ui::UiContext& ui, bool none) {
  if (!ui.view.model_role || *role_key_cells_label(*ui.view.model_role) == '\0') return;
  const heads::Role role = *ui.view.model_role;
  const float side = ImGui::GetTextLineHeight() * 0.8f;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float inset = 0.5f * (ImGui::GetTextLineHeight() - side);
  ImGui::GetWindowDrawList()->AddRect(ImVec2(at.x + inset, at.y + inset),
                                      ImVec2(at.x + inset + side, at.y + inset + side), kOutline, 0.0f, 0, 2.0f);
  ImGui::Dummy(ImVec2(ImGui::GetTextLineHeight(), ImGui::GetTextLineHeight()));
  ImGui::SameLine();
  const std::string text = i18n::format(none ? i18n::tr("%s: %s (none in this text)") : i18n::tr("%s: %s"),
                                        role_label(role), role_key_cells_label(role));
  ImGui::TextDisabled("%s", text.c_str());
}

}  // namespace

bool heatmaps_show_model(const ui::UiContext& ui) {
  return !ui.view.heatmaps_show_scenario &&
         (ui.model.has_model() || ui.model.activity() == compute::ModelActivity::Loading);
}

void draw_model_bar(ui::UiContext& ui, const char* id, std::string& text) {
  compute::ModelSession& model = ui.model;
  ImGui::PushID(id);
  // The first line is a frame's height whether or not the progress shows on it.
  ImGui::AlignTextToFramePadding();
  if (model.activity() == compute::ModelActivity::Loading) {
    draw_progress(ui, id);  // says what it opens
  } else if (model.has_model()) {
    ImGui::TextUnformatted(compute::model_description(*model.model()).c_str());
    if (model.busy()) {
      ImGui::SameLine(0.0f, ImGui::GetFontSize() * 1.5f);
      draw_progress(ui, id);
    }
  } else {
    ImGui::TextDisabled("%s", i18n::tr("No model open yet."));
  }
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Text"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1.0f);
  if (ImGui::InputTextWithHint("##model-text", i18n::tr("the text the model reads"), &text)) model.set_text(text);
  if (!ImGui::IsItemActive() && text != model.requested_text()) text = model.requested_text();
  draw_error(model);
  if (const model::ForwardResult* result = model.result()) draw_tokens(ui, result->tokens);
  ImGui::PopID();
}

void draw_head_switch(ui::UiContext& ui, const char* id, int layer, int head) {
  compute::ModelSession& model = ui.model;
  ImGui::PushID(id);
  const std::optional<float> factor = model.head_factor(layer, head);
  const bool off = factor && *factor == 0.0f;
  // The layer and head in the ID: a test (and the widget log) sees which head the button switches.
  // The ID is the English label's in every language.
  const std::string which = "##" + std::to_string(layer) + "-" + std::to_string(head);
  if (off) {
    if (ImGui::Button(i18n::tr_label("Switch on", ("Switch on" + which).c_str()).c_str()))
      model.set_head_factor(layer, head, std::nullopt);
  } else if (ImGui::Button(i18n::tr_label("Switch off", ("Switch off" + which).c_str()).c_str())) {
    model.set_head_factor(layer, head, 0.0f);
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(i18n::tr("Layer %d head %d: its context times 0 (off) before W_O; every later layer and the next "
                               "tokens are recomputed"),
                      layer, head);
  }
  ImGui::SameLine();
  // Applied when let go: one recompute and one undo step per change, not one per pixel dragged.
  // Until then the slider shows the value being dragged (kept in ImGui's storage for this
  // switch: the session still has the old factor), and takes it into the release frame.
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID held_key = ImGui::GetID("##scale-held");
  const float held = storage->GetFloat(held_key, -1.0f);  // < 0: not being dragged
  float scale = held >= 0.0f ? held : factor.value_or(1.0f);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
  ImGui::SliderFloat(i18n::tr_label("scale").c_str(), &scale, 0.0f, 2.0f, "\xC3\x97 %.2f",
                     ImGuiSliderFlags_AlwaysClamp);
  storage->SetFloat(held_key, ImGui::IsItemActive() ? scale : -1.0f);
  if (ImGui::IsItemDeactivatedAfterEdit()) model.set_head_factor(layer, head, scale);
  ImGui::PopID();
}

// On the same line as the last item when `width` more pixels fit there (after a wider gap
// between groups), else on the next: the selector row wraps in a narrow window.
void same_line_if_fits(float width) {
  const float gap = ImGui::GetFontSize() * 1.5f;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + gap + width <= right) ImGui::SameLine(0.0f, gap);
}

void ModelHeatmaps::draw_selectors(ui::UiContext& ui, int layers, int heads) {
  ui.view.model_layer = std::clamp(ui.view.model_layer, 0, layers - 1);
  ui.view.model_head = std::clamp(ui.view.model_head, 0, heads - 1);
  const float font = ImGui::GetFontSize();
  const float frame = ImGui::GetFrameHeight();
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const std::string widest = i18n::tr("Layer") + (" " + i18n::format(i18n::tr("of %d"), 9999));
  const float selector_w = ImGui::CalcTextSize(widest.c_str()).x + 10.0f * font + 2.0f * spacing;
  ui::draw_layer_selector(ui, "heatmaps");
  same_line_if_fits(selector_w);
  ui::draw_index_selector(N_("Head"), "##model-head", &ui.view.model_head, heads);
  const std::string switch_texts = std::string(i18n::tr("Switch off")) + " " + i18n::tr("scale");
  same_line_if_fits(ImGui::CalcTextSize(switch_texts.c_str()).x + 9.0f * font + 2.0f * frame + 3.0f * spacing);
  draw_head_switch(ui, "heatmaps-switch", ui.view.model_layer, ui.view.model_head);
  const std::string attention = i18n::tr_label("Attention", "Attention##model-shows");
  same_line_if_fits(ImGui::CalcTextSize((attention + " W_Q, W_K, W_V").c_str(), nullptr, true).x + 2.0f * frame +
                    3.0f * spacing);
  ImGui::BeginGroup();
  if (ImGui::RadioButton(attention.c_str(), !show_weights_)) show_weights_ = false;
  ImGui::SameLine();
  if (ImGui::RadioButton("W_Q, W_K, W_V##model-shows", show_weights_)) show_weights_ = true;  // not translated: names
  ImGui::EndGroup();
  const std::string show_scenario = i18n::tr_label("Show the scenario");
  same_line_if_fits(ImGui::CalcTextSize(show_scenario.c_str(), nullptr, true).x + frame);
  if (ImGui::SmallButton(show_scenario.c_str())) ui.view.heatmaps_show_scenario = true;
}

void ModelHeatmaps::update_ranges(const ui::UiContext& ui, int layer, int head) {
  if (ranges_generation_ == ui.model.generation() && ranges_layer_ == layer && ranges_head_ == head) return;
  const model::ForwardResult& result = *ui.model.result();
  const Result& attention = result.layers[static_cast<std::size_t>(layer)].attention;
  const HeadResult& h = attention.heads[static_cast<std::size_t>(head)];
  scores_ = heatmap::symmetric_range(h.scores, 1.0f, &attention.mask_of(static_cast<std::size_t>(head)));
  context_ = heatmap::symmetric_range(h.context);
  ranges_generation_ = ui.model.generation();
  ranges_layer_ = layer;
  ranges_head_ = head;
}

const std::vector<std::pair<int, int>>& ModelHeatmaps::key_cells(const ui::UiContext& ui) {
  if (key_cells_generation_ != ui.model.generation() || key_cells_role_ != ui.view.model_role) {
    key_cells_.clear();
    if (ui.view.model_role && ui.model.result() != nullptr)
      key_cells_ = heads::role_key_cells(*ui.view.model_role, ui.model.result()->ids);
    key_cells_generation_ = ui.model.generation();
    key_cells_role_ = ui.view.model_role;
  }
  return key_cells_;
}

void ModelHeatmaps::draw(ui::UiContext& ui) {
  draw_model_bar(ui, "heatmaps-model", text_);
  const model::ForwardResult* result = ui.model.result();
  if (result == nullptr || result->layers.empty()) return;
  const model::ModelConfig& config = ui.model.model()->config();
  draw_selectors(ui, static_cast<int>(result->layers.size()), config.num_heads);
  ImGui::Separator();
  const int layer = ui.view.model_layer;
  const int head = ui.view.model_head;
  if (show_weights_) {
    weights_.draw(ui, layer, head);
    return;
  }
  const Result& attention = result->layers[static_cast<std::size_t>(layer)].attention;
  if (head >= static_cast<int>(attention.heads.size())) return;
  const HeadResult& h = attention.heads[static_cast<std::size_t>(head)];
  update_ranges(ui, layer, head);

  // Three heatmaps side by side, rows aligned: the raw scores, the weights, the context.
  const ImVec2 area = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetFontSize() * 1.5f;
  const int n = std::max(1, h.weights.rows);
  const float label_w = heatmap::HeatmapWidget::row_label_width(result->tokens, area.x * 0.12f);
  // The context's cells as wide as the others' (d_head columns beside N), at most as wide as them.
  const float context_share = std::min(1.0f, static_cast<float>(h.context.cols) / static_cast<float>(n));
  const float room = area.x - 3.0f * label_w - 2.0f * gap - heatmap::HeatmapWidget::label_overhang();
  const float by_width = std::max(40.0f, room / (2.0f + context_share));
  const float col_label_h =
      heatmap::HeatmapWidget::col_label_height(result->tokens, by_width / static_cast<float>(n), area.y * 0.2f);
  const float by_height =
      area.y - col_label_h - title_height(2) - colorbar_height() - (ui.view.model_role ? title_height() : 0.0f);
  const float cells_h = std::max(40.0f, std::min(by_width, by_height));
  const float cells_w = cells_h;
  const float context_w = std::max(40.0f, std::floor(cells_w * context_share));
  const bool long_text = ui::is_long_sentence(n);
  const bool log = ui::resolve(ui.view.weights_range, n) == ui::WeightsRange::Log;
  const std::string scores_formula = i18n::format(i18n::tr("Q\xC2\xB7K\xE1\xB5\x80, layer %d head %d"), layer, head);
  std::vector<std::string> dims;
  for (int c = 0; c < h.context.cols; ++c) dims.push_back(std::to_string(c));

  // The causal mask (Mistral's sliding window too) hatched on the weights, as for a scenario.
  MaskSetting mask;
  mask.causal = config.causal();
  if (config.sliding_window) mask.window = *config.sliding_window - 1;

  struct Part {
    const char* id;
    const char* title;  // shown translated
    std::string formula;
    const Matrix* values;
    heatmap::ValueRange range;
    heatmap::Colormap colormap;
    const std::vector<std::string>* cols;
    bool log;
    exporting::Quantity quantity;  // what its export button and Ctrl+C write
  };
  const Part parts[] = {
      {"##model-scores", i18n::tr("Raw scores"), scores_formula, &h.scores, scores_, ui.view.scores_colormap,
       &result->tokens, false, exporting::Quantity::Scores},
      {"##model-weights", i18n::tr("Weights"),
       i18n::tr("softmax(S / \xE2\x88\x9A"
                "d_k, masked)"),
       &h.weights, log ? heatmap::kLogWeights : heatmap::ValueRange{0.0f, 1.0f}, ui.view.weights_colormap,
       &result->tokens, log, exporting::Quantity::Weights},
      {"##model-context", i18n::tr("Context"), "A\xC2\xB7V", &h.context, context_, ui.view.scores_colormap, &dims,
       false, exporting::Quantity::Context},
  };
  const float top = ImGui::GetCursorPosY();
  float x = ImGui::GetCursorPosX();
  for (int i = 0; i < 3; ++i) {
    const Part& part = parts[i];
    const float width = i < 2 ? cells_w : context_w;
    ImGui::SetCursorPos(ImVec2(x, top));
    const float cells_end = x + label_w + width;
    x += label_w + width + gap;
    ImGui::BeginGroup();
    const int lines = title_lines(part.title, part.formula.c_str(), label_w + width);
    title_line(part.title, part.formula.c_str(), label_w + width, lines > 1);
    export_ui::heatmap_export_button(ui, part.quantity, cells_end);  // the layer and head shown (window_source.h)
    if (lines > 1) formula_line(part.formula.c_str(), label_w + width);
    HeatmapSpec spec;
    spec.source.host = part.values;
    spec.source.version = ui.model.generation();
    spec.values = part.values;
    spec.range_min = part.range.min;
    spec.range_max = part.range.max;
    spec.log_scale = part.log;
    spec.colormap = part.colormap;
    spec.row_labels = &result->tokens;
    spec.col_labels = part.cols;
    spec.row_label_width = label_w;
    spec.col_label_height = col_label_h;
    spec.cells_width = width;
    spec.cells_height = cells_h;
    if (i == 1 && (mask.causal || mask.window)) spec.mask = &mask;
    spec.highlight_token = ui.view.hovered_model_token;
    spec.highlight_column = i < 2;
    spec.numbers = ui.view.show_numbers && !long_text;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const HeatmapHover hover = ui.heatmaps.draw(part.id, spec);
    if (i == 1) {
      outline_cells(key_cells(ui), ImVec2(origin.x + label_w, origin.y + col_label_h), width, cells_h, n, ui.ui_scale);
    }
    if (hover.hovered && hover.row >= 0 && hover.col >= 0 && hover.row < part.values->rows &&
        hover.col < part.values->cols) {
      ui.view.hovered_model_token_next = hover.row;
      const char* tip = i < 2 ? i18n::tr("%s  query %d \xE2\x80\x9C%s\xE2\x80\x9D, key %d: %.4g")
                              : i18n::tr("%s  query %d \xE2\x80\x9C%s\xE2\x80\x9D, dimension %d: %.4g");
      ImGui::SetTooltip(tip, part.title, hover.row, token_text(result->tokens, hover.row).c_str(), hover.col,
                        static_cast<double>(part.values->at(hover.row, hover.col)));
    }
    export_ui::heatmap_hover_actions(ui, part.quantity, hover.hovered);  // Ctrl+C: copy as CSV
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label_w);
    ui.heatmaps.colorbar(part.colormap, part.range.min, part.range.max, width, part.title, part.log);
    if (i == 1) {
      ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label_w);
      draw_outline_legend(ui, key_cells(ui).empty());
    }
    ImGui::EndGroup();
  }
}

}  // namespace attnviz::panels
