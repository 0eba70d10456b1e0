#include "core/export/svg_writer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <tuple>

#include "core/export/font.h"
#include "core/text/utf8.h"

namespace attnviz::exporting {
namespace {

// Fixed-point text with at most two decimals, locale-independent, without trailing zeros.
std::string number(double value) {
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, std::round(value * 100.0) / 100.0, std::chars_format::fixed, 2);
  std::string text(buffer, result.ptr);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

std::string hex(Rgb colour) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text = "#";
  for (const float channel : {colour.r, colour.g, colour.b}) {
    const auto byte = static_cast<int>(std::lround(std::clamp(channel, 0.0f, 1.0f) * 255.0f));
    text += kDigits[byte / 16];
    text += kDigits[byte % 16];
  }
  return text;
}

std::string rect_attributes(int x, int y, int w, int h) {
  return "x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(w) +
         "\" height=\"" + std::to_string(h) + "\"";
}

// Hatch patterns, one per (background, stripe, opacity), named in order of first use.
class Patterns {
 public:
  std::string id_for(const HatchStyle& hatch) {
    const Key key{hatch.has_background ? hex(hatch.background) : "none", hex(hatch.stripe), number(hatch.stripe_alpha)};
    auto [it, inserted] = ids_.try_emplace(key, "hatch" + std::to_string(ids_.size()));
    if (inserted) order_.push_back(key);
    return it->second;
  }

  [[nodiscard]] std::string definitions(const Scene& scene) const {
    std::string out;
    const std::string period = std::to_string(scene.hatch_period);
    for (const Key& key : order_) {
      const auto& [background, stripe, alpha] = key;
      out += "<pattern id=\"" + ids_.at(key) + "\" patternUnits=\"userSpaceOnUse\" width=\"" + period + "\" height=\"" +
             period + "\">";
      if (background != "none")
        out += "<rect width=\"" + period + "\" height=\"" + period + "\" fill=\"" + background + "\"/>";
      // Stripes along x + y = 0 and x + y = period, as the PNG draws them; width measured along x.
      const double half = scene.hatch_width / 2.0;
      out += "<path d=\"M" + number(-half) + "," + number(half) + " l" + number(2 * half) + "," + number(-2 * half) +
             " M" + number(-half) + "," + number(scene.hatch_period + half) + " L" + number(scene.hatch_period + half) +
             "," + number(-half) + " M" + number(scene.hatch_period - half) + "," + number(scene.hatch_period + half) +
             " l" + number(2 * half) + "," + number(-2 * half) + "\" stroke=\"" + stripe + "\" stroke-opacity=\"" +
             alpha + "\" stroke-width=\"" + number(scene.hatch_width / std::sqrt(2.0)) +
             "\" stroke-linecap=\"square\"/>";
      out += "</pattern>\n";
    }
    return out;
  }

