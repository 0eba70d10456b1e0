#include "tests/desktop/png_check.h"

#include <stb_image.h>

#include <algorithm>
#include <set>

namespace attnviz::testing {

Image load_png(const std::filesystem::path& path) {
  Image image;
  int channels = 0;
  unsigned char* pixels = stbi_load(path.c_str(), &image.width, &image.height, &channels, 3);
  if (pixels == nullptr) return {};
  image.rgb.assign(pixels, pixels + static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 3);
  stbi_image_free(pixels);
  return image;
}

namespace {

bool saturated(const Image& image, int x, int y) {
  const std::uint8_t* p =
      &image.rgb[(static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) + static_cast<std::size_t>(x)) *
                 3];
  return std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]}) > 40;
}

}  // namespace

int longest_saturated_run(const Image& image, int x0, int y0, int x1, int y1) {
  int longest = 0;
  for (int y = std::max(y0, 0); y < std::min(y1, image.height); ++y) {
    int run = 0;
    for (int x = std::max(x0, 0); x < std::min(x1, image.width); ++x) {
      run = saturated(image, x, y) ? run + 1 : 0;
      longest = std::max(longest, run);
    }
  }
  return longest;
}

int distinct_saturated_colours(const Image& image, int x0, int y0, int x1, int y1) {
  std::set<std::uint32_t> colours;
  for (int y = std::max(y0, 0); y < std::min(y1, image.height); ++y) {
    for (int x = std::max(x0, 0); x < std::min(x1, image.width); ++x) {
      const std::uint8_t* p = &image.rgb[(static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) +
                                          static_cast<std::size_t>(x)) *
                                         3];
      const int hi = std::max({p[0], p[1], p[2]});
      const int lo = std::min({p[0], p[1], p[2]});
      if (hi - lo > 40) colours.insert(static_cast<std::uint32_t>(p[0] << 16 | p[1] << 8 | p[2]));
    }
  }
  return static_cast<int>(colours.size());
}

}  // namespace attnviz::testing
