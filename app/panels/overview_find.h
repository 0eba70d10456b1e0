#pragma once
// Find, over the overview of a long text: 65,536 tokens fit no list of chips, so a field at
// the top of the side column goes to a token by its number or by a word or phrase it says
// (core/overview/token_search.h). Typing counts the matches; Enter pins the next one after the
// pinned query (Shift+Enter the one before) and zooms the image onto it; Ctrl+F puts the
// keyboard in the field.

#include <optional>
#include <string>

#include "app/ui/panel.h"
#include "core/overview/pixel_grid.h"
#include "core/overview/token_search.h"

namespace attnviz::panels {

class OverviewFind {
 public:
  // Draws the field and what it found at the cursor, `width` pixels wide, for the document's
  // query tokens (n × m cells); returns the window to show when it pinned a match.
  std::optional<overview::CellWindow> draw(ui::UiContext& ui, int n, int m, float width);
  // Ctrl+F: the field takes the keyboard in the next frame.
  void focus() { focus_ = true; }

 private:
  // Searches again when the text typed or the document changed; true when it did.
  bool search(const ui::UiContext& ui);
  [[nodiscard]] std::optional<int> go(const ui::UiContext& ui, bool backwards) const;
  // The line under the field for these matches and the pinned query.
  void describe(const ui::UiContext& ui);

  std::string typed_;
  std::string searched_;                                 // what the matches are for, with
  std::uint64_t searched_revision_ = ~std::uint64_t{0};  // the document's revision
  overview::TokenMatches matches_;
  // The line under the field, made when the matches or the pinned query change, not each frame.
  std::string line_;
  bool line_is_problem_ = false;
  std::optional<int> described_pinned_;
  bool focus_ = false;
};

}  // namespace attnviz::panels
