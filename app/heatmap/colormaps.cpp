#include "app/heatmap/colormaps.h"

#include <vector>

#include "core/export/colormap.h"

namespace attnviz::heatmap {
namespace {

// ColorBrewer's 9-class Blues (white to dark blue), interpolated like the published tables.
// Only the window uses it (the mask and input matrices), so it is not among the export tables.
const exporting::Colormap& blues() {
  static const exporting::Colormap map(
      exporting::ColormapId::Viridis, "blues", false,
      exporting::parse_colormap_table("0.969,0.984,1.000\n0.871,0.922,0.969\n0.776,0.859,0.937\n"
                                      "0.620,0.792,0.882\n0.420,0.682,0.839\n0.259,0.573,0.776\n"
                                      "0.129,0.443,0.710\n0.031,0.318,0.612\n0.031,0.188,0.420\n",
                                      "blues"));
  return map;
}

exporting::ColormapId id_of(Colormap map) {
  switch (map) {
    case Colormap::Viridis: return exporting::ColormapId::Viridis;
    case Colormap::Magma: return exporting::ColormapId::Magma;
    case Colormap::Cividis: return exporting::ColormapId::Cividis;
    case Colormap::RdBu:
    case Colormap::Blues:
    case Colormap::Count: break;
  }
  return exporting::ColormapId::RdBu;
}

const exporting::Colormap& table_of(Colormap map) {
  return map == Colormap::Blues ? blues() : exporting::colormap(id_of(map));
}

std::vector<std::array<float, 4>> build_table() {
  std::vector<std::array<float, 4>> table;
  table.reserve(static_cast<std::size_t>(kColormapCount * kColormapEntries));
  for (int m = 0; m < kColormapCount; ++m) {
    for (const exporting::Rgb& c : table_of(static_cast<Colormap>(m)).table()) table.push_back({c.r, c.g, c.b, 1.0f});
  }
  return table;
}

}  // namespace

const char* colormap_name(Colormap map) { return table_of(map).name().c_str(); }

bool is_diverging(Colormap map) { return table_of(map).diverging(); }

std::span<const std::array<float, 4>> shader_table() {
  static const std::vector<std::array<float, 4>> table = build_table();
  return table;
}

Rgb sample(Colormap map, float t) {
  const exporting::Rgb c = table_of(map).at(t);
  return {c.r, c.g, c.b};
}

std::uint32_t contrasting_text_colour(Rgb background) {
  const exporting::Rgb text = exporting::contrasting_text_colour({background.r, background.g, background.b});
  return text.r > 0.5f ? 0xffffffffu : 0xff000000u;
}

}  // namespace attnviz::heatmap
