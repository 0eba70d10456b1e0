#pragma once
// From what the window shows to export requests (no ImGui, no session: unit-tested in
// tests/export_ui). The Export dialog edits ExportChoices, which mirror the options of
// `attnviz export` (docs/export.md); "as shown" choices take the heatmaps' own settings: the
// selected head, the colormap, the colour range and the zoomed rows and columns.
//
//   ShownState shown{ui.view, session.shown_result(), session.problem(), session.compared(),
//                    ui.view.selected_head, ui.view.head_zoom};
//   ExportChoices choices = choices_for_heatmap(Quantity::Weights, shown);
//   ExportPlan plan = plan_export(choices, shown);   // one request per quantity

#include <optional>
#include <string>
#include <vector>

#include "app/ui/view_state.h"
#include "core/export/export.h"

namespace attnviz::export_ui {

using exporting::ColormapId;
using exporting::ExportFormat;
using exporting::ExportRequest;
using exporting::Quantity;
using exporting::ValuesMode;

// What the window shows, as the export needs it. `result` belongs to `problem`. The head and
// zoom are apart from `view` because a model's layer has its own (the view's colormaps, ranges
// and numbers serve both).
struct ShownState {
  const ui::ViewState& view;
  const Result& result;
  const Problem& problem;
  bool has_difference = false;                       // both backends ran: Vulkan − Eigen can be exported
  int head = 0;                                      // the head the heatmaps show
  heatmap::CellWindow zoom{0.0f, 0.0f, 0.0f, 0.0f};  // the heatmaps' zoom (no cells, or all: not zoomed)
};

enum class HeadsChoice { Shown, All, List };
enum class RangeChoice { AsShown, Auto, Custom };

// The dialog's fields; each mirrors an option of `attnviz export`.
struct ExportChoices {
  std::vector<Quantity> what;                // --what
  HeadsChoice heads = HeadsChoice::Shown;    // --heads: the selected head, all, or `head_list`
  std::string head_list;                     // "0,2"
  ExportFormat format = ExportFormat::Png;   // --format
  std::optional<ColormapId> colormap;        // --colormap; nullopt: each heatmap's own
  RangeChoice range = RangeChoice::AsShown;  // --range
  float range_low = 0.0f;
  float range_high = 1.0f;
  int cell_px = 0;                       // --cell; 0: from the token count and dpi
  int dpi = 300;                         // --dpi
  ValuesMode values = ValuesMode::Auto;  // --values
  std::string title;                     // --title; empty: the scenario's title
  bool grid = false;                     // --grid (images only)
  bool zoom_as_shown = true;             // --rows/--cols from the zoom; false: whole matrices
};

// The Export button of one heatmap: that matrix, the selected head, PNG, as shown.
ExportChoices choices_for_heatmap(Quantity quantity, const ShownState& shown);
// Export all: every matrix `attnviz export --what all` writes (plus the difference when both
// backends ran), otherwise as for one heatmap.
ExportChoices choices_for_all(const ShownState& shown);

struct ExportPlan {
  // One per quantity: each heatmap has its own colormap and range (weights 0..1, scores ±m).
  std::vector<ExportRequest> requests;
  // Where the files will differ from the screen, for the dialog (none at present: the log
  // scale of the weights is exported as shown).
  std::vector<std::string> notes;
};

// Throws InputError("Export", option, problem) for a head list that does not parse or names
// no head; core's render_export checks the rest (heads out of range, ranges, sizes).
ExportPlan plan_export(const ExportChoices& choices, const ShownState& shown);

// The colormap a heatmap of `quantity` is drawn with (nullopt: export's default; the mask is
// drawn in Blues, which export does not have).
std::optional<ColormapId> shown_colormap(Quantity quantity, const ui::ViewState& view);

// The colour range the window uses for `quantity`, over `heads` (one shared scale when several;
// for the selected head alone exactly the heatmap's; 0.0001 to 1 on the weights' log scale).
// nullopt: export's automatic range.
std::optional<std::pair<float, float>> shown_range(Quantity quantity, const ShownState& shown,
                                                   const std::vector<int>& heads);

// Log when the window draws the weights on its log scale (View > Weights scale, or beyond 40
// tokens automatically); linear otherwise.
exporting::ColourScale shown_scale(Quantity quantity, const ShownState& shown);

// The zoomed rows and columns of `quantity`'s matrix as whole cells (a partly visible cell
// counts); nullopt when the whole matrix is shown. Context keeps all its d_v columns.
std::optional<exporting::CellWindow> shown_window(Quantity quantity, const ShownState& shown);

// The quantity of a Heatmaps-panel step.
Quantity quantity_for(ui::HeadView step);

// "weights", "scaled + masked scores", ... for menus and messages.
const char* quantity_label(Quantity quantity);

// The CSV of one matrix as the heatmap shows it (selected head, zoomed rows and columns): the
// same text as an exported .csv file.
std::string csv_as_shown(Quantity quantity, const ShownState& shown, const exporting::ExportSource& source);

}  // namespace attnviz::export_ui
