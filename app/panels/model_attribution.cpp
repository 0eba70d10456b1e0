#include "app/panels/model_attribution.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "app/compute/model_session.h"
#include "app/i18n/translate.h"
#include "app/panels/heatmaps_parts.h"
#include "app/ui/classroom_state.h"
#include "app/ui/long_text.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/export/heads_figures.h"
#include "core/heads/heads_json.h"
#include "core/model/model.h"
#include "core/tokenizers/tokenizer.h"

namespace attnviz::panels {
namespace {

// A part as the bars name it: "L1 H2", "L1 MLP", "L1 attention bias", "embeddings", "final bias".
std::string part_label(const heads::AttributionPart& part) {
  switch (part.kind) {
    case heads::PartKind::Embedding: return i18n::tr("embeddings");
    case heads::PartKind::Head: return i18n::format(i18n::tr("L%d H%d"), part.layer, part.head);
    case heads::PartKind::AttentionBias: return i18n::format(i18n::tr("L%d attention bias"), part.layer);
    case heads::PartKind::Mlp: return i18n::format(i18n::tr("L%d MLP"), part.layer);
    case heads::PartKind::FinalBias: return i18n::tr("final bias");
  }
  return "";
}

// The language-independent ID of a part's bar: "dla-head-1-2".
std::string part_id(const heads::AttributionPart& part) {
  return std::string("dla-") + heads::part_kind_name(part.kind) + "-" + std::to_string(part.layer) + "-" +
         std::to_string(part.head);
}

}  // namespace

void ModelAttribution::update(ui::UiContext& ui, bool shown) {
  if (ui.model.model() != model_) {  // another model (or none): its attribution and choices go
    session_.clear();
    model_ = ui.model.model();
    target_.reset();
    position_.reset();
  }
  if (session_.poll() || session_.busy()) ui.classroom.wants_frames = true;
  const model::ForwardResult* result = ui.model.result();
  if (!shown || result == nullptr) return;
  if (position_ && *position_ >= static_cast<int>(result->ids.size())) position_.reset();  // a shorter text
  if (session_.requested() != ask(ui)) {
    session_.request(ui.model.shared_model(), ui.model.shared_result(), ui.model.shown_edits(), ask(ui));
    ui.classroom.wants_frames = true;
  }
}

compute::AttributionAsk ModelAttribution::ask(const ui::UiContext& ui) const {
  return compute::AttributionAsk{ui.model.generation(), target_.target(), position_};
}

void ModelAttribution::draw(ui::UiContext& ui, float width, float height) {
  const float top = ImGui::GetCursorPosY();
  const float line_start = ImGui::GetCursorPosX();
  heading(i18n::tr("Direct logit attribution"), i18n::tr("each part of the final residual's share of one logit"),
          width - export_ui::export_button_room());
  if (session_.attribution() != nullptr) {
    export_.draw(ui, "attribution", line_start + width,
                 i18n::tr("The parts of the logit as shown: the 24 largest as a chart (PNG, SVG) or every part "
                          "(CSV, or JSON as attnviz attribute writes it)."),
                 [this] {
                   const heads::Attribution& a = session_.attribution()->attribution;
                   export_ui::HeadsExportContent content;
                   content.json = heads::attribution_json(a);
                   content.csv = exporting::attribution_csv(a);
                   content.figure = exporting::attribution_figure(a, i18n::wording());
                   return content;
                 });
  }
  draw_choices(ui, width);
  draw_status(ui, width);
  const compute::LogitAttribution* shown = session_.attribution();
  const model::ForwardResult* result = ui.model.result();
  if (shown == nullptr || result == nullptr || shown->attribution.position >= static_cast<int>(result->ids.size()))
    return;
  draw_bars(ui, *shown, width, height - (ImGui::GetCursorPosY() - top));
}

// The position (a slider over the text's tokens) and the target (the next-token list, or typed).
void ModelAttribution::draw_choices(ui::UiContext& ui, float width) {
  const model::ForwardResult& result = *ui.model.result();
  const int n = static_cast<int>(result.ids.size());
  const float font = ImGui::GetFontSize();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Position"));
  ImGui::SameLine();
  int position = position_.value_or(n - 1);
  ImGui::SetNextItemWidth(std::min(10.0f * font, 0.3f * width));
  if (ImGui::SliderInt("##dla-position", &position, 0, n - 1, "%d", ImGuiSliderFlags_AlwaysClamp))
    position_ = position == n - 1 ? std::nullopt : std::optional<int>(position);
  ImGui::SameLine();
  ImGui::TextDisabled("\xE2\x80\x9C%s\xE2\x80\x9D", token_text(result.tokens, position).c_str());

  target_.draw(ui, "dla", width);
}

void TargetChooser::reset() {
  target_.reset();
  label_.clear();
  typed_[0] = '\0';
  typed_error_.clear();
}

// The target: the next-token list after the text, or typed.
void TargetChooser::draw(const ui::UiContext& ui, const char* id, float width) {
  const model::ForwardResult& result = *ui.model.result();
  const float font = ImGui::GetFontSize();
  const std::string hash = std::string("##") + id;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Target"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::min(10.0f * font, 0.35f * width));
  const std::string preview = target_ ? ui::token_label(label_) : std::string(i18n::tr("the likeliest token"));
  if (ImGui::BeginCombo((hash + "-target").c_str(), preview.c_str())) {
    if (ImGui::Selectable(i18n::tr_label("the likeliest token", (std::string(id) + "-likeliest").c_str()).c_str(),
                          !target_)) {
      target_.reset();
      label_.clear();
    }
    for (std::size_t i = 0; i < result.next_tokens.size(); ++i) {
      const model::TokenProbability& next = result.next_tokens[i];
      const std::string label = ui::token_label(next.token) + "###" + std::string(id) + "-next-" + std::to_string(i);
      if (ImGui::Selectable(label.c_str(), target_ == next.id)) {
        target_ = next.id;
        label_ = next.token;
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr("the next-token list after the text"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(4.0f * font, std::min(10.0f * font, ImGui::GetContentRegionAvail().x)));
  if (ImGui::InputTextWithHint((hash + "-typed").c_str(), i18n::tr("or type a token"), typed_, sizeof typed_,
                               ImGuiInputTextFlags_EnterReturnsTrue))
    take_typed(ui);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", i18n::tr("a token, as in \xE2\x80\x9C Paris\xE2\x80\x9D; Enter to take it"));
  if (!typed_error_.empty()) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::warning_text());
    ui::text_wrapped("%s", typed_error_.c_str());
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
  }
}

// The typed text as a target: it must be one token of the model's vocabulary (a start-of-text
// token the tokenizer puts first, as the text's own first token, is not counted).
void TargetChooser::take_typed(const ui::UiContext& ui) {
  typed_error_.clear();
  const model::Model* model = ui.model.model();
  const model::ForwardResult* result = ui.model.result();
  if (model == nullptr || result == nullptr || typed_[0] == '\0') return;
  try {
    tokenizers::Encoding encoding = model->tokenizer().encode(typed_, "target");
    const bool special_first = !result->tokens.empty() && !result->tokens.front().empty() &&
                               (result->tokens.front().front() == '<' || result->tokens.front().front() == '[');
    if (encoding.ids.size() > 1 && special_first && encoding.ids.front() == result->ids.front()) {
      encoding.ids.erase(encoding.ids.begin());
      encoding.tokens.erase(encoding.tokens.begin());
    }
    if (encoding.ids.size() != 1) {
      typed_error_ =
          i18n::format(i18n::trn("\xE2\x80\x9C%s\xE2\x80\x9D is %zu token: type one token",
                                 "\xE2\x80\x9C%s\xE2\x80\x9D is %zu tokens: type one token", encoding.ids.size()),
                       typed_, encoding.ids.size());
      return;
    }
    target_ = encoding.ids.front();
    label_ = encoding.tokens.front();
  } catch (const std::exception& e) {
    typed_error_ = e.what();
  }
}

// In place of the bars when there are none: what is being done or why there is no attribution.
void ModelAttribution::draw_status(const ui::UiContext& ui, float width) const {
  const compute::LogitAttribution* shown = session_.attribution();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  if (!session_.error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
    ui::text_wrapped(i18n::tr("No logit attribution: %s%s"), session_.error().c_str(),
                     shown ? i18n::tr(" (the last one is shown)") : "");
    ImGui::PopStyleColor();
  } else if (session_.busy() || session_.requested() != ask(ui)) {
    ImGui::TextDisabled("%s", shown ? i18n::tr("recomputing the attribution\xE2\x80\xA6")
                                    : i18n::tr("computing the attribution\xE2\x80\xA6"));
  } else if (shown) {
    const heads::Attribution& a = shown->attribution;
    double sum = 0.0;
    for (const heads::AttributionPart& part : a.parts) sum += part.value;
    // The sum's and the logit's values in an item's ID too, so that a test reads them.
    ui::text_wrapped(i18n::tr("logit of \xE2\x80\x9C%s\xE2\x80\x9D at position %d: %.4f = the parts' sum %.4f"),
                     ui::token_label(a.target_token).c_str(), a.position, a.logit, sum);
    char id[96];
    std::snprintf(id, sizeof id, "%.6f %.6f %d %d##dla-sum",  // not translated: an ID
                  a.logit, sum, a.target, a.position);
    ImGui::InvisibleButton(id, ImVec2(1.0f, 1.0f));
  }
  ImGui::PopTextWrapPos();
}

// Every part as a bar from 0, largest first, positive to the right; a head's opens its attention.
void ModelAttribution::draw_bars(ui::UiContext& ui, const compute::LogitAttribution& shown, float width,
                                 float height) const {
  std::vector<heads::AttributionPart> parts = shown.attribution.parts;
  std::stable_sort(parts.begin(), parts.end(), [](const heads::AttributionPart& a, const heads::AttributionPart& b) {
    return std::abs(a.value) > std::abs(b.value);
  });
  double largest = 0.0;
  for (const heads::AttributionPart& part : parts) largest = std::max(largest, std::abs(part.value));
  if (largest == 0.0) largest = 1.0;
  if (!ImGui::BeginChild("##dla-bars", ImVec2(width, std::max(height, 4.0f * ImGui::GetTextLineHeight())), false)) {
    ImGui::EndChild();
    return;
  }
  float label_w = 0.0f;  // the widest part's name
  for (const heads::AttributionPart& part : parts)
    label_w = std::max(label_w, ImGui::CalcTextSize(part_label(part).c_str()).x);
  label_w += ImGui::GetFontSize();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (const heads::AttributionPart& part : parts) {
    const std::string label = part_label(part) + "###" + part_id(part) + "-label";
    const bool head = part.kind == heads::PartKind::Head;
    const bool selected = head && part.layer == ui.view.model_layer && part.head == ui.view.model_head;
    if (ImGui::Selectable(label.c_str(), selected, head ? ImGuiSelectableFlags_None : ImGuiSelectableFlags_Disabled,
                          ImVec2(label_w, 0.0f)) &&
        head) {
      ui.view.model_layer = part.layer;
      ui.view.model_head = part.head;
      ui.view.heatmaps_show_scenario = false;
      ui.view.select_main_tab = "Heatmaps";  // not translated: the tab's ID
    }
    if (head && ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", i18n::tr("click: open its attention in the Heatmaps view"));
    ImGui::SameLine();
    // The bar: an item whose ID holds the value, so that the widget log (and a test) reads it.
    char id[96];
    std::snprintf(id, sizeof id, "%.6f##%s", part.value, part_id(part).c_str());
    const float bar_w = std::max(1.0f, ImGui::GetContentRegionAvail().x);
    ImGui::InvisibleButton(id, ImVec2(bar_w, ImGui::GetTextLineHeight()));
    const ImVec2 a = ImGui::GetItemRectMin();
    const ImVec2 b = ImGui::GetItemRectMax();
    const float mid = 0.5f * (a.x + b.x);
    const float end = mid + 0.5f * (b.x - a.x) * static_cast<float>(part.value / largest);
    draw->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
    draw->AddRectFilled(ImVec2(std::min(mid, end), a.y), ImVec2(std::max(mid, end), b.y),
                        part.value >= 0.0 ? ImGui::GetColorU32(ImGuiCol_PlotHistogram) : ui::palette::error_text());
    draw->AddLine(ImVec2(mid, a.y), ImVec2(mid, b.y), ImGui::GetColorU32(ImGuiCol_Text));
    char value[32];
    std::snprintf(value, sizeof value, "%+.3f", part.value);
    const ImVec2 size = ImGui::CalcTextSize(value);
    // The value on the side away from the bar.
    const float x = part.value >= 0.0 ? a.x + 4.0f : b.x - size.x - 4.0f;
    draw->AddText(ImVec2(x, a.y), ImGui::GetColorU32(ImGuiCol_Text), value);
  }
  ImGui::EndChild();
}

}  // namespace attnviz::panels
