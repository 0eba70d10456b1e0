#pragma once
// What the user is looking at, as plain data: the selected head, the hovered token, the pinned
// query, colormaps, ranges, zoom. Panels read and write it; nothing here is saved in scenarios.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "app/compute/compute_session.h"
#include "app/heatmap/colormaps.h"
#include "app/heatmap/heatmap_renderer.h"
#include "app/ui/theme.h"
#include "core/export/export.h"

// core/heads/role_ranking.h's, declared here so that what includes the view's state does not
// read the model's headers.
namespace attnviz::heads {
enum class Role : std::uint8_t;
}  // namespace attnviz::heads

namespace attnviz::ui {

enum class LayoutMode {
  Full,          // inputs on the left, heatmaps in the middle (the default)
  Heatmaps,      // heatmaps only (presenting, screenshots of the maths)
  CompareReady,  // heatmaps and the Backend panel with Vulkan − Eigen differences
};
const char* to_string(LayoutMode mode);  // "full", "heatmaps", "compare-ready"
std::optional<LayoutMode> layout_mode_from_string(const std::string& name);

// What fills the Model view's grid column (its Show line), remembered with the layout.
enum class ModelShown { Heads, Lens, Attribution, Patching };
const char* to_string(ModelShown shown);  // "heads", "lens", "attribution", "patching"
std::optional<ModelShown> model_shown_from_string(const std::string& name);

// The layout keys: F9 inputs and heatmaps, F8 heatmaps only, F10 heatmaps and the backend
// comparison.
enum class LayoutKey { F8, F9, F10 };
// The layout after pressing `key`. F8 toggles between heatmaps only and inputs and heatmaps,
// except while presenting: there the heatmaps alone are the point (and the layout to return
// to is kept by presentation mode), so F8 only ever hides a column F9 or F10 showed.
LayoutMode layout_after_key(LayoutKey key, LayoutMode current, bool presenting);

// A long sentence has more than this many tokens (queries or keys): its weights spread thin
// (WeightsRange::Automatic turns to the log scale, as `attnviz export` does), the Heatmaps
// panel shows the weights alone, and labels are no longer all kept readable.
inline constexpr int kLongSentence = exporting::kLogWeightsBeyondTokens;
inline bool is_long_sentence(int tokens) { return tokens > kLongSentence; }

// How weights map to the colormap: 0 to 1, 0 to the largest weight, or a log scale from 1e-4
// to 1 (long sentences spread attention thin: on a linear scale everything looks like 0).
// Automatic: 0 to 1 up to kLongSentence tokens, the log scale beyond.
enum class WeightsRange { ZeroToOne, Auto, Log, Automatic };

// What the Heatmaps panel shows large for the selected head: the three steps side by side
// (raw scores, scaled and masked scores, weights), or one of them. Auto: all three when they
// fit and the sentence is not long, the weights alone (larger, so they stay labelled) beyond.
enum class HeadView { Auto, AllThree, RawScores, ScaledScores, Weights };

// WeightsRange::Automatic resolved for a matrix of `tokens` rows or columns (the larger).
inline WeightsRange resolve(WeightsRange range, int tokens) {
  if (range != WeightsRange::Automatic) return range;
  return is_long_sentence(tokens) ? WeightsRange::Log : WeightsRange::ZeroToOne;
}

// A request to open the Export dialog (app/export_ui) for every matrix or for one heatmap's;
// the dialog takes it later in the same frame.
struct ExportRequest {
  bool all = true;
  exporting::Quantity quantity = exporting::Quantity::Weights;  // when not all
};

// File > Save view as image… (app/export_ui/view_image.h): the main area's view, as on screen,
// into a PNG. The dialog sets `path`; the frame loop captures the next frame (the dialog is gone
// from it) without the notices, hover or tooltips, crops it to the main area and writes it.
struct ViewImageRequest {
  std::filesystem::path path;
  std::filesystem::path folder_memory;  // where the folder of the last export is kept
};

// A rectangle of the window in ImGui's coordinates (pixels of the display, y down).
struct AreaRect {
  float x = 0.0f, y = 0.0f, w = 0.0f, h = 0.0f;
};

// What the status bar says of the overview (texts past 4,096 tokens), written by the Heatmaps
// panel while it shows one, with the document revision it describes: a status from an older
// text is never shown.
struct OverviewStatus {
  std::uint64_t revision = ~std::uint64_t{0};
  std::string summary;  // "overview of 65,000 tokens: computing 39%"
  std::string problem;  // why it cannot be computed, or ""
};

struct ViewState {
  int selected_head = 0;

  // Block sparsity on every heatmap with a mask: the tiles' size, 0 off (the Mask panel's option).
  int block_size = 0;

