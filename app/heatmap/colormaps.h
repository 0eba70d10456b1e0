#pragma once
// The heatmaps' colormaps: the published tables of core/export/colormap.h (assets/colormaps),
// so the window and exported images use identical colours. The fragment shader reads them from
// a storage buffer (shader_table()); the CPU uses the same entries for colorbars and for
// choosing readable text colours on cells. Colours are sRGB-encoded (the swapchain is UNORM).

#include <array>
#include <cstdint>
#include <span>

namespace attnviz::heatmap {

// The order is the shader's table order.
enum class Colormap : std::uint8_t {
  Viridis,  // sequential, perceptually uniform, colour-blind safe: weights
  Magma,    // sequential, dark to light
  Cividis,  // sequential, for red-green colour blindness
  RdBu,     // diverging, blue (negative) - white (0) - red (positive): scores, differences
  Blues,    // sequential, white to dark blue (ColorBrewer): masks and inputs, never exported
  Count,
  RedBlue = RdBu,  // the name the input panels first used
};

inline constexpr int kColormapCount = static_cast<int>(Colormap::Count);
inline constexpr int kColormapEntries = 256;

struct Rgb {
  float r = 0, g = 0, b = 0;  // 0..1, sRGB-encoded
};

const char* colormap_name(Colormap map);  // "viridis", "rdbu", ...
bool is_diverging(Colormap map);

// The table entry for t in [0, 1] (clamped), the entry the shader picks for the same t.
Rgb sample(Colormap map, float t);

// kColormapCount × kColormapEntries RGBA floats (alpha 1), the shader's table.
std::span<const std::array<float, 4>> shader_table();

// Black or white, whichever reads better on `background` (WCAG contrast).
std::uint32_t contrasting_text_colour(Rgb background);  // ImU32 (ABGR)

}  // namespace attnviz::heatmap
