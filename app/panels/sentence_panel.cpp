// Sentence panel: the sentence (UTF-8, Korean through the input method arrives as committed
// text), the tokenizer mode, and the tokens as chips. Hovering a chip highlights its row and
// column in every heatmap; clicking it toggles it as a Longformer global token. Typing into a
// scenario that lists its own tokens (the presets) makes the typed text the tokens, with a note
// and one undo step, unless "Keep these tokens" is ticked.

#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/document/document.h"
#include "app/i18n/translate.h"
#include "app/edits/sentence_edits.h"
#include "app/edits/text_edits.h"
#include "app/heatmap/heatmap_overlay.h"
#include "app/ui/first_tokens_button.h"
#include "app/panels/panels.h"
#include "app/ui/long_text.h"
#include "app/ui/notices.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "app/ui/wrapped_text_box.h"
#include "app/window/fonts.h"
#include "core/common/text_excerpt.h"
#include "core/common/number_text.h"
#include "core/scenario/scenario_tokens.h"

namespace attnviz::panels {
namespace {

// Chips beyond this are summarised: thousands of buttons would cost more than the heatmaps.
// Any token can still be made global by its index in the Mask panel.
constexpr int kMaxChips = 400;
constexpr std::size_t kChipCharacters = 32;  // of a token, on its chip (the tooltip has more)
constexpr int kMaxChipLines = 6;             // more lines of chips scroll
// The undo label of typing that gave up the listed tokens: the note shows while it is the step
// Ctrl+Z undoes.
// Translated when recorded and when compared (a language switch between only hides the note).
constexpr const char* kGaveUpTokens = N_("Type a sentence (its own tokens replace the listed ones)");
float chip_spacing() { return ImGui::GetStyle().ItemSpacing.x * 0.6f; }

// The tokenizer list: labels short enough for the Inputs column at 1280 x 720, and what each
// does as an example split (the tooltip).
struct ModeChoice {
  TokenizerMode mode;
  const char* label;
  const char* example;
};
constexpr ModeChoice kModes[] = {
    {TokenizerMode::Words, N_("Words and punctuation"),
     N_("\"Life is short, eat dessert.\" \u2192 Life \u00b7 is \u00b7 short \u00b7 , \u00b7 eat \u00b7 dessert \u00b7 .")},
    {TokenizerMode::WordsNoPunct, N_("Words, no punctuation"),
     N_("\"Life is short, eat dessert.\" \u2192 Life \u00b7 is \u00b7 short \u00b7 eat \u00b7 dessert")},
    {TokenizerMode::Chars, N_("Characters"),
     N_("\"Life is\" \u2192 L \u00b7 i \u00b7 f \u00b7 e \u00b7 i \u00b7 s (spaces dropped)")}};

const ModeChoice& choice_of(TokenizerMode mode) {
  for (const ModeChoice& choice : kModes) {
    if (choice.mode == mode) return choice;
  }
  return kModes[0];
}

bool is_global(const MaskSetting& mask, int index) {
  return std::find(mask.global.begin(), mask.global.end(), index) != mask.global.end();
}

class SentencePanel final : public ui::Panel {
 public:
  [[nodiscard]] const char* title() const override { return N_("Sentence"); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Inputs; }

  void draw(ui::UiContext& ui) override {
    refresh(ui);
    draw_text_box(ui);
    draw_tokenizer(ui);
    draw_chips(ui);
  }

 private:
  // The text box shows the document's sentence unless the user is typing in it (an undo or
  // a loaded file replaces it).
  void refresh(const ui::UiContext& ui) {
    const std::uint64_t revision = ui.document.revision();
    if (revision == seen_revision_) return;
    seen_revision_ = revision;
    too_large_ = edits::too_large_to_edit(ui.document.scenario().sentence);
    if (!typing_ && too_large_.empty()) text_box_.set_text(ui.document.scenario().sentence);
    tokens_ = ui.document.tokens();
    // What the chips show, cut once per revision rather than measured and cut each frame.
    const std::vector<std::string>& tokens = sentence_tokens().tokens;
    chip_texts_.clear();
    for (std::size_t i = 0; i < std::min(tokens.size(), static_cast<std::size_t>(kMaxChips)); ++i) {
      chip_texts_.push_back(cut_text(tokens[i], kChipCharacters));
    }
  }

