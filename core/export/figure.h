#pragma once
// A heatmap figure as a reader sees it, independent of the file format: title, token labels on
// both axes, one matrix per panel (one panel, or all heads in a grid), a colorbar with numeric
// ticks, masked cells hatched and named in a legend, values in the cells when they fit.
// lay_out() turns it into a Scene (pixels) sized from the dpi.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/matrix.h"
#include "core/common/wording.h"
#include "core/export/colormap.h"
#include "core/export/font.h"
#include "core/export/scene.h"

namespace attnviz::exporting {

enum class ValuesMode { Auto, On, Off };

struct FigurePanel {
  std::string heading;               // "head 1" in a grid; empty for a single heatmap
  Matrix values;                     // rows × cols
  std::vector<std::uint8_t> masked;  // rows × cols, 1 = masked; empty: nothing masked
};

struct HeatmapFigure {
  std::string title;     // bold first line
  std::string subtitle;  // what, head, mask, scale
  std::vector<std::string> row_labels;
  std::vector<std::string> col_labels;
  // Position of the first row and column in the whole sequence (a window starts later): when
  // only every k-th token is labelled, labels are prefixed with these positions ("120 the").
  int first_row_index = 0;
  int first_col_index = 0;
  bool col_labels_are_positions = false;  // context's v0, v1, …: no prefix needed
  bool row_labels_are_positions = false;  // an overview's block starts: no prefix needed
  bool cells_are_blocks = false;          // an overview's pooled pixels: each row and column a block of tokens
  std::string row_axis_title;             // "query tokens"
  std::string col_axis_title;             // "key tokens"
  std::vector<FigurePanel> panels;
  int grid_columns = 1;

  ColormapId colormap = ColormapId::Viridis;
  float range_low = 0.0f;
  float range_high = 1.0f;
  bool log_scale = false;  // colours and colorbar follow log10 of the values (range_low > 0)
  std::string colorbar_label;
  // A mask figure: visible cells in one colour, masked ones hatched; no colorbar.
  bool binary = false;
  std::string visible_legend;

  MaskedCellStyle masked_style = MaskedCellStyle::Replace;
  std::string masked_legend;  // shown when some cell is masked
  std::vector<std::string> notes;

  ValuesMode values = ValuesMode::Auto;
  int value_decimals = 2;
  bool value_scientific = false;  // cell values as "-5.9e-8" (tiny ones, e.g. Vulkan − Eigen)
  std::optional<int> cell_px;     // default: from the token count and dpi
  int dpi = 300;
  // The language of the notes lay_out() adds (labels thinned, values beyond the colour range);
  // the figure's other words come translated.
  Wording wording{};
};

// Whether a cell is coloured by its value: finite, and not hidden by the mask (the Replace style
// hides masked values). The automatic range and the colorbar's end triangles count these alike.
bool shown_in_colour(const HeatmapFigure& figure, const FigurePanel& panel, std::size_t index);

struct PanelGeometry {
  int matrix_x = 0;
  int matrix_y = 0;
  int rows = 0;
  int cols = 0;
};

struct FigureGeometry {
  int cell_px = 0;
  std::vector<PanelGeometry> panels;
  std::optional<ColourRamp> colorbar;
  bool values_shown = false;
  bool column_labels_vertical = false;
  int label_step = 1;   // every label_step-th token (1, 2, 5, 10, 20, …) is labelled when cells are too small for all
  int title_lines = 0;  // the title wrapped to the figure's width
  // Values beyond the colour range: a triangle at that end of the colorbar, in its end colour.
  bool extends_low = false;
  bool extends_high = false;
  std::string tick_exponent;  // the colorbar's ticks are multiples of 10^tick_exponent (empty: plain)
};

struct LaidOutFigure {
  Scene scene;
  FigureGeometry geometry;
  std::vector<std::string> warnings;  // what the figure could not do as asked (values that do not fit)
};

LaidOutFigure lay_out(const HeatmapFigure& figure, const FontPair& fonts);

// The smallest readable matrix: its longer side is at least this many pixels at `dpi` (two
// thirds of an inch, in proportion to its colorbar and axis titles). The default cell size keeps
// to it; callers refuse a cell size that does not.
int min_matrix_side_px(int dpi);

}  // namespace attnviz::exporting
