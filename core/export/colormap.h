#pragma once
// The heatmap colormaps, read from their published tables in assets/colormaps/ (compiled into
// the binary). Export and the window use the same tables, so a PNG shows the colours the
// window shows.
//
//   viridis, magma, cividis  sequential, perceptually uniform, colour-blind safe (weights)
//   rdbu                     diverging, blue (negative), white (zero), red (positive) (scores)

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnviz::exporting {

enum class ColormapId { Viridis, Magma, Cividis, RdBu };

// sRGB-encoded colour, each channel in [0, 1].
struct Rgb {
  float r = 0.0f;
  float g = 0.0f;
  float b = 0.0f;
  friend bool operator==(const Rgb&, const Rgb&) = default;
};

class Colormap {
 public:
  static constexpr int kEntries = 256;

  Colormap(ColormapId id, std::string name, bool diverging, const std::array<Rgb, kEntries>& table)
      : id_(id), name_(std::move(name)), diverging_(diverging), table_(table) {}

  [[nodiscard]] ColormapId id() const { return id_; }
  [[nodiscard]] const std::string& name() const { return name_; }
  // Diverging maps are meant for ranges centred on 0 (their middle entry is white).
  [[nodiscard]] bool diverging() const { return diverging_; }
  [[nodiscard]] std::span<const Rgb, kEntries> table() const { return table_; }

  // The table entry for t in [0, 1] (clamped; NaN reads as 0): entry floor(t · 256), the last
  // one for t = 1, as matplotlib indexes its listed colormaps.
  [[nodiscard]] Rgb at(float t) const { return table_[static_cast<std::size_t>(entry_index(t))]; }
  [[nodiscard]] static int entry_index(float t);

 private:
  ColormapId id_;
  std::string name_;
  bool diverging_;
  std::array<Rgb, kEntries> table_;
};

// The colormap, loaded from its asset on first use (thread-safe).
const Colormap& colormap(ColormapId id);

std::optional<ColormapId> colormap_from_name(std::string_view name);
std::vector<std::string> colormap_names();  // {"viridis", "magma", "cividis", "rdbu"}

// WCAG relative luminance of an sRGB colour, in [0, 1].
float relative_luminance(Rgb colour);
// Black or white, whichever has the higher WCAG contrast with `background`.
Rgb contrasting_text_colour(Rgb background);

// Parses a colormap asset: lines "r,g,b" with channels in [0, 1], '#' comments, at least two
// colours; fewer than 256 colours are evenly spaced stops interpolated linearly (in sRGB) into
// 256 entries. Throws std::runtime_error naming `origin` and the line.
std::array<Rgb, Colormap::kEntries> parse_colormap_table(std::string_view text, const std::string& origin);

}  // namespace attnviz::exporting
