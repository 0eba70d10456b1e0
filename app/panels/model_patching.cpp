#include "app/panels/model_patching.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>

#include "app/compute/model_messages.h"
#include "app/compute/model_session.h"
#include "app/heatmap/colormaps.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/i18n/translate.h"
#include "app/panels/heatmaps_parts.h"
#include "app/ui/classroom_state.h"
#include "app/ui/long_text.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/common/error.h"
#include "core/export/heads_figures.h"
#include "core/heads/heads_json.h"
#include "core/heads/patching.h"
#include "core/model/model.h"
#include "core/tokenizers/tokenizer.h"

namespace attnviz::panels {
namespace {

// The largest |effect|: the diverging scale runs from minus it to it (1 when every effect is 0).
double largest_effect(const heads::Patching& p) {
  double largest = 0.0;
  for (const auto& layer : p.patched)
    for (const double logit : layer) largest = std::max(largest, std::abs(logit - p.clean_logit));
  return largest > 0.0 ? largest : 1.0;
}

}  // namespace

void ModelPatching::update(ui::UiContext& ui, bool shown) {
  if (ui.model.model() != model_) {  // another model (or none): its patching and choices go
    session_.clear();
    model_ = ui.model.model();
    target_.reset();
    position_.reset();
    counted_generation_ = 0;
  }
  if (session_.poll() || session_.busy()) ui.classroom.wants_frames = true;
  const model::ForwardResult* result = ui.model.result();
  if (!shown || result == nullptr) return;
  count_second_text(ui);
  if (second_.empty() || second_tokens_ != static_cast<int>(result->ids.size())) return;
  if (session_.requested() != ask(ui)) {
    session_.request(ui.model.shared_model(), ui.model.shared_result(), ui.model.shown_edits(), ask(ui));
    ui.classroom.wants_frames = true;
  }
}

compute::PatchingAsk ModelPatching::ask(const ui::UiContext& ui) const {
  compute::PatchingAsk out;
  out.source = ui.model.generation();
  out.corrupted = second_;
  out.target = target_.target();
  if (const model::ForwardResult* result = ui.model.result())
    out.patched_position = patched_position(static_cast<int>(result->ids.size()));
  return out;
}

std::optional<int> ModelPatching::patched_position(int n) const {
  if (!one_position_ || n <= 0) return std::nullopt;
  return std::min(position_.value_or(n - 1), n - 1);
}

// The second text's tokens, counted again only when it or the model's result changed (a
// tokenizer's work, no forward pass).
void ModelPatching::count_second_text(const ui::UiContext& ui) {
  if (counted_generation_ == ui.model.generation() && counted_text_ == second_) return;
  counted_generation_ = ui.model.generation();
  counted_text_ = second_;
  second_tokens_ = -1;
  count_error_.clear();
  if (second_.empty() || ui.model.model() == nullptr) return;
  try {
    second_tokens_ = static_cast<int>(ui.model.model()->tokenizer().encode(second_, "--corrupted-text").ids.size());
  } catch (const InputError& e) {
    count_error_ = compute::window_message(e);
  } catch (const std::exception& e) {
    count_error_ = e.what();
  }
}

void ModelPatching::draw(ui::UiContext& ui, float width, float height) {
  const float top = ImGui::GetCursorPosY();
  const float line_start = ImGui::GetCursorPosX();
  heading(i18n::tr("Activation patching"),
          i18n::tr("each head's output taken from a second text: its effect on one logit"),
          width - export_ui::export_button_room());
  if (session_.patching() != nullptr) {
    export_.draw(ui, "patching", line_start + width,
                 i18n::tr("Every head's patching effect as shown: the heatmap (PNG, SVG) or the numbers (CSV, or "
                          "JSON as attnviz patch writes it)."),
                 [this] {
                   const compute::HeadPatching& p = *session_.patching();
                   export_ui::HeadsExportContent content;
                   content.json = heads::patching_json(p.clean, p.corrupted, p.patching);
                   content.csv = exporting::patching_csv(p.patching);
                   content.figure =
                       exporting::patching_figure(p.patching, p.clean.tokens, p.corrupted.tokens, i18n::wording());
                   return content;
                 });
  }
  draw_second_text(ui, width);
  target_.draw(ui, "patch", width);
  draw_positions(ui, width);
  draw_status(ui, width);
  const compute::HeadPatching* shown = session_.patching();
  if (shown == nullptr) return;
  draw_heatmap(ui, *shown, width, height - (ImGui::GetCursorPosY() - top));
}

// The second text's field, its length against the text's, and the offer to cut the longer.
void ModelPatching::draw_second_text(ui::UiContext& ui, float width) {
  const model::ForwardResult& result = *ui.model.result();
  const int n = static_cast<int>(result.ids.size());
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Second text"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(8.0f * ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x));
  ImGui::InputTextWithHint("##patch-second-text", i18n::tr("as long in tokens as the text, e.g. The Colosseum is in"),
                           &second_);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", i18n::tr("Each head's output, at the positions chosen under Patch, is taken from this "
                                     "text's run"));
  count_second_text(ui);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  if (!count_error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
    ui::text_wrapped("%s", count_error_.c_str());
    ImGui::PopStyleColor();
  } else if (second_.empty()) {
    ImGui::TextDisabled(
        i18n::trn("Type a second text of %d token, as many as the text.",
                  "Type a second text of %d tokens, as many as the text.", static_cast<unsigned long>(n)),
        n);
  } else if (second_tokens_ != n) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::warning_text());
    ui::text_wrapped(i18n::tr("The second text makes %d tokens, the text %d: patching needs the same length."),
                     second_tokens_, n);
    ImGui::PopStyleColor();
    const int shorter = std::min(second_tokens_, n);
    const std::string label = (second_tokens_ > n ? i18n::format(i18n::tr("Cut the second text to %d tokens"), shorter)
                                                  : i18n::format(i18n::tr("Cut the text to %d tokens"), shorter)) +
                              "###patch-cut";
    if (ImGui::Button(label.c_str())) {
      const tokenizers::Tokenizer& tokenizer = ui.model.model()->tokenizer();
      try {
        if (second_tokens_ > n) {
          second_ = heads::text_cut_to_tokens(tokenizer, second_, shorter);
        } else {
          ui.model.set_text(heads::text_cut_to_tokens(tokenizer, ui.model.requested_text(), shorter));
        }
      } catch (const std::exception& e) {
        count_error_ = e.what();
      }
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", i18n::tr("Keeps the longer text's start that makes as many tokens as the shorter"));
  }
  ImGui::PopTextWrapPos();
}

