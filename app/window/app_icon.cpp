#include "app/window/app_icon.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace attnviz::window {
namespace {

// The design, in units of a 256 × 256 canvas.
constexpr double kCanvas = 256.0;
constexpr double kTileInset = 8.0;
constexpr double kTileRadius = 44.0;
constexpr double kGridOrigin = 40.0;
constexpr double kCellPitch = 46.0;
constexpr double kCellSize = 40.0;
constexpr double kCellRadius = 7.0;
constexpr int kCells = 4;

struct Colour {
  double r, g, b, a;
};

constexpr Colour kTile{0.102, 0.118, 0.180, 1.0};  // the window's dark background
constexpr Colour kHidden{1.0, 1.0, 1.0, 0.10};     // a masked cell: present, but empty

// A causal row's weights, brightest on the diagonal: viridis at a few levels.
Colour cell_colour(int row, int col) {
  if (col > row) return kHidden;
  static constexpr std::array<Colour, 4> kLevels = {
      {{0.231, 0.322, 0.545, 1.0}, {0.129, 0.565, 0.553, 1.0}, {0.369, 0.788, 0.384, 1.0}, {0.992, 0.906, 0.145, 1.0}}};
  const int level = std::clamp(3 - (row - col), 0, 3);
  return kLevels[static_cast<std::size_t>(level)];
}

// Whether (x, y) lies inside a rounded rectangle.
bool inside_rounded(double x, double y, double left, double top, double size, double radius) {
  const double cx = std::clamp(x, left + radius, left + size - radius);
  const double cy = std::clamp(y, top + radius, top + size - radius);
  const double dx = x - cx;
  const double dy = y - cy;
  return x >= left && x <= left + size && y >= top && y <= top + size && dx * dx + dy * dy <= radius * radius;
}

// "Over" compositing of straight-alpha colours.
Colour over(const Colour& top, const Colour& below) {
  const double a = top.a + below.a * (1.0 - top.a);
  if (a <= 0.0) return {0, 0, 0, 0};
  auto channel = [&](double t, double b) { return (t * top.a + b * below.a * (1.0 - top.a)) / a; };
  return {channel(top.r, below.r), channel(top.g, below.g), channel(top.b, below.b), a};
}

Colour colour_at(double x, double y) {
  Colour colour{0, 0, 0, 0};
  if (!inside_rounded(x, y, kTileInset, kTileInset, kCanvas - 2 * kTileInset, kTileRadius)) return colour;
  colour = kTile;
  for (int row = 0; row < kCells; ++row) {
    for (int col = 0; col < kCells; ++col) {
      if (inside_rounded(x, y, kGridOrigin + col * kCellPitch, kGridOrigin + row * kCellPitch, kCellSize,
                         kCellRadius)) {
        colour = over(cell_colour(row, col), colour);
      }
    }
  }
  return colour;
}

std::uint8_t to_byte(double value) {
  return static_cast<std::uint8_t>(std::lround(std::clamp(value, 0.0, 1.0) * 255.0));
}

std::string svg_colour(const Colour& colour) {
  char text[64];
  std::snprintf(text, sizeof text, "#%02x%02x%02x\" fill-opacity=\"%.2f", to_byte(colour.r), to_byte(colour.g),
                to_byte(colour.b), colour.a);
  return text;
}

std::string svg_rect(double x, double y, double size, double radius, const Colour& colour) {
  char text[200];
  std::snprintf(text, sizeof text, "  <rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" rx=\"%g\" fill=\"", x, y, size,
                size, radius);
  return text + svg_colour(colour) + "\"/>\n";
}

}  // namespace

std::vector<std::uint8_t> render_app_icon(int size) {
  // 4 × 4 samples a pixel: smooth rounded edges at 16 px as at 256 px.
  constexpr int kSamples = 4;
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(size) * static_cast<std::size_t>(size) * 4);
  const double scale = kCanvas / size;
  for (int py = 0; py < size; ++py) {
    for (int px = 0; px < size; ++px) {
      double r = 0, g = 0, b = 0, a = 0;
      for (int sy = 0; sy < kSamples; ++sy) {
        for (int sx = 0; sx < kSamples; ++sx) {
          const Colour c = colour_at((px + (sx + 0.5) / kSamples) * scale, (py + (sy + 0.5) / kSamples) * scale);
          r += c.r * c.a;  // averaged premultiplied, then un-premultiplied
          g += c.g * c.a;
          b += c.b * c.a;
          a += c.a;
        }
      }
      const std::size_t at =
          (static_cast<std::size_t>(py) * static_cast<std::size_t>(size) + static_cast<std::size_t>(px)) * 4;
      pixels[at + 0] = to_byte(a > 0 ? r / a : 0);
      pixels[at + 1] = to_byte(a > 0 ? g / a : 0);
      pixels[at + 2] = to_byte(a > 0 ? b / a : 0);
      pixels[at + 3] = to_byte(a / (kSamples * kSamples));
    }
  }
  return pixels;
}

std::string app_icon_svg() {
  std::string svg =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"256\" height=\"256\" viewBox=\"0 0 256 256\">\n"
      "  <title>attnviz</title>\n";
  svg += svg_rect(kTileInset, kTileInset, kCanvas - 2 * kTileInset, kTileRadius, kTile);
  for (int row = 0; row < kCells; ++row) {
    for (int col = 0; col < kCells; ++col) {
      svg += svg_rect(kGridOrigin + col * kCellPitch, kGridOrigin + row * kCellPitch, kCellSize, kCellRadius,
                      cell_colour(row, col));
    }
  }
  return svg + "</svg>\n";
}

}  // namespace attnviz::window
