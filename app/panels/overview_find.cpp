// Find over the overview (overview_find.h).

#include "app/i18n/translate.h"
#include "app/panels/overview_find.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include "app/document/document.h"
#include "app/panels/heatmaps_parts.h"
#include "app/panels/overview_locator.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/common/number_text.h"

namespace attnviz::panels {
namespace {

using Kind = overview::TokenMatches::Kind;

const char* tokenizer_words(TokenizerMode mode) {
  if (mode == TokenizerMode::Chars) return i18n::tr("characters");
  return mode == TokenizerMode::WordsNoPunct ? i18n::tr("words without punctuation")
                                             : i18n::tr("words and punctuation");
}

}  // namespace

bool OverviewFind::search(const ui::UiContext& ui) {
  if (typed_ == searched_ && ui.document.revision() == searched_revision_) return false;
  searched_ = typed_;
  searched_revision_ = ui.document.revision();
  const auto tokens = ui.document.tokens();
  matches_ = overview::find_tokens(tokens->queries.tokens, typed_, ui.document.scenario().tokenizer);
  return true;
}

std::optional<int> OverviewFind::go(const ui::UiContext& ui, bool backwards) const {
  const int target = overview::next_match(matches_.starts, ui.view.pinned_query, backwards);
  if (target < 0) return std::nullopt;
  return target;
}

std::optional<overview::CellWindow> OverviewFind::draw(ui::UiContext& ui, int n, int m, float width) {
  if (focus_) {
    ImGui::SetKeyboardFocusHere();
    focus_ = false;
  }
  ImGui::SetNextItemWidth(width);
  // A hint short enough for the narrowest column (12 em); the tooltip says the rest.
  const bool entered = ImGui::InputTextWithHint("##overview_find", i18n::tr("find a word or token #"), &typed_,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
    ui::text_lines(
        i18n::tr("Find a word or a phrase (ignoring case; a number in \"quotes\" as text), or a token by its "
                 "number (34617, 34,617 or #34617). Enter pins the next match and zooms onto it, Shift+Enter "
                 "the one before. Ctrl+F puts the keyboard here."));
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  if (search(ui) || ui.view.pinned_query != described_pinned_) describe(ui);
  std::optional<int> target;
  if (entered) {
    target = go(ui, ImGui::GetIO().KeyShift);
    ImGui::SetKeyboardFocusHere(-1);  // Enter again goes on to the next match
  }
  if (matches_.starts.size() > 1) {
    if (ImGui::SmallButton(i18n::tr_label("Previous", "Previous##overview_find").c_str())) target = go(ui, true);
    ImGui::SameLine();
    if (ImGui::SmallButton(i18n::tr_label("Next", "Next##overview_find").c_str())) target = go(ui, false);
    ImGui::SameLine();
  }
  if (!line_.empty()) note_text(line_, line_is_problem_);
  if (!target) return std::nullopt;
  ui.view.pinned_query = *target;
  return centred_window(*target, *target, kGoToCells, kGoToCells, n, m);
}

void OverviewFind::describe(const ui::UiContext& ui) {
  described_pinned_ = ui.view.pinned_query;
  const std::vector<std::string>& tokens = ui.document.tokens()->queries.tokens;
  const std::string phrase = in_quotes(matches_.phrase);
  const auto count = static_cast<long long>(matches_.starts.size());
  const int at = ui.view.pinned_query ? overview::match_ordinal(matches_.starts, *ui.view.pinned_query) : 0;
  const std::string where =
      at > 0 ? i18n::format(i18n::tr("%s of %s"), format_grouped(at).c_str(), format_grouped(count).c_str())
             : i18n::format(i18n::trn("%s match", "%s matches", static_cast<unsigned long>(count)),
                            format_grouped(count).c_str());
  const char* next = at > 0 ? "" : i18n::tr(" \u00B7 Enter: the next");
  const std::string split = tokenizer_words(ui.document.scenario().tokenizer);
  line_is_problem_ = !matches_.found() && matches_.kind != Kind::Empty;
  switch (matches_.kind) {
    case Kind::Empty: line_.clear(); return;
    case Kind::Position:
      line_ = i18n::format(at > 0 ? i18n::tr("token %s %s (pinned)") : i18n::tr("token %s %s \u00B7 Enter: go there"),
                           format_grouped(matches_.position).c_str(),
                           in_quotes(token_text(tokens, static_cast<int>(matches_.position))).c_str());
      return;
    case Kind::OutOfRange:
      line_ = i18n::format(i18n::tr("no token %s: the text's tokens are 0\u2013%s"),
                           format_grouped(matches_.position).c_str(),
                           format_grouped(static_cast<long long>(tokens.size()) - 1).c_str());
      return;
    case Kind::Exact: line_ = phrase + ": " + where + next; return;
    case Kind::Containing:
      line_ = i18n::format(i18n::tr("no token is %s; tokens containing it: %s"), phrase.c_str(), where.c_str()) + next;
      return;
    case Kind::NotFound:
      line_ =
          i18n::format(i18n::tr("%s is not in the text (split into %s, ignoring case)"), phrase.c_str(), split.c_str());
      return;
    case Kind::NoTokens:
      line_ = i18n::format(i18n::tr("%s has no tokens when split into %s"), phrase.c_str(), split.c_str());
      return;
    case Kind::TooLong:
      line_ = i18n::format(i18n::trn("a phrase of at most %d token, please", "a phrase of at most %d tokens, please",
                                     static_cast<unsigned long>(overview::kMaxSearchTokens)),
                           overview::kMaxSearchTokens);
      return;
    case Kind::NotUtf8: line_ = i18n::tr("what was typed is not UTF-8"); return;
  }
}

}  // namespace attnviz::panels
