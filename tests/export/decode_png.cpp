#include "tests/export/decode_png.h"

#include <cmath>
#include <stdexcept>

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

namespace attnviz::testing {

DecodedImage decode_png(const std::string& bytes) {
  int width = 0;
  int height = 0;
  int channels = 0;
  unsigned char* pixels = stbi_load_from_memory(reinterpret_cast<const unsigned char*>(bytes.data()),
                                                static_cast<int>(bytes.size()), &width, &height, &channels, 3);
  if (pixels == nullptr)
    throw std::runtime_error(std::string("stb_image cannot decode the PNG: ") + stbi_failure_reason());
  DecodedImage image{width, height,
                     std::vector<std::uint8_t>(
                         pixels, pixels + static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3)};
  stbi_image_free(pixels);
  return image;
}

std::pair<int, int> nearest_entry(const exporting::Colormap& map, const std::array<int, 3>& pixel) {
  int best = -1;
  int best_distance = 1 << 30;
  for (int i = 0; i < exporting::Colormap::kEntries; ++i) {
    const exporting::Rgb c = map.table()[static_cast<std::size_t>(i)];
    const std::array<int, 3> entry = {static_cast<int>(std::lround(c.r * 255.0f)),
                                      static_cast<int>(std::lround(c.g * 255.0f)),
                                      static_cast<int>(std::lround(c.b * 255.0f))};
    int distance = 0;
    for (std::size_t k = 0; k < 3; ++k) distance += (entry[k] - pixel[k]) * (entry[k] - pixel[k]);
    if (distance < best_distance) {
      best_distance = distance;
      best = i;
    }
  }
  return {best, best_distance};
}

long phys_pixels_per_metre(const std::string& png) {
  const std::size_t at = png.find("pHYs");
  if (at == std::string::npos || at + 13 > png.size()) return -1;
  long value = 0;
  for (std::size_t i = 0; i < 4; ++i) value = (value << 8) | static_cast<unsigned char>(png[at + 4 + i]);
  return value;
}

}  // namespace attnviz::testing