 private:
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, std::string> ids_;
  std::vector<Key> order_;
};

std::string ramp_gradient(ColormapId id) {
  const Colormap& map = colormap(id);
  std::string out = "<linearGradient id=\"ramp-" + map.name() + "\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">";
  // Two stops per table entry: a step function, the same entries the PNG shows.
  for (int i = 0; i < Colormap::kEntries; ++i) {
    const std::string colour = hex(map.table()[static_cast<std::size_t>(i)]);
    for (const int edge : {i, i + 1}) {
      char offset[32];
      const auto end = std::to_chars(offset, offset + sizeof offset, static_cast<double>(edge) / Colormap::kEntries,
                                     std::chars_format::fixed, 6);
      out += "<stop offset=\"" + std::string(offset, end.ptr) + "\" stop-color=\"" + colour + "\"/>";
    }
  }
  return out + "</linearGradient>\n";
}

// Cells as <rect>s; runs of equal-looking cells in a row become one rect, which keeps large
// matrices (and their masked regions) small.
std::string cell_elements(const CellBlock& block, Patterns& patterns) {
  std::string out;
  for (int row = 0; row < block.rows; ++row) {
    int col = 0;
    while (col < block.cols) {
      const CellLook look = cell_look(block, row, col);
      const std::string fill = look.has_fill ? hex(look.fill) : "";
      const std::string hatch = look.hatched ? patterns.id_for(look.hatch) : "";
      int run = 1;
      while (block.gap == 0 && col + run < block.cols) {
        const CellLook next = cell_look(block, row, col + run);
        if ((next.has_fill ? hex(next.fill) : "") != fill || (next.hatched ? patterns.id_for(next.hatch) : "") != hatch)
          break;
        ++run;
      }
      const std::string box = rect_attributes(block.x + col * block.cell, block.y + row * block.cell,
                                              run * block.cell - block.gap, block.cell - block.gap);
      if (!fill.empty()) out += "<rect " + box + " fill=\"" + fill + "\"/>\n";
      if (!hatch.empty()) out += "<rect " + box + " fill=\"url(#" + hatch + ")\"/>\n";
      col += run;
    }
  }
  return out;
}

std::string text_element(const TextItem& item) {
  static constexpr const char* kAnchors[] = {"start", "middle", "end"};
  std::string out =
      "<text x=\"" + number(item.x) + "\" y=\"" + number(item.y) + "\" font-size=\"" + number(item.size) + "\"";
  if (item.anchor != TextAnchor::Start)
    out += std::string(" text-anchor=\"") + kAnchors[static_cast<int>(item.anchor)] + "\"";
  if (item.bold) out += " font-weight=\"bold\"";
  if (item.colour != Rgb{}) out += " fill=\"" + hex(item.colour) + "\"";
  if (item.vertical) out += " transform=\"rotate(-90 " + number(item.x) + " " + number(item.y) + ")\"";
  return out + ">" + xml_escape(item.text) + "</text>\n";
}

// The family the layout measured with first (the sizes are right only in that font), then
// NanumGothic and other Hangul fonts a viewer may have.
std::string font_families(const std::vector<std::string>& measured) {
  std::vector<std::string> families = measured;
  for (const char* family : {"NanumGothic", "Noto Sans CJK KR", "Malgun Gothic"}) {
    if (std::find(families.begin(), families.end(), family) == families.end()) families.emplace_back(family);
  }
  std::string text;
  for (const std::string& family : families) {
    const bool plain = family.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-") ==
                       std::string::npos;
    text += (plain ? family : "'" + family + "'") + ", ";
  }
  return xml_escape(text + "sans-serif");
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  for (const char32_t code : decode_utf8(text)) {
    switch (code) {
      case U'&': out += "&amp;"; continue;
      case U'<': out += "&lt;"; continue;
      case U'>': out += "&gt;"; continue;
      case U'"': out += "&quot;"; continue;
      case U'\'': out += "&apos;"; continue;
      default: break;
    }
    const bool allowed = code == 0x9 || code == 0xA || code == 0xD || (code >= 0x20 && code <= 0xD7FF) ||
                         (code >= 0xE000 && code <= 0xFFFD) || (code >= 0x10000 && code <= 0x10FFFF);
    if (!allowed) continue;
    utf8::append(out, code);
  }
  return out;
}

std::string scene_to_svg(const Scene& scene) {
  Patterns patterns;
  std::vector<ColormapId> ramps;
  std::string body;
  for (const Shape& shape : scene.shapes) {
    if (const auto* rect = std::get_if<FillRect>(&shape)) {
      body +=
          "<rect " + rect_attributes(rect->x, rect->y, rect->w, rect->h) + " fill=\"" + hex(rect->colour) + "\"/>\n";
    } else if (const auto* hatch = std::get_if<HatchRect>(&shape)) {
      body += "<rect " + rect_attributes(hatch->x, hatch->y, hatch->w, hatch->h) + " fill=\"url(#" +
              patterns.id_for(hatch->style) + ")\"/>\n";
    } else if (const auto* block = std::get_if<CellBlock>(&shape)) {
      body += cell_elements(*block, patterns);
    } else if (const auto* ramp = std::get_if<ColourRamp>(&shape)) {
      if (std::find(ramps.begin(), ramps.end(), ramp->colormap) == ramps.end()) ramps.push_back(ramp->colormap);
      body += "<rect " + rect_attributes(ramp->x, ramp->y, ramp->w, ramp->h) + " fill=\"url(#ramp-" +
              colormap(ramp->colormap).name() + ")\"/>\n";
    } else if (const auto* tri = std::get_if<Triangle>(&shape)) {
      body += "<polygon points=\"" + number(tri->x0) + "," + number(tri->y0) + " " + number(tri->x1) + "," +
              number(tri->y1) + " " + number(tri->x2) + "," + number(tri->y2) + "\" fill=\"" + hex(tri->colour) +
              "\"/>\n";
    } else if (const auto* text = std::get_if<TextItem>(&shape)) {
      body += text_element(*text);
    }
  }
  const double points_per_pixel = 72.0 / scene.dpi;
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + number(scene.width * points_per_pixel) +
         "pt\" height=\"" + number(scene.height * points_per_pixel) + "pt\" viewBox=\"0 0 " +
         std::to_string(scene.width) + " " + std::to_string(scene.height) + "\" font-family=\"" +
         font_families(scene.font_families) + "\">\n";
  out += "<title>" + xml_escape(scene.title) + "</title>\n<defs>\n" + patterns.definitions(scene);
  for (const ColormapId id : ramps) out += ramp_gradient(id);
  out += "</defs>\n<rect " + rect_attributes(0, 0, scene.width, scene.height) + " fill=\"" + hex(scene.background) +
         "\"/>\n";
  return out + body + "</svg>\n";
}

}  // namespace attnviz::exporting
