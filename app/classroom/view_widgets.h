#pragma once
// What the Tiled and Decode views draw alike: the stepping toolbar (◀ ▶, play with a speed),
// a small labelled matrix (a heatmap of a host matrix at a given cell size, numbers in its
// cells), small bar charts and a line chart's geometry.

#include <cstdint>
#include <string>
#include <vector>

#include "app/heatmap/colormaps.h"
#include "app/heatmap/value_range.h"
#include "app/classroom/view_states.h"
#include "app/ui/classroom_state.h"
#include "app/ui/panel.h"
#include "core/common/matrix.h"

struct ImDrawList;

namespace attnviz::classroom {

// ◀ ▶ and Play / Pause with its speed (steps a second), then where it is: `where` is a translated
// format of the two numbers ("Tile %s of %s": a language puts its words where they go); keys:
// Left, Right, P. Clicking a step button pauses the playback.
void step_toolbar(Playback& playback, int& step, int count, const char* where);

// The width of an ImGui::InputInt with its − and + buttons that shows `largest` whole (a
// 4,096-token tile or prompt, "4096", was cut to "409" in a fixed width).
float int_input_width(int largest);

// A heatmap of a host matrix, its caption above it; the cells' screen rectangle is returned
// (for outlines drawn on top). Numbers in the cells when it has at most 24 rows and columns.
struct SmallMatrix {
  std::string id;
  std::string caption;
  const Matrix* values = nullptr;  // finite values
  std::uint64_t version = 0;       // a new one whenever `values` changed (fresh_upload_version)
  heatmap::ValueRange range;
  heatmap::Colormap colormap = heatmap::Colormap::RdBu;
  const std::vector<std::string>* row_labels = nullptr;
  float row_label_w = 0.0f;
  const std::vector<std::string>* col_labels = nullptr;
  float col_label_h = 0.0f;
  float cell_w = 24.0f;
  float cell_h = 24.0f;
  bool numbers = true;
};
struct CellsRect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // screen coordinates
};
CellsRect draw_small_matrix(ui::UiContext& ui, const SmallMatrix& matrix);
// Its size: caption line, column labels, cells (row labels to the left of the cells).
float small_matrix_height(const SmallMatrix& matrix);
float small_matrix_width(const SmallMatrix& matrix);

// A horizontal bar for `value` on an axis from `low` to `high` (0 inside it) in the box
// [x0, x1] × [y0, y1]; nothing for a value that is not finite.
void value_bar(ImDrawList* list, float x0, float y0, float x1, float y1, float value, float low, float high,
               std::uint32_t colour);

// A line chart's points: series[k][i] at x = i over [x0, x1], y from 0 (bottom, y1) to the
// largest value of any series (top, y0). Pure; tested headless.
struct ChartPoint {
  float x = 0.0f;
  float y = 0.0f;
};
std::vector<std::vector<ChartPoint>> chart_lines(const std::vector<std::vector<double>>& series, float x0, float y0,
                                                 float x1, float y1);

// "1.2 K", "3.4 M", "56 G": a count in three significant digits, for axes and tables.
std::string short_count(double value);
// "464 B", "1.4 KiB", "64 MiB": a byte count in few characters.
std::string short_bytes(std::uint64_t bytes);

}  // namespace attnviz::classroom
