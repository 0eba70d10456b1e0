// Source sentence (Inputs column): cross-attention on or off, the second sentence, its
// tokenizer and its tokens. Queries come from the Sentence panel's sentence; keys and values
// from this one.

#include <imgui.h>

#include <string>

#include "app/classroom/classroom_edits.h"
#include "app/classroom/draw_helpers.h"
#include "app/classroom/step_view.h"
#include "app/document/document.h"
#include "app/edits/sentence_edits.h"
#include "app/i18n/translate.h"
#include "app/ui/text_lines.h"
#include "app/ui/wrapped_text_box.h"

namespace attnviz::classroom {
namespace {

class SourcePanel final : public ui::Panel {
 public:
  [[nodiscard]] const char* title() const override { return N_("Source sentence (cross-attention)"); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Inputs; }
  [[nodiscard]] bool open_by_default() const override { return false; }

  void draw(ui::UiContext& ui) override {
    const Scenario& s = ui.document.scenario();
    bool on = s.source.has_value();
    if (ImGui::Checkbox(i18n::tr_label("Keys and values from a second sentence").c_str(), &on)) {
      ui.document.apply(on ? add_source(s) : remove_source(s),
                        i18n::tr(on ? N_("Add a source sentence") : N_("Remove the source sentence")));
      return;
    }
    if (!s.source) {
      ImGui::TextDisabled("%s", i18n::tr("Off: the sentence attends to itself (self-attention)."));
      return;
    }
    if (ui.document.revision() != seen_revision_ && !typing_) text_box_.set_text(s.source->sentence);
    seen_revision_ = ui.document.revision();
    const ImVec2 size(-1.0f, ImGui::GetTextLineHeight() * 2.6f + ImGui::GetStyle().FramePadding.y * 2.0f);
    if (text_box_.draw("##source", size))
      ui.document.apply(set_source_sentence(s, text_box_.text()), i18n::tr("Edit source sentence"), "classroom:source");
    typing_ = ImGui::IsItemActive();
    if (ImGui::IsItemDeactivated()) ui.document.end_merge();

    const char* modes[] = {"words", "words-no-punct", "chars"};  // the tokenizers' own names, as typed
    int mode = static_cast<int>(s.source->tokenizer);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10.0f);
    if (ImGui::Combo(i18n::tr_label("tokenizer", "tokenizer##source").c_str(), &mode, modes, 3)) {
      const auto chosen = static_cast<TokenizerMode>(mode);
      ui.document.apply(set_source_tokenizer(ui.document.scenario(), chosen),
                        i18n::format(i18n::tr("Source tokenizer: %s"), to_string(chosen)));
      return;
    }
    const edits::TokensOrError tokens = edits::source_tokens_of(*ui.document.scenario().source);
    if (!tokens.error.empty()) {
      ui::text_wrapped("%s",
                       i18n::format(i18n::tr("Cannot split the source into tokens: %s"), tokens.error.c_str()).c_str());
      return;
    }
    token_chips("##source-tokens",
                i18n::format(i18n::trn("%zu token:", "%zu tokens:", tokens.tokens.size()), tokens.tokens.size()),
                tokens.tokens, -1);
  }

 private:
  ui::WrappedTextBox text_box_;
  std::uint64_t seen_revision_ = 0;
  bool typing_ = false;
};

}  // namespace

std::unique_ptr<ui::Panel> make_source_panel() { return std::make_unique<SourcePanel>(); }

}  // namespace attnviz::classroom
