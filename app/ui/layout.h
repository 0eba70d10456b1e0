#pragma once
// The window's arrangement: the main menu bar (File, Edit, View, ...), the Inputs column, the
// main area, the side column, the status bar and the notices. Which areas are shown follows
// ViewState::layout (LayoutMode). Panels only draw contents; the layout owns their windows.
//
// Extending it (e.g. a step-through or compare view): add a Panel whose area() is Main (the
// main area shows one tab per Main panel when there are several), a Menu after View, or a
// LayoutMode value handled in visible_areas().

#include <memory>
#include <string>
#include <vector>

#include "app/ui/panel.h"
#include "app/ui/view_state.h"

namespace attnviz::ui {

// Which areas a layout mode shows.
struct VisibleAreas {
  bool inputs = true;
  bool main = true;
  bool side = false;           // a right-hand column for Side panels
  bool side_in_inputs = true;  // Side panels at the end of the Inputs column instead
};
VisibleAreas visible_areas(LayoutMode mode);

// Rectangles of the areas for a window of `width` × `height` pixels (pure; unit-tested).
// Presentation mode has neither bar: pass a menu bar height of 0 and status_bar = false (the
// status bar's rectangle is then empty, at the window's bottom edge).
struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
};
struct AreaRects {
  Rect menu_bar, inputs, main, side, status_bar;
};
AreaRects compute_areas(LayoutMode mode, float width, float height, float ui_scale, float menu_bar_height,
                        bool status_bar = true);

class Layout {
 public:
  Layout() = default;
  void add_panel(std::unique_ptr<Panel> panel) { panels_.push_back(std::move(panel)); }
  void add_menu(std::unique_ptr<Menu> menu) { menus_.push_back(std::move(menu)); }
  void add_dialog(std::unique_ptr<Dialog> dialog) { dialogs_.push_back(std::move(dialog)); }

  // Builds the whole UI of one frame for a window of the display's size.
  void draw(UiContext& ui);

  [[nodiscard]] const std::vector<std::unique_ptr<Panel>>& panels() const { return panels_; }
  [[nodiscard]] const std::vector<std::unique_ptr<Menu>>& menus() const { return menus_; }

 private:
  float draw_menu_bar(UiContext& ui);
  void draw_inputs(UiContext& ui, const Rect& rect, bool with_side);
  void draw_main(UiContext& ui, const Rect& rect);
  void draw_side(UiContext& ui, const Rect& rect);
  void draw_status_bar(UiContext& ui, const Rect& rect);

  std::vector<std::unique_ptr<Panel>> panels_;
  std::vector<std::unique_ptr<Menu>> menus_;
  std::vector<std::unique_ptr<Dialog>> dialogs_;
  // The Main panel on screen (its title), kept by the layout rather than only by ImGui's tab
  // bar: presentation mode draws the view without its tab bar, and the tab bar selects it again
  // when it comes back.
  std::string shown_main_;
  bool tabs_hidden_ = false;  // in the last frame
};

}  // namespace attnviz::ui
