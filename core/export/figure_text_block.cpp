#include "core/export/figure_text_block.h"

#include <algorithm>
#include <optional>

#include "core/export/figure_cells.h"

namespace attnviz::exporting {
namespace {

// Legend items side by side while they fit the text width, then on the next line.
class LegendRow {
 public:
  LegendRow(FigureCanvas& canvas, int x, int y, double text_width)
      : canvas_(canvas), x_(x), text_width_(text_width), swatch_(canvas.px(10.0)), cursor_(x), line_top_(y) {}

  void add(const std::string& text, const std::optional<Rgb>& fill, const std::optional<HatchStyle>& hatch) {
    const double size = canvas_.size_px(kLegendPt);
    const int frame = std::max(1, canvas_.px(0.5));
    const double item_width = swatch_ + canvas_.px(4.0) + canvas_.width(text, size);
    if (any_item_ && cursor_ + item_width > x_ + text_width_) {
      cursor_ = x_;
      line_top_ += swatch_ + canvas_.px(6.0);
    }
    const int left = static_cast<int>(cursor_);
    canvas_.add_shape(
        FillRect{left - frame, line_top_ - frame, swatch_ + 2 * frame, swatch_ + 2 * frame, kFrameColour});
    if (fill) canvas_.add_shape(FillRect{left, line_top_, swatch_, swatch_, *fill});
    if (hatch) canvas_.add_shape(HatchRect{left, line_top_, swatch_, swatch_, *hatch});
    const double text_x = cursor_ + swatch_ + canvas_.px(4.0);
    canvas_.add_text(text, text_x, canvas_.centred_baseline(line_top_ + swatch_ / 2.0, size), size, TextAnchor::Start,
                     kTextColour);
    canvas_.include(text_x + canvas_.width(text, size), line_top_ + swatch_ + frame);
    cursor_ = text_x + canvas_.width(text, size) + canvas_.px(14.0);
    any_item_ = true;
  }

  // Below the last line of items; `y` itself when there are none.
  [[nodiscard]] double bottom(int y) const { return any_item_ ? line_top_ + swatch_ + canvas_.px(6.0) : y; }

 private:
  FigureCanvas& canvas_;
  int x_;
  double text_width_;
  int swatch_;
  double cursor_;
  int line_top_;
  bool any_item_ = false;
};

}  // namespace

double draw_title_block(FigureCanvas& canvas, const HeatmapFigure& figure, int margin, double text_width,
                        int& title_lines) {
  double y = margin;
  if (!figure.title.empty()) {
    y = canvas.add_wrapped(figure.title, margin, y, canvas.size_px(kTitlePt), kTextColour, true, 1.05, text_width,
                           &title_lines) +
        canvas.px(2.0);
  }
  if (!figure.subtitle.empty()) {
    y = canvas.add_wrapped(figure.subtitle, margin, y, canvas.size_px(kSubtitlePt), kMutedText, false, 1.1, text_width,
                           nullptr, " · ");
  }
  return y;
}

void draw_legend_and_notes(FigureCanvas& canvas, const HeatmapFigure& figure, bool any_masked,
                           const std::vector<std::string>& layout_notes, int x, int y, double text_width) {
  LegendRow legend(canvas, x, y, text_width);
  if (figure.binary && !figure.visible_legend.empty())
    legend.add(figure.visible_legend, visible_colour(figure), std::nullopt);
  if (any_masked && !figure.masked_legend.empty()) {
    if (figure.masked_style == MaskedCellStyle::Overlay && !figure.binary) {
      legend.add(figure.masked_legend, faded(colormap(figure.colormap).at(0.8f)), overlay_hatch());
    } else {
      legend.add(figure.masked_legend, std::nullopt, masked_hatch());
    }
  }
  const double size = canvas.size_px(kLegendPt);
  double line_y = legend.bottom(y);
  std::vector<std::string> notes = figure.notes;
  notes.insert(notes.end(), layout_notes.begin(), layout_notes.end());
  for (const std::string& note : notes) {
    line_y = canvas.add_wrapped(note, x, line_y, size, kMutedText, false, 1.15, text_width) +
             canvas.line_height(size) * 0.25;
  }
}

}  // namespace attnviz::exporting
