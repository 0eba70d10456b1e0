#pragma once
// The heatmap matrix of a panel: how big its cells are, whether values are written in them and
// at what size, and the framed block of cells with those values.

#include <string>

#include "core/export/figure.h"
#include "core/export/figure_canvas.h"

namespace attnviz::exporting {

// The cell size in pixels: the figure's own, or one from the token count, the dpi and the grid.
int choose_cell_px(const HeatmapFigure& figure, const FigureCanvas& canvas, int grid_columns);

struct CellValues {
  bool shown = false;
  double size = 10.0;   // pixels
  std::string warning;  // why values asked for are left out; empty otherwise
};

CellValues choose_cell_values(const HeatmapFigure& figure, const FigureCanvas& canvas, int cell);

// Whether any panel has a masked or non-finite cell (the legend then explains their look).
bool any_cell_masked(const HeatmapFigure& figure);

// The colour of a visible cell in a mask figure.
Rgb visible_colour(const HeatmapFigure& figure);

// The panel's cells with their top-left corner at (x, y), in a thin frame, values over them.
void draw_cells(FigureCanvas& canvas, const HeatmapFigure& figure, const FigurePanel& panel, int x, int y, int cell,
                const CellValues& values);

}  // namespace attnviz::exporting
