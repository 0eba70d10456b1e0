#pragma once
// The words around the panels: the title and subtitle above them, and below them the legend of
// cell looks (visible, masked) and the notes. All wrap at `text_width`, the figure's width, so a
// long title never widens the image.

#include <string>
#include <vector>

#include "core/export/figure.h"
#include "core/export/figure_canvas.h"

namespace attnviz::exporting {

// The title (bold) and subtitle from `margin`, the top-left corner; returns the y below them.
// `title_lines` gets how many lines the title took (left alone when there is no title).
double draw_title_block(FigureCanvas& canvas, const HeatmapFigure& figure, int margin, double text_width,
                        int& title_lines);

// The legend from (x, y), then the figure's notes and the layout's own after them.
void draw_legend_and_notes(FigureCanvas& canvas, const HeatmapFigure& figure, bool any_masked,
                           const std::vector<std::string>& layout_notes, int x, int y, double text_width);

}  // namespace attnviz::exporting
