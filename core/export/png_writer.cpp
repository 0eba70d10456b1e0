#include "core/export/png_writer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

// The one stb_image_write implementation of attnviz, private to this file.
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace attnviz::exporting {
namespace {

std::uint8_t to_byte(float channel) {
  return static_cast<std::uint8_t>(std::lround(std::clamp(channel, 0.0f, 1.0f) * 255.0f));
}

class Canvas {
 public:
  Canvas(int width, int height, Rgb background) : image_{width, height, {}} {
    image_.pixels.resize(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3);
    for (std::size_t i = 0; i < image_.pixels.size(); i += 3) {
      image_.pixels[i] = to_byte(background.r);
      image_.pixels[i + 1] = to_byte(background.g);
      image_.pixels[i + 2] = to_byte(background.b);
    }
  }

  // Blends `colour` over pixel (x, y) with opacity alpha in [0, 1]; outside the canvas: no-op.
  void blend(int x, int y, Rgb colour, float alpha) {
    if (x < 0 || y < 0 || x >= image_.width || y >= image_.height || alpha <= 0.0f) return;
    std::uint8_t* p = &image_.pixels[(static_cast<std::size_t>(y) * static_cast<std::size_t>(image_.width) +
                                      static_cast<std::size_t>(x)) *
                                     3];
    const std::array<float, 3> source = {colour.r, colour.g, colour.b};
    for (std::size_t c = 0; c < 3; ++c) {
      const float below = static_cast<float>(p[c]) / 255.0f;
      p[c] = to_byte(below + (source[c] - below) * std::min(alpha, 1.0f));
    }
  }

  RgbImage take() { return std::move(image_); }

 private:
  RgbImage image_;
};

void draw(Canvas& canvas, const FillRect& rect) {
  for (int y = rect.y; y < rect.y + rect.h; ++y) {
    for (int x = rect.x; x < rect.x + rect.w; ++x) canvas.blend(x, y, rect.colour, 1.0f);
  }
}

void hatch_pixel(Canvas& canvas, int x, int y, const HatchStyle& style, const Scene& scene) {
  if (style.has_background) canvas.blend(x, y, style.background, 1.0f);
  if ((x + y) % scene.hatch_period < scene.hatch_width) canvas.blend(x, y, style.stripe, style.stripe_alpha);
}

void draw(Canvas& canvas, const HatchRect& rect, const Scene& scene) {
  for (int y = rect.y; y < rect.y + rect.h; ++y) {
    for (int x = rect.x; x < rect.x + rect.w; ++x) hatch_pixel(canvas, x, y, rect.style, scene);
  }
}

void draw(Canvas& canvas, const CellBlock& block, const Scene& scene) {
  for (int row = 0; row < block.rows; ++row) {
    for (int col = 0; col < block.cols; ++col) {
      const CellLook look = cell_look(block, row, col);
      const int left = block.x + col * block.cell;
      const int top = block.y + row * block.cell;
      const int size = block.cell - block.gap;
      for (int y = top; y < top + size; ++y) {
        for (int x = left; x < left + size; ++x) {
          if (look.has_fill) canvas.blend(x, y, look.fill, 1.0f);
          if (look.hatched) hatch_pixel(canvas, x, y, look.hatch, scene);
        }
      }
    }
  }
}

void draw(Canvas& canvas, const ColourRamp& ramp) {
  const Colormap& map = colormap(ramp.colormap);
  for (int row = 0; row < ramp.h; ++row) {
    // Row centre → t, top row = 1: entry floor(t · 256), the same lookup the cells use.
    const float t = 1.0f - (static_cast<float>(row) + 0.5f) / static_cast<float>(ramp.h);
    const Rgb colour = map.at(t);
    for (int x = ramp.x; x < ramp.x + ramp.w; ++x) canvas.blend(x, ramp.y + row, colour, 1.0f);
  }
}

// Coverage by 4 × 4 samples per pixel: smooth edges, and the same bytes on every machine.
void draw(Canvas& canvas, const Triangle& tri) {
  const auto edge = [](float ax, float ay, float bx, float by, float px, float py) {
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
  };
  const float area = edge(tri.x0, tri.y0, tri.x1, tri.y1, tri.x2, tri.y2);
  if (area == 0.0f) return;
  const int left = static_cast<int>(std::floor(std::min({tri.x0, tri.x1, tri.x2})));
  const int right = static_cast<int>(std::ceil(std::max({tri.x0, tri.x1, tri.x2})));
  const int top = static_cast<int>(std::floor(std::min({tri.y0, tri.y1, tri.y2})));
  const int bottom = static_cast<int>(std::ceil(std::max({tri.y0, tri.y1, tri.y2})));
  constexpr int kSamples = 4;
  for (int y = top; y < bottom; ++y) {
    for (int x = left; x < right; ++x) {
      int inside = 0;
      for (int sy = 0; sy < kSamples; ++sy) {
        for (int sx = 0; sx < kSamples; ++sx) {
          const float px = static_cast<float>(x) + (static_cast<float>(sx) + 0.5f) / kSamples;
          const float py = static_cast<float>(y) + (static_cast<float>(sy) + 0.5f) / kSamples;
          // Same sign as the whole triangle's area for all three edges: inside, whatever the winding.
          const float e0 = edge(tri.x0, tri.y0, tri.x1, tri.y1, px, py) * area;
          const float e1 = edge(tri.x1, tri.y1, tri.x2, tri.y2, px, py) * area;
          const float e2 = edge(tri.x2, tri.y2, tri.x0, tri.y0, px, py) * area;
          if (e0 >= 0.0f && e1 >= 0.0f && e2 >= 0.0f) ++inside;
        }
      }
      canvas.blend(x, y, tri.colour, static_cast<float>(inside) / (kSamples * kSamples));
    }
  }
}

void draw(Canvas& canvas, const TextItem& item, const FontPair& fonts) {
  const Font& font = item.bold ? *fonts.bold : *fonts.regular;
  const TextBitmap bitmap = font.rasterize(item.text, item.size);
  const float width = font.measure(item.text, item.size);
  const float shift = item.anchor == TextAnchor::Start    ? 0.0f
                      : item.anchor == TextAnchor::Middle ? width / 2.0f
                                                          : width;
  // (u, v): position in the text's own frame, u along the baseline, v down from it.
  const int start_u = static_cast<int>(std::lround(-shift));
  const int x0 = static_cast<int>(std::lround(item.x));
  const int y0 = static_cast<int>(std::lround(item.y));
  for (int by = 0; by < bitmap.height; ++by) {
    for (int bx = 0; bx < bitmap.width; ++bx) {
      const std::uint8_t coverage =
          bitmap.coverage[static_cast<std::size_t>(by) * static_cast<std::size_t>(bitmap.width) +
                          static_cast<std::size_t>(bx)];
      if (coverage == 0) continue;
      const int u = start_u + bx;
      const int v = by - bitmap.baseline;
      const int x = item.vertical ? x0 + v : x0 + u;
      const int y = item.vertical ? y0 - u : y0 + v;
      canvas.blend(x, y, item.colour, static_cast<float>(coverage) / 255.0f);
    }
  }
}

std::uint32_t crc32(const std::uint8_t* bytes, std::size_t size) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < size; ++i) {
    crc ^= bytes[i];
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

void append_be32(std::string& out, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((value >> shift) & 0xFFu));
}

// pHYs: pixels per metre on both axes, unit 1 (metre).
std::string phys_chunk(int dpi) {
  const auto per_metre = static_cast<std::uint32_t>(std::lround(dpi / 0.0254));
  std::string body = "pHYs";
  append_be32(body, per_metre);
  append_be32(body, per_metre);
  body.push_back('\x01');
  std::string chunk;
  append_be32(chunk, 9);
  chunk += body;
  append_be32(chunk, crc32(reinterpret_cast<const std::uint8_t*>(body.data()), body.size()));
  return chunk;
}

}  // namespace

