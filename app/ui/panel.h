#pragma once
// The interface every panel and menu of the window implements, and what they are given.
//
// A panel draws the *contents* of its area; the layout (app/ui/layout.cpp) owns the windows,
// their positions and titles. Panels keep their own UI state in plain structs, do no maths
// (the core does, through ComputeSession), and change the scenario only through
// Document::apply — with a label for Undo ("Edit W_Q[1][0]") and, while a slider or drag field
// is held, a merge key so the whole drag is one undo step:
//
//   if (ImGui::DragFloat("##x", &value)) {
//     Scenario next = ui.document.scenario();
//     ... change next ...
//     ui.document.apply(std::move(next), "Edit X[2][1]", "drag:x:2:1");
//   }
//   if (ImGui::IsItemDeactivatedAfterEdit()) ui.document.end_merge();
//
// Any panel can show a matrix as a GPU heatmap (ui.heatmaps.draw, app/heatmap/heatmap_widget.h),
// post a visible message (ui.notices.post), and mark a token as hovered for every other panel
// (ui.view.hovered_token_next = i; read ui.view.hovered_token).
//
// This contract is the ui layer's: panels (app/panels, app/classroom) implement it, the layout
// (layout.h) draws them, the desktop (app/desktop/panel_registry.cpp) decides which exist.

#include <memory>
#include <vector>

namespace attnviz::document {
class Document;
class Autosave;
class RecentFiles;
}  // namespace attnviz::document

namespace attnviz::compute {
class ComputeSession;
class ModelSession;
}  // namespace attnviz::compute

namespace attnviz::heatmap {
class HeatmapWidget;
}

namespace attnviz::ui {
struct ViewState;
struct ClassroomState;
class Notices;
class UndoTimeline;

// Measured by the frame loop, shown by the status bar.
struct FrameStats {
  double frame_ms = 0.0;      // time between frames, smoothed
  double ui_ms = 0.0;         // building the UI (panels), smoothed
  double recompute_ms = 0.0;  // the last recompute (all backends, wall clock)
};

// Everything a panel may use while drawing. Valid only during Panel::draw / Menu::draw_items.
struct UiContext {
  document::Document& document;            // the scenario being edited (edits via apply())
  ViewState& view;                         // selection, hover, zoom, colormaps, layout
  ClassroomState& classroom;               // the classroom views' step, compare settings, presenting
  const compute::ComputeSession& session;  // tokens, Problem, results, errors, timings
  compute::ModelSession& model;            // a pretrained model: opening, its text, head switches
  heatmap::HeatmapWidget& heatmaps;        // GPU heatmaps of any matrix
  Notices& notices;                        // visible errors and messages
  document::Autosave& autosave;            // where the scenario is kept between runs
  document::RecentFiles& recent;           // File > Open Recent (the frame loop keeps it on disk)
  UndoTimeline& undo;                      // Ctrl+Z across the scenario's and the model's edits
  const FrameStats& stats;
  float ui_scale = 1.0f;  // multiply pixel sizes by this (HiDPI)
};

// Where the layout puts a panel.
enum class PanelArea {
  Inputs,     // the left column: Sentence, Model, Mask, Matrices (stacked, collapsible)
  Main,       // the centre: Heatmaps
  Side,       // Backend (the left column's end in "full", a right column in "compare-ready")
  StatusBar,  // the strip at the bottom (not while presenting)
};

class Panel {
 public:
  virtual ~Panel() = default;
  Panel() = default;
  Panel(const Panel&) = delete;
  Panel& operator=(const Panel&) = delete;

  // Unique, shown as the section or window title ("Sentence", "Heatmaps"): English, marked
  // N_() for translation; the layout shows it translated and keeps it as the widget's ID.
  [[nodiscard]] virtual const char* title() const = 0;
  [[nodiscard]] virtual PanelArea area() const = 0;
  // Whether its section starts open in a collapsible column.
  [[nodiscard]] virtual bool open_by_default() const { return true; }
  // Draws the contents into the current ImGui window (the layout began it).
  virtual void draw(UiContext& ui) = 0;
};

// A menu of the main menu bar ("File", "Edit", "View").
class Menu {
 public:
  virtual ~Menu() = default;
  Menu() = default;
  Menu(const Menu&) = delete;
  Menu& operator=(const Menu&) = delete;

  // English, marked N_(): shown translated, the menu's ID in every language.
  [[nodiscard]] virtual const char* label() const = 0;
  // The menu's items, between ImGui::BeginMenu and EndMenu.
  virtual void draw_items(UiContext& ui) = 0;
  // Every frame, menu open or not: keyboard shortcuts (Ctrl+Z) and modal dialogs it owns.
  // Also while presenting, when the menu bar itself is hidden.
  virtual void update(UiContext& /*ui*/) {}
  // Every frame after the areas were drawn, on top of them (presentation mode's corner overlay).
  virtual void draw_overlay(UiContext& /*ui*/) {}
};

// A window of its own above the areas (the Export dialog): updated every frame after the
// areas were drawn, so a request made by a panel in this frame opens it in this frame.
class Dialog {
 public:
  virtual ~Dialog() = default;
  Dialog() = default;
  Dialog(const Dialog&) = delete;
  Dialog& operator=(const Dialog&) = delete;

  // Its keyboard shortcut, opening on a request, and the dialog itself while open.
  virtual void update(UiContext& ui) = 0;
};

}  // namespace attnviz::ui