  // The token under the mouse (a chip of the Sentence panel, a heatmap row or column).
  // Write hovered_token_next while drawing; everyone reads hovered_token, which the frame loop
  // sets from it at the start of the next frame, so the panels' drawing order does not matter.
  int hovered_token = -1;
  int hovered_token_next = -1;
  // The same for a pretrained model's text, whose tokens are not the scenario's: hovering the
  // model's 16th token must not light up the scenario's 16th chip.
  int hovered_model_token = -1;
  int hovered_model_token_next = -1;

  std::optional<int> pinned_query;        // a clicked row: its weights as bars, its context vector
  std::optional<int> pinned_model_query;  // the same in a pretrained model's layers (its own tokens)

  heatmap::Colormap weights_colormap = heatmap::Colormap::Viridis;
  heatmap::Colormap scores_colormap = heatmap::Colormap::RdBu;
  heatmap::Colormap difference_colormap = heatmap::Colormap::RdBu;
  WeightsRange weights_range = WeightsRange::Automatic;
  HeadView head_view = HeadView::Auto;
  bool show_numbers = true;  // values in the cells (up to 24 × 24 visible cells)

  // Zoom and pan of the selected head's heatmaps (shared, so rows stay aligned); an axis whose
  // count is 0 shows all of it (axis_math.h: kept_window), so rows and columns zoom apart.
  heatmap::CellWindow head_zoom{0.0f, 0.0f, 0.0f, 0.0f};

  compute::BackendMode backend = compute::BackendMode::Automatic;      // requested; the session follows
  compute::HeadMatrix compared_matrix = compute::HeadMatrix::Weights;  // the difference heatmap

  LayoutMode layout = LayoutMode::Full;
  // A Main panel's title: the layout selects its tab in the next frame, then clears this.
  std::string select_main_tab;
  std::string shown_main_tab;  // the Main panel the layout drew in the last frame (its title)
  std::optional<ExportRequest> export_request;
  bool view_image_dialog_requested = false;  // File > Save view as image…: the dialog opens in this frame
  std::optional<ViewImageRequest> view_image_request;
  bool capturing_view = false;  // this frame is the one captured: no notices on top of the view
  // A picture or a measuring run (--screenshot, --stats --frames): work started in a frame (the
  // overview of a long text) is waited for, so frames show it done rather than its progress.
  bool wait_for_work = false;
  AreaRect main_area;  // where the layout put the main area in this frame
  // File > Quit, Ctrl+Q: the frame loop closes the window as its close button would (autosaving
  // on the way out).
  bool quit_requested = false;
  // A view has work a close would lose (the Training view's run since it was last saved): the
  // close button and Quit then ask it first. It sets close_held every frame; the frame loop sets
  // close_asked when the window was asked to close meanwhile, and the view, once answered,
  // clears close_held and sets quit_requested. A signal (Ctrl+C in the terminal) does not ask.
  bool close_held = false;
  bool close_asked = false;
  // Text and spacing on top of the monitor's scale (View > Larger text, for projectors).
  float text_scale = 1.0f;
  // View > Theme: the frame loop applies a change before the next frame (app/ui/theme.h).
  Theme theme = Theme::Light;
  // View > Reset layout: the layout shows its areas, view and panels as a first start does.
  bool reset_layout_requested = false;
  bool show_imgui_demo = false;

  // A pretrained model (app/compute/model_session.h): the layer and head the Heatmaps view shows
  // of it, the role its heads are coloured by, whether that view shows the scenario instead, and File > Open model…'s request (the
  // dialog opens in this frame).
  int model_layer = 0;
  int model_head = 0;
  ModelShown model_shown = ModelShown::Heads;  // the Model view's Show line
  // The head role the Model view's grid is coloured by, whose key cells the Heatmaps view
  // outlines in the head's weights (nullopt: none).
  std::optional<heads::Role> model_role;
  bool heatmaps_show_scenario = false;
  bool open_model_dialog_requested = false;

  OverviewStatus overview_status;
};

// A click on a heatmap's row pins it (its weights as bars); a click on the pinned row lets it go.
inline void toggle_pinned(std::optional<int>& pinned, int row) {
  if (pinned == row)
    pinned.reset();
  else
    pinned = row;
}

// Start of a frame: what was hovered during the last frame becomes this frame's highlight.
inline void begin_frame(ViewState& view) {
  view.hovered_token = view.hovered_token_next;
  view.hovered_token_next = -1;
  view.hovered_model_token = view.hovered_model_token_next;
  view.hovered_model_token_next = -1;
}

}  // namespace attnviz::ui
