#pragma once
// Scene → pixels → PNG bytes (stb_image_write), with a pHYs chunk carrying the dpi so that
// printing and layout programs size the image as intended.

#include <cstdint>
#include <string>
#include <vector>

#include "core/export/font.h"
#include "core/export/scene.h"

namespace attnviz::exporting {

struct RgbImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;  // row-major RGB, 3 bytes per pixel
};

RgbImage rasterize(const Scene& scene, const FontPair& fonts);

// 8-bit RGB PNG; deterministic bytes for the same image and dpi.
std::string encode_png(const RgbImage& image, int dpi);

}  // namespace attnviz::exporting
