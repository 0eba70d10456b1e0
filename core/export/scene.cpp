#include "core/export/scene.h"

#include <algorithm>
#include <cmath>

namespace attnviz::exporting {

HatchStyle masked_hatch() { return {true, Rgb{0.88f, 0.88f, 0.88f}, Rgb{0.55f, 0.55f, 0.55f}, 1.0f}; }

// Halfway to white: a masked cell keeps its value's hue but reads as "not used".
Rgb faded(Rgb colour) { return {0.5f * (colour.r + 1.0f), 0.5f * (colour.g + 1.0f), 0.5f * (colour.b + 1.0f)}; }

HatchStyle overlay_hatch() { return {false, Rgb{}, Rgb{0.35f, 0.35f, 0.35f}, 0.55f}; }

float colormap_position(float low, float high, bool log_scale, float value) {
  if (!(high > low)) return 0.5f;
  float t = 0.0f;
  if (log_scale) {
    const float log_low = std::log10(std::max(low, 1e-30f));
    const float log_high = std::log10(std::max(high, 1e-30f));
    t = value > 0.0f ? (std::log10(value) - log_low) / std::max(log_high - log_low, 1e-30f) : 0.0f;
  } else {
    t = (value - low) / (high - low);
  }
  return std::isnan(t) ? 0.0f : std::clamp(t, 0.0f, 1.0f);
}

Rgb value_colour(ColormapId map, float low, float high, float value, bool log_scale) {
  return colormap(map).at(colormap_position(low, high, log_scale, value));
}

CellLook cell_look(const CellBlock& block, int row, int col) {
  const auto index =
      static_cast<std::size_t>(row) * static_cast<std::size_t>(block.cols) + static_cast<std::size_t>(col);
  const bool masked = !block.masked.empty() && block.masked[index] != 0;
  const float value = block.values[index];
  CellLook look;
  if (block.binary) {
    look.fill = block.visible_colour;
  } else if (std::isfinite(value)) {
    look.fill = value_colour(block.colormap, block.low, block.high, value, block.log_scale);
  } else {
    look.has_fill = false;  // −∞ or NaN has no colour: shown like a masked cell
    look.hatched = true;
    look.hatch = masked_hatch();
    return look;
  }
  if (!masked) return look;
  look.hatched = true;
  if (block.masked_style == MaskedCellStyle::Replace || block.binary) {
    look.has_fill = false;
    look.hatch = masked_hatch();
  } else {
    look.fill = faded(look.fill);
    look.hatch = overlay_hatch();
  }
  return look;
}

}  // namespace attnviz::exporting
