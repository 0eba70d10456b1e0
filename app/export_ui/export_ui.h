#pragma once
// The window's export (issue 5): an Export button on each heatmap of the Heatmaps panel, the
// Export dialog (File > Export…, Ctrl+E) with the choices of `attnviz export`, and Copy as CSV
// (Ctrl+C over a heatmap, or its Export button's menu). What is written is what the heatmap
// shows: the selected head, its colormap, colour range and zoomed rows and columns
// (export_plan.h). Failures become notices (export_runner.h).
//
// Hooks, one line each where the panel draws a heatmap:
//   heading("Weights", formula, title_w - export_ui::export_button_room());
//   export_ui::heatmap_export_button(ui, Quantity::Weights, x_of_the_cells_right_edge);
//   ... draw the heatmap ...
//   export_ui::heatmap_hover_actions(ui, Quantity::Weights, hover.hovered);
// The dialog itself is one ui::Dialog (make_export_dialog) that the desktop adds to the layout.

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "app/compute/overview_session.h"
#include "app/export_ui/export_plan.h"
#include "app/export_ui/export_popup.h"
#include "app/ui/panel.h"
#include "core/export/figure.h"
#include "core/overview/overview.h"

namespace attnviz::export_ui {

// The width a heatmap's title line leaves free at its end for the Export button (so its
// formula is dropped rather than run under the button).
float export_button_room();

// Right after a heatmap's title line (ImGui's last item is its title or formula): a small
// Export button ending at `line_end`, a cursor x in the current window; it opens a menu
// (Export…, Copy as CSV, Export all…). Not drawn when the title reaches that far (a heatmap
// narrower than its title). Leaves the cursor where it was.
void heatmap_export_button(ui::UiContext& ui, Quantity quantity, float line_end);

// The glyph alone, after the current title line and ending at `line_end` (the caller shows its
// tooltip while it is hovered). Not drawn (neither) where the title reaches that far. Leaves the
// cursor where it was.
struct GlyphButton {
  bool clicked = false;
  bool hovered = false;
};
GlyphButton export_glyph_button(ui::UiContext& ui, const char* id, float line_end);

// Where heatmap_export_button puts the button (screen x of its left edge), from the title's
// extent, the cells' right end and the window's visible right edge; nullopt: not drawn.
// Pure, for tests.
struct ExportButtonPlace {
  float left = 0.0f;
  bool over_title = false;  // over the end of a title the window's edge cuts off
};
std::optional<ExportButtonPlace> place_export_button(float title_left, float title_right, float cells_end,
                                                     float visible_right, float side, float spacing);

// After a heatmap was drawn: while the mouse is over its cells, Ctrl+C copies its matrix as CSV
// (and the tooltip says so).
void heatmap_hover_actions(ui::UiContext& ui, Quantity quantity, bool hovered);

// While `hovered` (the mouse over a heatmap's cells): Ctrl+C runs `copy`, and the cell's tooltip
// gains "Ctrl+C copies <what> as CSV". A failed copy becomes an error notice
// (copy_reporting_failure).
void ctrl_c_copies(ui::UiContext& ui, bool hovered, const char* what, const std::function<void()>& copy);
void copy_reporting_failure(ui::UiContext& ui, const std::function<void()>& copy);

// Opens the Export dialog for every matrix (File > Export…), in this frame.
void open_export_all(ui::UiContext& ui);
// Opens it for one heatmap's matrix.
void open_export(ui::UiContext& ui, Quantity quantity);

// Copies the matrix as the heatmap shows it (selected head, zoom) to the clipboard as CSV.
void copy_as_csv(ui::UiContext& ui, Quantity quantity);

// The Export dialog: Ctrl+E and the requests above open it; one per window.
std::unique_ptr<ui::Dialog> make_export_dialog();

// Where the folder of the last export is kept between runs: beside the autosave.
std::filesystem::path export_folder_memory(const ui::UiContext& ui);

// The overview's Export button (a text past 4,096 tokens has no matrices to export) and its
// popup: PNG, SVG or NPY of the overview shown, saved where the Export dialog saves
// (overview_export.cpp). One per overview view. A panel holds 128 to 1,024 pixels of the
// image; a figure can ask for more (512, 1,024), computed for it alone, on a session of its
// own, its progress in the popup.
class OverviewExport {
 public:
  // The button, on the current line, and the popup once it was pressed. `shown_ask` is what
  // `shown` was computed for (its head, window, pooling, quantity and pixels).
  void draw(ui::UiContext& ui, const overview::Overview& shown, const Problem& problem,
            const compute::OverviewAsk& shown_ask);

 private:
  void draw_pixels_choice(const overview::Overview& shown);
  // Export pressed: at once for the image shown, else its finer copy computed first.
  void start(ui::UiContext& ui, const overview::Overview& shown, const Problem& problem,
             const compute::OverviewAsk& shown_ask);
  // While the finer copy is computed: its progress; written once it is done.
  void follow_finer(ui::UiContext& ui);
  void finish(ui::UiContext& ui, const overview::Overview& shown, const Problem& problem);

  int format_ = 0;  // PNG, SVG, NPY
  int pixels_ = 0;  // the image's pixels across: 0 as shown, else 512 or 1,024
  SaveTo save_to_;
  std::string error_;
  std::unique_ptr<compute::OverviewSession> finer_;  // while the popup is open, once a finer image was asked
  std::optional<compute::OverviewAsk> finer_ask_;    // the finer image being computed for the export
};

// The Model view's attention rollout: the Export glyph after its title and a popup with PNG,
// SVG, CSV or NPY of the rollout as shown (its colormap, its range from 0 to its largest
// value, linear), the files `attnviz export --model … --what rollout` writes (core's
// model::render_rollout). One per Model view.
class RolloutExport {
 public:
  // After the rollout's title line; `range`: the heatmap's colour range.
  void draw(ui::UiContext& ui, float line_end, std::pair<float, float> range);
  // After the rollout's heatmap: while the mouse is over it, Ctrl+C copies it as CSV.
  static void hover_actions(ui::UiContext& ui, bool hovered);

 private:
  void finish(ui::UiContext& ui, std::pair<float, float> range);

  int format_ = 0;  // PNG, SVG, CSV, NPY
  SaveTo save_to_;
  std::string error_;
};

// What one of the Model view's analyses writes (core/export/heads_figures.h, core/heads/heads_json.h).
struct HeadsExportContent {
  std::string json;  // as the command line writes it
  std::string csv;
  exporting::HeatmapFigure figure;
};

// The export of the Model view's head roles, logit lens, attribution or patching: the glyph at
// the end of its heading line (`line_end`), a popup choosing PNG, SVG, CSV or JSON and where
// ("Save to", as the rollout's), the file named `id` ("patching.svg"); `content` is made only
// when exporting. `what` says in the popup what is written.
class HeadsExport {
 public:
  void draw(ui::UiContext& ui, const char* id, float line_end, const char* what,
            const std::function<HeadsExportContent()>& content);

 private:
  int format_ = 0;  // PNG, SVG, CSV, JSON
  SaveTo save_to_;
  std::string error_;
};

// File > Save view as image… (Ctrl+Shift+E): the view on screen as a PNG (view_image.h).
void open_view_image(ui::UiContext& ui);
std::unique_ptr<ui::Dialog> make_view_image_dialog();

}  // namespace attnviz::export_ui
