#include "app/panels/kv_cache_chart.h"

#include <algorithm>

#include "app/ui/palette.h"

namespace attnviz::panels {

std::vector<std::uint64_t> chart_lengths(std::uint64_t seq_len) {
  std::vector<std::uint64_t> lengths;
  for (std::uint64_t step = 0; step <= 8; ++step) lengths.push_back(seq_len / 4 * step + seq_len % 4 * step / 4);
  return lengths;
}

std::vector<std::vector<ImVec2>> chart_points(const std::vector<decode::SizeCurve>& curves,
                                              const std::vector<std::uint64_t>& lengths, ImVec2 min, ImVec2 max) {
  std::uint64_t largest = 1;
  for (const decode::SizeCurve& curve : curves) {
    for (const std::uint64_t bytes : curve.bytes) largest = std::max(largest, bytes);
  }
  const double last_length = lengths.empty() ? 1.0 : std::max(1.0, static_cast<double>(lengths.back()));
  std::vector<std::vector<ImVec2>> lines;
  for (const decode::SizeCurve& curve : curves) {
    std::vector<ImVec2>& line = lines.emplace_back();
    for (std::size_t i = 0; i < curve.bytes.size() && i < lengths.size(); ++i) {
      const double x = static_cast<double>(lengths[i]) / last_length;
      const double y = static_cast<double>(curve.bytes[i]) / static_cast<double>(largest);
      line.emplace_back(min.x + static_cast<float>(x) * (max.x - min.x),
                        max.y - static_cast<float>(y) * (max.y - min.y));
    }
  }
  return lines;
}

std::uint32_t curve_colour(std::size_t index) { return ui::palette::head_strong(static_cast<int>(index)); }

void draw_size_chart(ImDrawList& draw, const std::vector<decode::SizeCurve>& curves,
                     const std::vector<std::uint64_t>& lengths, ImVec2 min, ImVec2 max) {
  const ImU32 axis = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  draw.AddLine(ImVec2(min.x, max.y), max, axis);
  draw.AddLine(min, ImVec2(min.x, max.y), axis);
  // The chosen length sits in the middle of the x axis.
  const float middle = (min.x + max.x) * 0.5f;
  draw.AddLine(ImVec2(middle, min.y), ImVec2(middle, max.y), axis);
  const std::vector<std::vector<ImVec2>> lines = chart_points(curves, lengths, min, max);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    draw.AddPolyline(lines[i].data(), static_cast<int>(lines[i].size()), curve_colour(i), ImDrawFlags_None, 2.0f);
  }
}

}  // namespace attnviz::panels