// Every position's outputs, or one position's (a slider; the last, the target's, by default).
void ModelPatching::draw_positions(const ui::UiContext& ui, float width) {
  const model::ForwardResult& result = *ui.model.result();
  const int n = static_cast<int>(result.ids.size());
  const float font = ImGui::GetFontSize();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Patch"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::min(10.0f * font, 0.35f * width));
  if (ImGui::BeginCombo("##patch-positions", one_position_ ? i18n::tr("one position") : i18n::tr("all positions"))) {
    if (ImGui::Selectable(i18n::tr_label("all positions", "patch-all").c_str(), !one_position_)) one_position_ = false;
    if (ImGui::Selectable(i18n::tr_label("one position", "patch-one").c_str(), one_position_)) one_position_ = true;
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", i18n::tr("A head's output at every position, or at one position alone (the others keep the "
                                     "text's own): one position reruns only the rows from it to the last, far faster"));
  }
  if (!one_position_ || n == 0) return;
  ImGui::SameLine();
  int position = *patched_position(n);
  ImGui::SetNextItemWidth(std::min(10.0f * font, 0.3f * width));
  if (ImGui::SliderInt("##patch-position", &position, 0, n - 1, "%d", ImGuiSliderFlags_AlwaysClamp))
    position_ = position == n - 1 ? std::nullopt : std::optional<int>(position);
  ImGui::SameLine();
  ImGui::TextDisabled("\xE2\x80\x9C%s\xE2\x80\x9D",
                      ui::token_label(result.tokens[static_cast<std::size_t>(position)]).c_str());
}

