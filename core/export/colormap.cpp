#include "core/export/colormap.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "core/assets/embedded.h"

namespace attnviz::exporting {
namespace {

struct ColormapInfo {
  ColormapId id;
  const char* name;
  bool diverging;
};

constexpr std::array<ColormapInfo, 4> kColormaps = {{
    {ColormapId::Viridis, "viridis", false},
    {ColormapId::Magma, "magma", false},
    {ColormapId::Cividis, "cividis", false},
    {ColormapId::RdBu, "rdbu", true},
}};

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

float parse_channel(std::string_view field, const std::string& where) {
  field = trim(field);
  float value = 0.0f;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc() || end != field.data() + field.size() || !(value >= 0.0f && value <= 1.0f)) {
    throw std::runtime_error(where + ": '" + std::string(field) + "' is not a number in [0, 1]");
  }
  return value;
}

Rgb parse_colour(std::string_view line, const std::string& where) {
  std::array<float, 3> channels{};
  std::size_t start = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    const std::size_t comma = line.find(',', start);
    const bool last = i == 2;
    if (last != (comma == std::string_view::npos))
      throw std::runtime_error(where + ": needs exactly three values r,g,b");
    channels[i] = parse_channel(line.substr(start, last ? std::string_view::npos : comma - start), where);
    start = comma + 1;
  }
  return {channels[0], channels[1], channels[2]};
}

std::array<Rgb, Colormap::kEntries> resample(const std::vector<Rgb>& stops) {
  std::array<Rgb, Colormap::kEntries> table{};
  const double last_stop = static_cast<double>(stops.size() - 1);
  for (std::size_t i = 0; i < table.size(); ++i) {
    const double x = static_cast<double>(i) / (Colormap::kEntries - 1) * last_stop;
    const std::size_t below = std::min(static_cast<std::size_t>(x), stops.size() - 2);
    const auto f = static_cast<float>(x - static_cast<double>(below));
    const Rgb& a = stops[below];
    const Rgb& b = stops[below + 1];
    table[i] = {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
  }
  return table;
}

Colormap load(const ColormapInfo& info) {
  const std::string asset = std::string("colormaps/") + info.name + ".csv";
  const std::optional<std::string_view> text = assets::find(asset);
  if (!text) throw std::logic_error("the colormap asset " + asset + " is not compiled into this build");
  return Colormap(info.id, info.name, info.diverging, parse_colormap_table(*text, asset));
}

float linear_channel(float c) { return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f); }

}  // namespace

int Colormap::entry_index(float t) {
  if (!(t > 0.0f)) return 0;  // also NaN
  if (t >= 1.0f) return kEntries - 1;
  return std::min(kEntries - 1, static_cast<int>(t * static_cast<float>(kEntries)));
}

std::array<Rgb, Colormap::kEntries> parse_colormap_table(std::string_view text, const std::string& origin) {
  std::vector<Rgb> colours;
  int line_number = 0;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    const std::string_view line = trim(text.substr(0, newline));
    text = newline == std::string_view::npos ? std::string_view{} : text.substr(newline + 1);
    ++line_number;
    if (line.empty() || line.front() == '#') continue;
    colours.push_back(parse_colour(line, origin + ":" + std::to_string(line_number)));
  }
  if (colours.size() < 2 || colours.size() > Colormap::kEntries) {
    throw std::runtime_error(origin + ": needs 2 to 256 colours, has " + std::to_string(colours.size()));
  }
  if (colours.size() == Colormap::kEntries) {
    std::array<Rgb, Colormap::kEntries> table{};
    std::copy(colours.begin(), colours.end(), table.begin());
    return table;
  }
  return resample(colours);
}

const Colormap& colormap(ColormapId id) {
  static const std::vector<Colormap> loaded = [] {
    std::vector<Colormap> maps;
    for (const ColormapInfo& info : kColormaps) maps.push_back(load(info));
    return maps;
  }();
  return loaded.at(static_cast<std::size_t>(id));
}

std::optional<ColormapId> colormap_from_name(std::string_view name) {
  for (const ColormapInfo& info : kColormaps) {
    if (name == info.name) return info.id;
  }
  return std::nullopt;
}

std::vector<std::string> colormap_names() {
  std::vector<std::string> names;
  for (const ColormapInfo& info : kColormaps) names.emplace_back(info.name);
  return names;
}

float relative_luminance(Rgb colour) {
  return 0.2126f * linear_channel(colour.r) + 0.7152f * linear_channel(colour.g) + 0.0722f * linear_channel(colour.b);
}

Rgb contrasting_text_colour(Rgb background) {
  // Contrast ratios (L1 + 0.05) / (L2 + 0.05) against white (L = 1) and black (L = 0) are
  // equal at L = sqrt(1.05 · 0.05) − 0.05 ≈ 0.179.
  return relative_luminance(background) > 0.179f ? Rgb{0.0f, 0.0f, 0.0f} : Rgb{1.0f, 1.0f, 1.0f};
}

}  // namespace attnviz::exporting