RgbImage rasterize(const Scene& scene, const FontPair& fonts) {
  Canvas canvas(scene.width, scene.height, scene.background);
  for (const Shape& shape : scene.shapes) {
    if (const auto* rect = std::get_if<FillRect>(&shape)) draw(canvas, *rect);
    if (const auto* hatch = std::get_if<HatchRect>(&shape)) draw(canvas, *hatch, scene);
    if (const auto* block = std::get_if<CellBlock>(&shape)) draw(canvas, *block, scene);
    if (const auto* ramp = std::get_if<ColourRamp>(&shape)) draw(canvas, *ramp);
    if (const auto* triangle = std::get_if<Triangle>(&shape)) draw(canvas, *triangle);
    if (const auto* text = std::get_if<TextItem>(&shape)) draw(canvas, *text, fonts);
  }
  return canvas.take();
}

std::string encode_png(const RgbImage& image, int dpi) {
  int size = 0;
  unsigned char* png = stbi_write_png_to_mem(image.pixels.data(), image.width * 3, image.width, image.height, 3, &size);
  if (png == nullptr)
    throw std::runtime_error("PNG encoding failed (image " + std::to_string(image.width) + "×" +
                             std::to_string(image.height) + ")");
  std::string bytes(reinterpret_cast<const char*>(png), static_cast<std::size_t>(size));
  STBIW_FREE(png);
  // Signature (8 bytes) + IHDR chunk (4 length + 4 type + 13 data + 4 CRC); pHYs must precede IDAT.
  constexpr std::size_t kAfterIhdr = 8 + 25;
  bytes.insert(kAfterIhdr, phys_chunk(dpi));
  return bytes;
}

}  // namespace attnviz::exporting