// What is being done or why there is no patching; else the two runs' logits.
void ModelPatching::draw_status(const ui::UiContext& ui, float width) const {
  const compute::HeadPatching* shown = session_.patching();
  const model::ForwardResult& result = *ui.model.result();
  const bool asked = !second_.empty() && second_tokens_ == static_cast<int>(result.ids.size());
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  if (!session_.error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
    ui::text_wrapped(i18n::tr("No patching: %s%s"), session_.error().c_str(),
                     shown ? i18n::tr(" (the last one is shown)") : "");
    ImGui::PopStyleColor();
  } else if (asked && (session_.busy() || session_.requested() != ask(ui))) {
    const int runs = static_cast<int>(result.layers.size() * result.layers.front().attention.heads.size()) + 2;
    ImGui::TextDisabled(shown ? i18n::tr("recomputing the patching (%d forward passes)\xE2\x80\xA6")
                              : i18n::tr("patching every head (%d forward passes)\xE2\x80\xA6"),
                        runs);
  }
  if (shown != nullptr) {
    const heads::Patching& p = shown->patching;
    const std::string token = ui::token_label(p.target_token);
    ui::text_wrapped(i18n::tr("logit of \xE2\x80\x9C%s\xE2\x80\x9D at position %d: %.3f with the text, %.3f with the "
                              "second text; difference %.3f"),
                     token.c_str(), p.position, p.clean_logit, p.corrupted_logit, p.clean_logit - p.corrupted_logit);
    char id[96];
    std::snprintf(id, sizeof id, "%.6f %.6f %d %d##patch-logits",  // not translated: an ID a test reads
                  p.clean_logit, p.corrupted_logit, p.target, p.position);
    ImGui::InvisibleButton(id, ImVec2(1.0f, 1.0f));
  }
  ImGui::PopTextWrapPos();
}

