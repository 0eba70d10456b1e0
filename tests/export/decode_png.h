#pragma once
// PNG decoding for the export tests (stb_image), and a few readings of the decoded pixels.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/export/colormap.h"

namespace attnviz::testing {

struct DecodedImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;  // 3 bytes per pixel

  [[nodiscard]] std::array<int, 3> at(int x, int y) const {
    const std::size_t i =
        (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 3;
    return {rgb[i], rgb[i + 1], rgb[i + 2]};
  }
};

// Throws std::runtime_error when stb_image cannot decode the bytes.
DecodedImage decode_png(const std::string& bytes);

// The colormap entry whose 8-bit colour is nearest to `pixel`, and the squared distance.
std::pair<int, int> nearest_entry(const exporting::Colormap& map, const std::array<int, 3>& pixel);

// The pHYs chunk's pixels per metre (x), or -1 when the PNG has none.
long phys_pixels_per_metre(const std::string& png);

}  // namespace attnviz::testing
