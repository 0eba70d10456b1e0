#pragma once
// The colorbar beside the panels: a ramp of the colormap with ticks at round values (powers of
// ten on a log scale), its label with the ticks' common power of ten, and a triangle at each end
// the values go beyond (as matplotlib's extend).

#include <string>
#include <vector>

#include "core/export/figure.h"
#include "core/export/figure_canvas.h"

namespace attnviz::exporting {

// Values the colour range does not reach are drawn in its end colours; the notes say how many.
struct RangeOverflow {
  bool below = false;
  bool above = false;
  std::vector<std::string> notes;
};

RangeOverflow find_values_beyond_range(const HeatmapFigure& figure);

// How far an end triangle reaches beyond the bar.
int extension_height(const FigureCanvas& canvas);

// The colorbar's size, ticks and texts, chosen before anything is placed.
struct ColorbarPlan {
  int height = 0;
  int width = 0;  // from the panels' right edge to the end of the label; 0: no colorbar
  std::vector<double> ticks;
  std::vector<std::vector<Run>> tick_texts;
  std::vector<Run> label;
  std::string tick_exponent;  // the ticks are multiples of 10^tick_exponent (empty: plain)
};

// At least `min_height` tall (the panels' span) and long enough for its label.
ColorbarPlan plan_colorbar(const HeatmapFigure& figure, const FigureCanvas& canvas, int min_height);

struct PlacedColorbar {
  ColourRamp ramp;
  int bottom = 0;  // of the bar, its lower triangle and its labels
};

// The colorbar right of `panels_right`, its top level with the first matrix's at `top`.
PlacedColorbar draw_colorbar(FigureCanvas& canvas, const HeatmapFigure& figure, const ColorbarPlan& plan,
                             const RangeOverflow& overflow, int panels_right, int top);

}  // namespace attnviz::exporting
