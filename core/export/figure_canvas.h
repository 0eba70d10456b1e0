#pragma once
// What every part of a heatmap figure draws with: the house colours and type sizes, the fonts
// measured at the figure's dpi, and the Scene the parts add their shapes to, in drawing order.
// The parts (title block, axis labels, cells, colorbar, legend) share nothing else.

#include <string>
#include <string_view>
#include <vector>

#include "core/export/font.h"
#include "core/export/number_format.h"
#include "core/export/scene.h"

namespace attnviz::exporting {

inline constexpr Rgb kTextColour{0.08f, 0.08f, 0.08f};
inline constexpr Rgb kMutedText{0.30f, 0.30f, 0.30f};
inline constexpr Rgb kFrameColour{0.25f, 0.25f, 0.25f};

// Type sizes in points (the em, as in CSS and word processors); pixels follow from the dpi.
inline constexpr double kTitlePt = 13.0;
inline constexpr double kSubtitlePt = 9.0;
inline constexpr double kHeadingPt = 10.0;
inline constexpr double kAxisTitlePt = 9.0;
inline constexpr double kLabelPt = 9.0;
inline constexpr double kValuePt = 8.0;
inline constexpr double kTickPt = 8.0;
inline constexpr double kLegendPt = 8.0;

// A piece of text drawn at its own size, raised above the baseline by `raise` pixels: lets
// "×10" and a smaller "-8" above it read as a power of ten in any font.
struct Run {
  std::string text;
  double size = 0.0;
  double raise = 0.0;
};

// A number with an optional raised exponent as runs at `size`.
std::vector<Run> power_runs(const PowerText& text, double size);

class FigureCanvas {
 public:
  FigureCanvas(const FontPair& fonts, int dpi) : fonts_(fonts), px_per_pt_(dpi / 72.0) {}

  [[nodiscard]] double size_px(double points) const { return points * px_per_pt_; }
  // Whole pixels, at least one: line widths, gaps and margins.
  [[nodiscard]] int px(double points) const;
  [[nodiscard]] double ascent(double size, bool bold = false) const;
  [[nodiscard]] double descent(double size, bool bold = false) const;
  [[nodiscard]] double line_height(double size, bool bold = false) const {
    return ascent(size, bold) + descent(size, bold);
  }
  [[nodiscard]] double width(const std::string& text, double size, bool bold = false) const;
  // Baseline that centres the text's ascent-to-descent box on `centre`.
  [[nodiscard]] double centred_baseline(double centre, double size, bool bold = false) const {
    return centre + (ascent(size, bold) - descent(size, bold)) / 2.0;
  }
  [[nodiscard]] double runs_width(const std::vector<Run>& runs) const;
  [[nodiscard]] std::vector<std::string> font_families() const { return fonts_.regular->families(); }

  void add_shape(Shape shape) { scene_.shapes.push_back(std::move(shape)); }
  void add_text(std::string text, double x, double y, double size, TextAnchor anchor, Rgb colour, bool bold = false,
                bool vertical = false);
  // Runs side by side from an anchor on the baseline; vertical runs read upward, as add_text's.
  void add_runs(const std::vector<Run>& runs, double x, double y, TextAnchor anchor, Rgb colour, bool vertical = false);
  // Lines of `text` no wider than `max_width` from `y` (the top of the first line); with a
  // `separator`, broken between the parts it joins first. Returns the y below the last line.
  double add_wrapped(const std::string& text, double x, double y, double size, Rgb colour, bool bold, double spacing,
                     double max_width, int* lines = nullptr, std::string_view separator = {});

  // The image reaches at least to (x, y): its size is the farthest point drawn, plus the margin.
  void include(double x, double y);
  [[nodiscard]] int right() const { return right_; }
  [[nodiscard]] int bottom() const { return bottom_; }

  [[nodiscard]] Scene& scene() { return scene_; }

 private:
  [[nodiscard]] const Font& font(bool bold) const { return bold ? *fonts_.bold : *fonts_.regular; }

  const FontPair& fonts_;
  double px_per_pt_;
  Scene scene_;
  int right_ = 0;
  int bottom_ = 0;
};

}  // namespace attnviz::exporting
