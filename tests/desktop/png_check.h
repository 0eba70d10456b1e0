#pragma once
// Reading a screenshot back: its size and how colourful a region of it is.

#include <cstdint>
#include <filesystem>
#include <vector>

namespace attnviz::testing {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;  // row-major, 3 bytes per pixel
};

// Empty (width 0) when the file is missing or not a PNG.
Image load_png(const std::filesystem::path& path);

// Distinct colours among the region's saturated pixels (max − min channel > 40): the heatmaps'
// colormaps are saturated, the UI's greys, text and light blue accents mostly are not.
int distinct_saturated_colours(const Image& image, int x0, int y0, int x1, int y1);

// The longest horizontal run of saturated pixels in the region: a row of a heatmap on viridis
// (saturated end to end), or its colorbar, as wide as its cells.
int longest_saturated_run(const Image& image, int x0, int y0, int x1, int y1);

}  // namespace attnviz::testing