  void draw_text_box(ui::UiContext& ui) {
    const float lines = 3.2f;
    const ImVec2 size(-1.0f, ImGui::GetTextLineHeight() * lines + ImGui::GetStyle().FramePadding.y * 2);
    if (!too_large_.empty()) {
      draw_read_only(ui, size);
      typing_ = false;
    } else {
      draw_editable(ui, size);
    }
    if (!sentence_tokens().error.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
      // Where the text breaks, as a byte offset (a text past the limit: in grouped numbers).
      ui::text_lines(edits::tokens_error_text(sentence_tokens()));
      ImGui::PopStyleColor();
      if (sentence_tokens().too_long && !sentence_tokens().explicit_tokens) offer_first_tokens(ui);
    }
  }

  // A text too large for the box (edits::too_large_to_edit): its beginning, and where to edit it.
  void draw_read_only(const ui::UiContext& ui, ImVec2 size) {
    if (ImGui::BeginChild("##sentence_read_only", size, true)) {
      ui::text_lines(ui::shown_text(ui.document.scenario().sentence, 400, 6).text);
    }
    ImGui::EndChild();
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::warning_text());
    ui::text_wrapped(i18n::tr("Too large to edit here: %s. Edit the file and open it again (File \xE2\x96\xB8 Open "
                              "text\xE2\x80\xA6); Ctrl+Z brings the sentence before back."),
                     too_large_.c_str());
    ImGui::PopStyleColor();
  }

  void draw_editable(ui::UiContext& ui, ImVec2 size) {
    if (text_box_.draw("##sentence", size)) {
      const Scenario& before = ui.document.scenario();
      Scenario next = edits::type_sentence(before, text_box_.text(), keep_tokens_);
      if (edits::gave_up_listed_tokens(before, next)) {
        listed_tokens_ = before.tokens->size();
        // Its own undo step, merged with the rest of the typing: one Ctrl+Z brings the listed
        // tokens and their embeddings back.
        ui.document.end_merge();
        ui.document.apply(std::move(next), i18n::tr(kGaveUpTokens), "sentence");
        ui.notices.post(ui::NoticeLevel::Info,
                        i18n::format(i18n::trn("Your text is now the tokens: the %s token the scenario listed, and its "
                                               "embedding, gave way to generated ones. Ctrl+Z brings them back.",
                                               "Your text is now the tokens: the %s tokens the scenario listed, and "
                                               "their embeddings, gave way to generated ones. Ctrl+Z brings them back.",
                                               listed_tokens_),
                                     format_grouped(static_cast<long long>(listed_tokens_)).c_str()),
                        "typed-tokens");
      } else {
        ui.document.apply(std::move(next), i18n::tr("Edit sentence"), "sentence");
      }
    }
    typing_ = ImGui::IsItemActive();
    if (ImGui::IsItemDeactivated()) ui.document.end_merge();
    if (ui.document.undo_label() == i18n::tr(kGaveUpTokens)) {
      ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::warning_text());
      ui::text_wrapped(i18n::trn("Your text is the tokens now: the %zu listed token and its embedding gave way to "
                                 "generated ones (seed %llu). Ctrl+Z brings them back.",
                                 "Your text is the tokens now: the %zu listed tokens and their embeddings gave way to "
                                 "generated ones (seed %llu). Ctrl+Z brings them back.",
                                 listed_tokens_),
                       listed_tokens_, static_cast<unsigned long long>(ui.document.scenario().seed));
      ImGui::PopStyleColor();
    }
  }

