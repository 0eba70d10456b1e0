#pragma once
// A heatmap as an ImGui widget: the cells drawn on the GPU (HeatmapRenderer), token labels on
// both axes (thinned and ellipsised when they do not fit, rotated when columns are narrow),
// grid lines and in-cell numbers for small matrices, outlines for the hovered token and the
// pinned query, mouse-wheel zoom and drag to pan. What the tooltip says is up to the caller.
//
// Any panel can show any matrix:
//   HeatmapSpec spec;
//   spec.source = {.host = &my_matrix, .version = document.revision()};   // or a device matrix
//   spec.cells_width = spec.cells_height = 200;
//   HeatmapHover hover = ui.heatmaps.draw("##mask", spec);

#include <cstdint>
#include <string>
#include <vector>

#include "app/heatmap/colormaps.h"
#include "app/heatmap/heatmap_renderer.h"

struct ImFont;

namespace attnviz::heatmap {

struct HeatmapSource {
  DeviceMatrix device;           // used when device.buffer is set (results on the GPU)
  const Matrix* host = nullptr;  // otherwise uploaded once per `version`
  std::uint64_t version = 0;
};

// Light grey over blocks and keys the mask hides entirely in the overview of a long text: its
// image (HeatmapSpec::nan_hidden), the locator and the pinned query's strip (ABGR).
inline constexpr std::uint32_t kHiddenShade = 0xffd4d4d4u;

struct HeatmapSpec {
  HeatmapSource source;
  const Matrix* values = nullptr;  // host values for in-cell numbers (optional)
  float value_scale = 1.0f;        // shown = value_scale · stored
  float range_min = 0.0f;          // shown values at the colormap's ends
  float range_max = 1.0f;
  Colormap colormap = Colormap::Viridis;
  const MaskSetting* mask = nullptr;  // hatch the cells it hides
  int mask_head = 0;                  // whose mask it is (a mask expression using h gives each head its own)
  int mask_heads = 1;                 // the problem's query heads
  float distance_bias = 0.0f;         // shown −= distance_bias · |row − col| (ALiBi's bias on scaled scores)
  // Dropout's kept set (1.0 / 0.0 per cell, the values' shape): cells where it is 0 are hatched
  // as dropped. Neither set: nothing is.
  HeatmapSource kept;

  const std::vector<std::string>* row_labels = nullptr;  // null: 0, 1, 2, ...
  const std::vector<std::string>* col_labels = nullptr;
  float cells_width = 200.0f;  // the cells' area in pixels (labels come on top of it)
  float cells_height = 200.0f;
  float row_label_width = 0.0f;   // 0: no row labels
  float col_label_height = 0.0f;  // 0: no column labels
  // The labels already say where they are ("32,427 dog", the overview's block starts): they are
  // never prefixed with the cell's index, which would be the image's, not the text's.
  bool labels_hold_positions = false;

  CellWindow* zoom = nullptr;    // shared zoom/pan state; null: the whole matrix, no zooming
  bool zoom_columns = true;      // false: all columns always shown (rows still follow `zoom`)
  int highlight_token = -1;      // outline this row and column (a hovered token)
  bool highlight_column = true;  // false: the row only (columns are other tokens: cross-attention)
  int pinned_row = -1;           // outline this row (the pinned query)
  bool numbers = true;           // values in the cells when <= 24 rows and columns are visible
  // Cells read per pixel and axis when each pixel covers several (the brightest wins, so thin
  // lines of high weight stay visible); 1 for thumbnails, where speed matters more.
  int max_samples = 3;
  bool log_scale = false;  // the colormap spans log10(range_min) .. log10(range_max)
  // NaN values are blocks the mask hides entirely (the overview's): drawn in kHiddenShade, in
  // the cached image rather than as rectangles over it every frame.
  bool nan_hidden = false;
};

struct HeatmapHover {
  bool hovered = false;  // over the cells
  int row = -1;          // the hovered cell, or the hovered row / column label
  int col = -1;
  bool clicked = false;  // released without dragging
  bool zoomed = false;   // zoomed or panned this frame
};

// The widget's mouse target: an invisible button of `size` at the cursor. It claims the mouse
// wheel only when the heatmap zooms (spec.zoom); over any other heatmap (the Mask panel's,
// thumbnails, the classroom's pages) the wheel scrolls the window it is in, as everywhere else.
// Apart from the widget so that tests can check it without a GPU.
struct HeatmapItem {
  bool hovered = false;
  bool active = false;    // held down (dragging)
  bool released = false;  // let go this frame
};
HeatmapItem heatmap_item(const HeatmapSpec& spec, float width, float height);

class HeatmapWidget {
 public:
  explicit HeatmapWidget(HeatmapRenderer& renderer) : renderer_(&renderer) {}

  // Draws at the cursor and advances it by the widget's size (labels + cells).
  HeatmapHover draw(const char* id, const HeatmapSpec& spec);

  // Horizontal colorbar with min, centre (diverging) and max ticks, `width` pixels wide.
  // With `log_scale`, the colours (and the middle tick) follow log10 of the values.
  void colorbar(Colormap colormap, float range_min, float range_max, float width, const char* caption,
                bool log_scale = false) const;
  // The colorbar's height (its bar and tick labels; ImGui's item spacing comes on top).
  static float colorbar_height();

  // Room for labels: the widest label (capped at max_width), and the height column labels
  // need over cells `cell_px` wide (horizontal when they fit, otherwise rotated, capped).
  static float row_label_width(const std::vector<std::string>& labels, float max_width);
  static float col_label_height(const std::vector<std::string>& labels, float cell_px, float max_height);
  // How far column labels may reach right of the cells (half a line of text): a panel leaves
  // this much free beside its rightmost heatmap so that column's label is not cut off.
  static float label_overhang();

  [[nodiscard]] HeatmapRenderer& renderer() const { return *renderer_; }

  // Block sparsity on every heatmap that has a mask: its size × size tiles drawn empty,
  // partial or full, with "k of T tiles skipped"; 0 turns it off (the Mask panel's option).
  void set_block_size(int size) { block_size_ = size; }
  [[nodiscard]] int block_size() const { return block_size_; }

 private:
  HeatmapRenderer* renderer_;
  int block_size_ = 0;
};

// Draws `text` rotated 90° counter-clockwise, its start at `start` (reading upwards).
void add_vertical_text(ImDrawList* list, ImFont* font, float size, float start_x, float start_y, std::uint32_t colour,
                       const std::string& text);

// `text` shortened with "…" to fit `max_width` pixels in `font` at `size`.
std::string ellipsize(ImFont* font, float size, const std::string& text, float max_width);

}  // namespace attnviz::heatmap
