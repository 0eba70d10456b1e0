#pragma once
// The window's export (issue 5): an Export button on each heatmap of the Heatmaps panel, the
// Export dialog (File > Export…, Ctrl+E) with the choices of `attnviz export`, and Copy as CSV
// (Ctrl+C over a heatmap, or its Export button's menu). What is written is what the heatmap
// shows: the selected head, its colormap, colour range and zoomed rows and columns
// (export_plan.h). Failures become notices (export_runner.h).
//
// Hooks, one line each where the panel draws a heatmap:
//   const float button_w = export_ui::heatmap_export_button(ui, Quantity::Weights, cells_w);
//   ... heading(..., title_w - button_w) ... draw the heatmap ...
//   export_ui::heatmap_hover_actions(ui, Quantity::Weights, hover.hovered);
// and in a menu's update(): export_ui::update(ui).

#include "app/export_ui/export_plan.h"
#include "app/panels/panel.h"

namespace attnviz::export_ui {

// A small Export button at the right end of a heatmap's title line, which starts at the cursor
// and is `line_width` pixels wide; it opens a menu (Export…, Copy as CSV). Leaves the cursor
// where it was and returns the width the button takes, so the title can stop short of it.
float heatmap_export_button(ui::UiContext& ui, Quantity quantity, float line_width);

// After a heatmap was drawn: while the mouse is over its cells, Ctrl+C copies its matrix as CSV
// (and the tooltip says so).
void heatmap_hover_actions(ui::UiContext& ui, Quantity quantity, bool hovered);

// Opens the Export dialog for every matrix (File > Export…).
void open_export_all(ui::UiContext& ui);
// Opens it for one heatmap's matrix.
void open_export(ui::UiContext& ui, Quantity quantity);

// Copies the matrix as the heatmap shows it (selected head, zoom) to the clipboard as CSV.
void copy_as_csv(ui::UiContext& ui, Quantity quantity);

// Every frame, from a menu's update(): Ctrl+E opens the dialog, and the dialog is drawn.
void update(ui::UiContext& ui);

}  // namespace attnviz::export_ui