// Layers down, heads across: each cell the effect (patched − clean logit) in diverging colours,
// its value in it where it fits; the legend below.
void ModelPatching::draw_heatmap(ui::UiContext& ui, const compute::HeadPatching& shown, float width,
                                 float height) const {
  const heads::Patching& p = shown.patching;
  const int layers = static_cast<int>(p.patched.size());
  const int heads = layers == 0 ? 0 : static_cast<int>(p.patched.front().size());
  if (heads == 0) return;
  const double largest = largest_effect(p);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float font = ImGui::GetFontSize();
  const float row_label_w = ImGui::CalcTextSize("L00").x + 0.5f * font;
  const float spacing = std::max(2.0f, 2.0f * ui.ui_scale);
  const float legend_h = colorbar_height() + 3.0f * (style.ItemSpacing.y + font);
  const float top_h = font + spacing;
  const float by_width = (width - row_label_w - style.ScrollbarSize) / static_cast<float>(heads) - spacing;
  const float by_height = (height - top_h - legend_h) / static_cast<float>(layers) - spacing;
  const float side = std::floor(std::clamp(std::min(by_width, by_height), 16.0f * ui.ui_scale, 90.0f * ui.ui_scale));
  const float grid_w = row_label_w + static_cast<float>(heads) * (side + spacing);
  const float grid_h = top_h + static_cast<float>(layers) * (side + spacing);
  const float child_h = std::min(grid_h + style.ScrollbarSize, std::max(4.0f * font, height - legend_h));
  if (ImGui::BeginChild("##patch-grid", ImVec2(width, child_h), false, ImGuiWindowFlags_HorizontalScrollbar)) {
    const ImVec2 origin = ImGui::GetCursorPos();
    const bool short_heads = ImGui::CalcTextSize(("h" + std::to_string(heads - 1)).c_str()).x > side;
    for (int h = 0; h < heads; ++h) {
      if (short_heads && h % 4 != 0) continue;
      ImGui::SetCursorPos(ImVec2(origin.x + row_label_w + static_cast<float>(h) * (side + spacing), origin.y));
      const std::string long_label = i18n::format(i18n::tr("head %d"), heads - 1);
      ImGui::TextDisabled(side > ImGui::CalcTextSize(long_label.c_str()).x ? i18n::tr("head %d") : "h%d", h);
    }
    ImDrawList* draw = ImGui::GetWindowDrawList();
    // One size for every cell's value: the font's, or four fifths of it, or none where the
    // widest value does not fit.
    char widest[32];
    std::snprintf(widest, sizeof widest, "%+.1f", -largest);
    float cell_font = 0.0f;
    for (const float scale : {1.0f, 0.8f}) {
      if (ImGui::GetFont()->CalcTextSizeA(font * scale, FLT_MAX, 0.0f, widest).x + 4.0f > side) continue;
      cell_font = font * scale;
      break;
    }
    for (int l = 0; l < layers; ++l) {
      const float y = origin.y + top_h + static_cast<float>(l) * (side + spacing);
      ImGui::SetCursorPos(ImVec2(origin.x, y + 0.5f * (side - font)));
      ImGui::TextDisabled("L%d", l);
      for (int h = 0; h < heads; ++h) {
        const double patched = p.patched[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)];
        const double effect = patched - p.clean_logit;
        ImGui::SetCursorPos(ImVec2(origin.x + row_label_w + static_cast<float>(h) * (side + spacing), y));
        // The cell: an item whose ID holds the effect, so that the widget log (and a test) reads it.
        char id[64];
        std::snprintf(id, sizeof id, "%.6f##patch-%d-%d", effect, l, h);  // not translated: an ID
        const bool clicked = ImGui::InvisibleButton(id, ImVec2(side, side));
        const ImVec2 a = ImGui::GetItemRectMin();
        const ImVec2 b = ImGui::GetItemRectMax();
        const float t = static_cast<float>(0.5 + 0.5 * effect / largest);
        const heatmap::Rgb colour = heatmap::sample(heatmap::Colormap::RdBu, t);
        draw->AddRectFilled(a, b, ImGui::ColorConvertFloat4ToU32(ImVec4(colour.r, colour.g, colour.b, 1.0f)));
        if (cell_font > 0.0f) {
          char text[32];
          std::snprintf(text, sizeof text, "%+.1f", std::abs(effect) < 0.05 ? 0.0 : effect);  // no "-0.0"
          const ImVec2 size = ImGui::GetFont()->CalcTextSizeA(cell_font, FLT_MAX, 0.0f, text);
          draw->AddText(ImGui::GetFont(), cell_font, ImVec2(a.x + 0.5f * (side - size.x), a.y + 0.5f * (side - size.y)),
                        heatmap::contrasting_text_colour(colour), text);
        }
        if (l == ui.view.model_layer && h == ui.view.model_head)
          draw->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), ui::palette::strong_blue(), 0.0f, 0,
                        2.0f * ui.ui_scale);
        if (clicked) {
          ui.view.model_layer = l;
          ui.view.model_head = h;
          ui.view.heatmaps_show_scenario = false;
          ui.view.select_main_tab = "Heatmaps";  // not translated: the tab's ID
        }
        if (ImGui::IsItemHovered()) {
          ImGui::SetTooltip(i18n::tr("layer %d head %d\nlogit with its output from the second text: %.4f\neffect "
                                     "(patched \xE2\x88\x92 clean): %+.4f\nclick: open its attention in the Heatmaps "
                                     "view"),
                            l, h, patched, effect);
        }
      }
    }
  }
  ImGui::EndChild();
  const float bar_w = std::max(40.0f, std::min(grid_w, font * 24.0f));
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + row_label_w);
  const std::string caption =
      i18n::format(i18n::tr("effect on the logit of \xE2\x80\x9C%s\xE2\x80\x9D (patched \xE2\x88\x92 clean)"),
                   ui::token_label(p.target_token).c_str());
  ui.heatmaps.colorbar(heatmap::Colormap::RdBu, static_cast<float>(-largest), static_cast<float>(largest), bar_w,
                       caption.c_str());
  // A diverging bar shows its 0 where the caption would go: the caption under it.
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + row_label_w);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::max(bar_w, width - row_label_w));
  ImGui::TextDisabled("%s", caption.c_str());
  ImGui::TextDisabled("%s", i18n::tr("blue: the head's output from the second text lowers the logit; red: raises it"));
  ImGui::PopTextWrapPos();
}

}  // namespace attnviz::panels
