#pragma once
// A laid-out figure as a flat list of shapes in pixel coordinates (origin top left). The PNG
// and SVG writers draw the same Scene, so both formats share one layout.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/export/colormap.h"

namespace attnviz::exporting {

struct FillRect {
  int x = 0, y = 0, w = 0, h = 0;
  Rgb colour;
};

// Diagonal stripes ("/") of `stripe` at opacity `stripe_alpha`, over `background` when set,
// otherwise over what is already drawn. The stripes follow x + y ≡ 0 (mod period) in image
// coordinates, so neighbouring hatched cells join into one continuous pattern.
struct HatchStyle {
  bool has_background = true;
  Rgb background;
  Rgb stripe;
  float stripe_alpha = 1.0f;
  friend bool operator==(const HatchStyle&, const HatchStyle&) = default;
};

struct HatchRect {
  int x = 0, y = 0, w = 0, h = 0;
  HatchStyle style;
};

// How masked cells look: Replace hides the value (grey, hatched: weights, scaled scores);
// Overlay keeps the value's hue, faded halfway to white, with grey stripes over it (raw scores
// exist for masked pairs too, but are not used).
enum class MaskedCellStyle { Replace, Overlay };

// A heatmap matrix: rows × cols square cells of `cell` pixels with their top-left corner at
// (x, y). Colours come from the values through cell_look(), so the PNG and the SVG agree.
struct CellBlock {
  int x = 0, y = 0, cell = 1, rows = 0, cols = 0;
  int gap = 0;  // background-coloured pixels between cells (the mask's grid), at each cell's right and bottom
  std::vector<float> values;         // rows × cols, row-major
  std::vector<std::uint8_t> masked;  // rows × cols, 1 = masked; empty: none
  ColormapId colormap = ColormapId::Viridis;
  float low = 0.0f;
  float high = 1.0f;
  bool log_scale = false;  // colours follow log10 of the values between low and high (> 0)
  bool binary = false;     // a mask: visible cells in visible_colour, masked ones hatched
  Rgb visible_colour;
  MaskedCellStyle masked_style = MaskedCellStyle::Replace;
};

struct CellLook {
  Rgb fill;
  bool has_fill = true;  // false: the hatch has its own background
  bool hatched = false;
  HatchStyle hatch;
};

// The grey, hatched look of a masked cell (also the legend's swatch).
HatchStyle masked_hatch();
// The stripes over a faded masked cell in the Overlay style (no background of their own).
HatchStyle overlay_hatch();
Rgb faded(Rgb colour);
CellLook cell_look(const CellBlock& block, int row, int col);
// Where a value falls on the colormap, 0..1, clamped: t = (value − low) / (high − low), or with
// `log_scale` the same in log10 (values ≤ 0 at the bottom), as the window's heatmaps compute it.
float colormap_position(float low, float high, bool log_scale, float value);
// The colour a value gets: the table entry at colormap_position.
Rgb value_colour(ColormapId map, float low, float high, float value, bool log_scale = false);

// A vertical colorbar: the colormap's high end at the top, one table entry per 1/256 of h.
struct ColourRamp {
  int x = 0, y = 0, w = 0, h = 0;
  ColormapId colormap = ColormapId::Viridis;
};

// A filled triangle (the colorbar's extension arrows), corners in pixels, edges anti-aliased.
struct Triangle {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0, x2 = 0, y2 = 0;
  Rgb colour;
};

enum class TextAnchor { Start, Middle, End };

// One line of text; (x, y) is the anchor point on the baseline. Vertical text reads bottom to
// top (rotated 90° counter-clockwise about the anchor), as SVG's rotate(-90).
struct TextItem {
  std::string text;  // UTF-8
  float x = 0.0f;
  float y = 0.0f;
  float size = 12.0f;  // em height in pixels
  TextAnchor anchor = TextAnchor::Start;
  bool vertical = false;
  bool bold = false;
  Rgb colour;
};

using Shape = std::variant<FillRect, HatchRect, CellBlock, ColourRamp, Triangle, TextItem>;

struct Scene {
  int width = 0;
  int height = 0;
  int dpi = 300;         // for the PNG pHYs chunk and the SVG's physical size
  int hatch_period = 8;  // pixels between stripes
  int hatch_width = 2;   // stripe thickness in pixels (measured along x)
  std::string title;     // the SVG <title>
  // The families the layout measured with (the Hangul font, then those lending it glyphs),
  // first in the SVG's font-family.
  std::vector<std::string> font_families;
  Rgb background{1.0f, 1.0f, 1.0f};
  std::vector<Shape> shapes;  // drawn in order
};

}  // namespace attnviz::exporting
