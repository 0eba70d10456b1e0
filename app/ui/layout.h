#pragma once
// The window's arrangement: the main menu bar (File, Edit, View, ...), the Inputs column, the
// main area, the side column, the status bar and the notices. Which areas are shown follows
// ViewState::layout (LayoutMode). Panels only draw contents; the layout owns their windows.
//
// Extending it (e.g. a step-through or compare view): add a Panel whose area() is Main (the
// main area shows one tab per Main panel when there are several), a Menu after View, or a
// LayoutMode value handled in visible_areas().

#include <map>
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

// What a restart keeps of the arrangement (window.json, app/desktop/window_memory.h): the
// layout mode, the main area's view, and which panels of the Inputs column are open. The areas
// themselves follow the window's size (compute_areas).
struct RememberedLayout {
  LayoutMode mode = LayoutMode::Full;
  std::string main_view;                       // a Main panel's title (its ID); "" for the first
  std::map<std::string, bool> open_panels;     // by a panel's title (its ID); absent: its default
  ModelShown model_shown = ModelShown::Heads;  // the Model view's Show line
  friend bool operator==(const RememberedLayout&, const RememberedLayout&) = default;
};

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

  // The arrangement now (`mode`: the layout to come back to, which presentation mode keeps
  // aside), and one remembered from an earlier start, shown from the next frame. A main view
  // given on the command line wins over the remembered one (`keep_main_view`). The Model view's
  // Show line is read from and restored to `view`.
  [[nodiscard]] RememberedLayout remembered(LayoutMode mode, const ViewState& view) const;
  void restore(const RememberedLayout& layout, ViewState& view, bool keep_main_view);
  // The arrangement of a first start (and of View > Reset layout).
  [[nodiscard]] RememberedLayout default_layout() const;

 private:
  float draw_menu_bar(UiContext& ui);
  void draw_inputs(UiContext& ui, const Rect& rect, bool with_side);
  void draw_main(UiContext& ui, const Rect& rect);
  void draw_side(UiContext& ui, const Rect& rect);
  void draw_status_bar(UiContext& ui, const Rect& rect);
  void reset(ViewState& view);

  std::vector<std::unique_ptr<Panel>> panels_;
  std::vector<std::unique_ptr<Menu>> menus_;
  std::vector<std::unique_ptr<Dialog>> dialogs_;
  // The Main panel on screen (its title), kept by the layout rather than only by ImGui's tab
  // bar: presentation mode draws the view without its tab bar, and the tab bar selects it again
  // when it comes back.
  std::string shown_main_;
  bool tabs_hidden_ = false;  // in the last frame
  // The Inputs column's panels: open or closed as the user left them, and what a restored or
  // reset layout asks of each the next time it is drawn.
  std::map<std::string, bool> panel_open_;
  std::map<std::string, bool> pending_open_;
};

}  // namespace attnviz::ui
