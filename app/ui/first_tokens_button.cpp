#include "app/ui/first_tokens_button.h"

#include <imgui.h>

#include <optional>
#include <string>
#include <utility>

#include "app/document/document.h"
#include "app/edits/text_edits.h"

namespace attnviz::ui {

bool keep_first_tokens_button(UiContext& ui, const char* id, int limit) {
  const std::string label = edits::keep_first_tokens_label(limit);
  // Shown translated; its ID the English words, the same in every language.
  if (!ImGui::Button((label + "###" + edits::keep_first_tokens_id(limit) + id).c_str())) return false;
  std::optional<Scenario> kept = edits::keep_first_tokens(ui.document.scenario(), limit);
  if (!kept) return false;
  ui.document.end_merge();  // the typing before stays its own undo step
  ui.document.apply(std::move(*kept), label);
  return true;
}

}  // namespace attnviz::ui
