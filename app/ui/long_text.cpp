#include "app/ui/long_text.h"

#include <imgui.h>

#include <algorithm>

#include "app/i18n/translate.h"
#include "app/ui/text_lines.h"
#include "core/common/text_excerpt.h"
#include "core/tokenizers/token_label.h"

namespace attnviz::ui {

ShownText shown_text(std::string_view text, std::size_t max_chars, std::size_t max_lines) {
  // Lines are looked for only as far as max_chars characters can reach (at most 4 bytes
  // each): a text of megabytes is not scanned whole each frame.
  std::string_view kept = text.substr(0, std::min(text.size(), max_chars * 4 + 4));
  std::size_t lines = 1;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (kept[i] == '\n' && ++lines > max_lines) {
      kept = kept.substr(0, i);
      break;
    }
  }
  std::string shown = cut_text(kept, max_chars);
  const bool cut = kept.size() < text.size() || shown.size() != kept.size();
  if (cut && !shown.ends_with("\u2026")) shown += "\u2026";
  return {std::move(shown), cut};
}

std::string token_label(std::string_view token) {
  std::string label = cut_text(token, kTokenCharacters);
  // Dear ImGui hides a widget label's text from "##" on (its ID separator): BERT's "##at" showed
  // as an empty chip. A word joiner (no width, in the fonts' ranges) between the two keeps it.
  static constexpr std::string_view kWordJoiner = "\xE2\x81\xA0";
  for (std::size_t at = label.find("##"); at != std::string::npos; at = label.find("##", at + 1 + kWordJoiner.size())) {
    label.insert(at + 1, kWordJoiner);
  }
  // The same for a label ending in '#' that a widget's "##id" follows: "#" read as a blank chip.
  if (label.ends_with('#')) label += kWordJoiner;
  return label;
}

void token_tooltip(const std::string& first_line, std::string_view token) {
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(first_line.c_str());
  if (const std::string note = tokenizers::cut_character_note(token); !note.empty()) {
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
    ImGui::TextUnformatted(note.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::EndTooltip();
}

void long_text(std::string_view text, const char* id, std::size_t max_chars) {
  const ShownText shown = shown_text(text, max_chars);
  text_lines(shown.text);
  if (!shown.cut) return;
  ImGui::PushID(id);
  if (ImGui::SmallButton(i18n::tr_label("Copy whole text").c_str())) ImGui::SetClipboardText(std::string(text).c_str());
  if (ImGui::IsItemHovered()) {
    const std::size_t count = character_count(text);
    ImGui::SetTooltip(i18n::trn("%zu character: only the first part is shown here",
                                "%zu characters: only the first part is shown here", count),
                      count);
  }
  ImGui::PopID();
}

}  // namespace attnviz::ui