  void draw_tokenizer(ui::UiContext& ui) {
    const Scenario& s = ui.document.scenario();
    if (sentence_tokens().explicit_tokens) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
      if (keep_tokens_) {
        const std::size_t count = sentence_tokens().tokens.size();
        ui::text_wrapped(i18n::trn("The scenario lists its %zu token; the text above is only a caption.",
                                   "The scenario lists its %zu tokens; the text above is only a caption.", count),
                         count);
      } else {
        const std::size_t count = sentence_tokens().tokens.size();
        ui::text_wrapped(i18n::trn("The scenario lists its %zu token and its embedding; type to replace them with "
                                   "your text's tokens.",
                                   "The scenario lists its %zu tokens and their embeddings; type to replace them "
                                   "with your text's tokens.",
                                   count),
                         count);
      }
      ImGui::PopStyleColor();
      ImGui::Checkbox(i18n::tr_label("Keep these tokens").c_str(), &keep_tokens_);
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s", i18n::tr("Ticked, the text is only a caption: typing changes it, and the listed "
                                         "tokens and their embeddings stay."));
      }
      if (!keep_tokens_ && ImGui::Button(i18n::tr_label("Split the text into tokens now").c_str())) {
        ui.document.apply(edits::use_sentence_tokens(s), i18n::tr("Tokenize the sentence"));
      }
      return;
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(i18n::tr("Tokens"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::BeginCombo("##tokenizer", i18n::tr(choice_of(s.tokenizer).label))) {
      for (const auto& [mode, label, example] : kModes) {
        if (ImGui::Selectable(i18n::tr_label(label).c_str(), mode == s.tokenizer) && mode != s.tokenizer) {
          ui.document.apply(edits::set_tokenizer(s, mode), i18n::format(i18n::tr("Tokenizer: %s"), i18n::tr(label)));
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr(example));
      }
      ImGui::EndCombo();
    } else if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", i18n::tr(choice_of(s.tokenizer).example));
    }
  }

  // A text typed or pasted past the overview's limit: one click (one undo step) keeps what the
  // overview can show.
  static void offer_first_tokens(ui::UiContext& ui) {
    ui::keep_first_tokens_button(ui, "##sentence");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", i18n::tr("Cut the text there, so the overview shows it (Ctrl+Z brings the rest back)"));
  }

  void draw_chips(ui::UiContext& ui) {
    const std::vector<std::string>& tokens = sentence_tokens().tokens;
    if (tokens.empty() && !sentence_tokens().error.empty()) return;  // the error above says why there are none
    const MaskSetting& mask = ui.document.scenario().mask;
    ui::text_lines_disabled(i18n::format(
        i18n::trn("%s token \xC2\xB7 hover one to follow it in the heatmaps \xC2\xB7 click one to make it "
                  "global",
                  "%s tokens \xC2\xB7 hover one to follow it in the heatmaps \xC2\xB7 click one to make it "
                  "global",
                  tokens.size()),
        format_grouped(static_cast<long long>(tokens.size())).c_str()));
    const int shown = std::min(static_cast<int>(tokens.size()), kMaxChips);
    // Many chips scroll in a box of a few lines, so Model and Mask stay in reach.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float line_h = ImGui::GetTextLineHeight() + style.FramePadding.y * 2 + style.ItemSpacing.y;
    const int lines = chip_lines(shown, ImGui::GetContentRegionAvail().x - style.ScrollbarSize);
    const bool scrolls = lines > kMaxChipLines;
    if (scrolls) {
      ImGui::BeginChild("##chips", ImVec2(0.0f, line_h * static_cast<float>(kMaxChipLines) + style.WindowPadding.y),
                        false);
    }
    const float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    float last_right = -1.0f;
    for (int i = 0; i < shown; ++i) {
      const ImVec2 size = chip_size(chip_texts_[static_cast<std::size_t>(i)], i);
      if (last_right >= 0.0f && edits::chip_fits_on_line(last_right, chip_spacing(), size.x, right_edge)) {
        ImGui::SameLine(0.0f, chip_spacing());
      }
      draw_chip(ui, tokens[static_cast<std::size_t>(i)], chip_texts_[static_cast<std::size_t>(i)], i, size,
                is_global(mask, i));
      last_right = ImGui::GetItemRectMax().x;
    }
    if (scrolls) ImGui::EndChild();
    if (shown < static_cast<int>(tokens.size())) {
      // Past the materialised path's limit the Heatmaps panel shows the overview, whose Find
      // goes to any token.
      const bool overview = !fits_materialised(static_cast<int>(tokens.size()), static_cast<int>(tokens.size()));
      const std::size_t more = tokens.size() - static_cast<std::size_t>(shown);
      const std::string more_text = format_grouped(static_cast<long long>(more));
      ui::text_lines_disabled(
          overview
              ? i18n::format(i18n::trn("\xE2\x80\xA6 and %s more token: find it with the overview's Find (Ctrl+F), "
                                       "or make it global by its index in the Mask panel",
                                       "\xE2\x80\xA6 and %s more tokens: find one with the overview's Find "
                                       "(Ctrl+F), or make any of them global by its index in the Mask panel",
                                       more),
                             more_text.c_str())
              : i18n::format(i18n::trn("\xE2\x80\xA6 and %s more token: make it global by its index in the Mask "
                                       "panel",
                                       "\xE2\x80\xA6 and %s more tokens: make any of them global by its index in "
                                       "the Mask panel",
                                       more),
                             more_text.c_str()));
    }
    if (const auto& source = ui.document.scenario().source) {
      ui::text_wrapped(
          i18n::tr("Cross-attention: the keys and values come from the source \xE2\x80\x9C%s\xE2\x80\x9D."),
          cut_text(source->sentence, 200).c_str());
    }
  }

  // How many lines the first `count` chips take in `width` pixels (as draw_chips flows them).
  [[nodiscard]] int chip_lines(int count, float width) const {
    int lines = count > 0 ? 1 : 0;
    float x = -1.0f;
    for (int i = 0; i < count; ++i) {
      const float w = chip_size(chip_texts_[static_cast<std::size_t>(i)], i).x;
      if (x >= 0.0f && edits::chip_fits_on_line(x, chip_spacing(), w, width)) {
        x += chip_spacing() + w;
      } else {
        if (x >= 0.0f) ++lines;
        x = w;
      }
    }
    return lines;
  }

  // A chip: the token's index, small, then its text (`shown`: cut to kChipCharacters, as a
  // "word" of a text without spaces can be megabytes long).
  static ImVec2 chip_size(const std::string& shown, int index) {
    const ImVec2 text = ImGui::CalcTextSize(shown.c_str());
    const float index_w = index_width(index);
    const ImVec2 pad = ImGui::GetStyle().FramePadding;
    return {pad.x * 2 + index_w + 4.0f + text.x, text.y + pad.y * 2};
  }

  static ImFont* small_font() {
    ImFont* font = window::fonts().small;
    return font != nullptr ? font : ImGui::GetFont();
  }
  static float small_size() { return ImGui::GetFontSize() * 0.72f; }
  static float index_width(int index) {
    const std::string label = std::to_string(index);
    return small_font()->CalcTextSizeA(small_size(), 1e9f, 0.0f, label.c_str()).x;
  }

  static void draw_chip(ui::UiContext& ui, const std::string& token, const std::string& shown, int index, ImVec2 size,
                        bool global) {
    ImGui::PushID(index);
    const bool clicked = ImGui::InvisibleButton("##chip", size);
    const bool hovered = ImGui::IsItemHovered();
    ImGui::PopID();
    const ImVec2 a = ImGui::GetItemRectMin();
    const ImVec2 b = ImGui::GetItemRectMax();
    const bool highlighted = hovered || ui.view.hovered_token == index;
    ImDrawList* list = ImGui::GetWindowDrawList();
    const float rounding = ImGui::GetStyle().FrameRounding + 2.0f;
    list->AddRectFilled(a, b, global ? ui::palette::kGlobalFill : ui::palette::chip_fill(), rounding);
    list->AddRect(
        a, b,
        highlighted ? heatmap::kHighlightColour : (global ? ui::palette::kGlobalBorder : ui::palette::chip_border()),
        rounding, 0, highlighted ? 2.5f : 1.0f);
    const ImVec2 pad = ImGui::GetStyle().FramePadding;
    const std::string label = std::to_string(index);
    const ImU32 index_colour = global ? 0xffe8d8e8u : ImGui::GetColorU32(ImGuiCol_TextDisabled);
    list->AddText(small_font(), small_size(), ImVec2(a.x + pad.x, a.y + pad.y), index_colour, label.c_str());
    const ImU32 text_colour = global ? 0xffffffffu : ImGui::GetColorU32(ImGuiCol_Text);
    list->AddText(ImVec2(a.x + pad.x + index_width(index) + 4.0f, a.y + pad.y), text_colour, shown.c_str());

    if (hovered) {
      ui.view.hovered_token_next = index;
      ImGui::SetTooltip("%s", edits::chip_tooltip(index, token, ui.document.scenario().mask).c_str());
    }
    if (clicked) {
      const std::string label_text =
          i18n::format(global ? i18n::tr("Make token %d local") : i18n::tr("Make token %d global"), index);
      ui.document.apply(edits::click_token(ui.document.scenario(), index), label_text);
    }
  }

  ui::WrappedTextBox text_box_;
  bool typing_ = false;
  bool keep_tokens_ = false;       // typing leaves listed tokens alone (the text is a caption)
  std::size_t listed_tokens_ = 0;  // how many the scenario listed before typing replaced them
  std::uint64_t seen_revision_ = 0;
  std::string too_large_;  // why the sentence is shown read-only, or ""
  std::shared_ptr<const ScenarioTokens> tokens_ = std::make_shared<const ScenarioTokens>();
  std::vector<std::string> chip_texts_;  // the first kMaxChips tokens as their chips show them
  [[nodiscard]] const TextTokens& sentence_tokens() const { return tokens_->queries; }
};

}  // namespace

std::unique_ptr<ui::Panel> make_sentence_panel() { return std::make_unique<SentencePanel>(); }

}  // namespace attnviz::panels
