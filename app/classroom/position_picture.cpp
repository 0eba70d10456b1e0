#include "app/classroom/position_picture.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/i18n/translate.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"

namespace attnviz::classroom {
namespace {

constexpr ImU32 kFaint = IM_COL32(150, 150, 160, 255);
// The followed word's blue, lighter on the dark theme's background.
ImU32 query_colour() {
  return ui::palette::dark_background() ? IM_COL32(110, 160, 240, 255) : IM_COL32(30, 90, 200, 255);
}
constexpr ImU32 kKey = IM_COL32(210, 110, 20, 255);

void arrow(ImDrawList* list, ImVec2 from, ImVec2 to, ImU32 colour, float thickness) {
  list->AddLine(from, to, colour, thickness);
  const float dx = to.x - from.x;
  const float dy = to.y - from.y;
  const float length = std::sqrt(dx * dx + dy * dy);
  if (length < 1.0f) return;
  const float ux = dx / length;
  const float uy = dy / length;
  const float head = 4.0f * thickness;
  list->AddTriangleFilled(to, ImVec2(to.x - head * (ux - 0.5f * uy), to.y - head * (uy + 0.5f * ux)),
                          ImVec2(to.x - head * (ux + 0.5f * uy), to.y - head * (uy - 0.5f * ux)), colour);
}

}  // namespace

void draw_turning_pair(const lesson::TurningPair& pair, float size) {
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::max(size, ImGui::GetContentRegionAvail().x));
  ui::text_lines(pair.caption);
  ImGui::PopTextWrapPos();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(size, size));
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec2 centre(origin.x + size * 0.5f, origin.y + size * 0.5f);
  double radius = 1e-9;
  for (std::size_t r = 0; r < pair.x.size(); ++r) radius = std::max(radius, std::hypot(pair.x[r], pair.y[r]));
  if (pair.has_key) radius = std::max(radius, std::hypot(pair.key_x, pair.key_y));
  const float scale = static_cast<float>(size * 0.34 / radius);
  auto at = [&](double x, double y) {
    return ImVec2(centre.x + scale * static_cast<float>(x), centre.y - scale * static_cast<float>(y));
  };
  list->AddCircle(centre, scale * static_cast<float>(radius), kFaint, 64, 1.0f);
  list->AddLine(ImVec2(origin.x, centre.y), ImVec2(origin.x + size, centre.y), IM_COL32(200, 200, 205, 255));
  list->AddLine(ImVec2(centre.x, origin.y), ImVec2(centre.x, origin.y + size), IM_COL32(200, 200, 205, 255));
  const float thin = std::max(1.0f, size / 200.0f);
  for (std::size_t r = 0; r < pair.x.size(); ++r) {
    if (static_cast<int>(r) == pair.followed) continue;
    arrow(list, centre, at(pair.x[r], pair.y[r]), kFaint, thin);
    if (r < pair.labels.size())
      list->AddText(at(1.12 * pair.x[r], 1.12 * pair.y[r]), kFaint, std::to_string(r).c_str());
  }
  if (pair.has_key) arrow(list, centre, at(pair.key_x, pair.key_y), kKey, 2.5f * thin);
  if (pair.followed >= 0 && static_cast<std::size_t>(pair.followed) < pair.x.size()) {
    const auto f = static_cast<std::size_t>(pair.followed);
    arrow(list, centre, at(pair.x[f], pair.y[f]), query_colour(), 2.5f * thin);
    const std::string label =
        f < pair.labels.size() ? pair.labels[f] + " (" + std::to_string(f) + ")" : std::to_string(f);
    list->AddText(at(1.15 * pair.x[f], 1.15 * pair.y[f]), query_colour(), label.c_str());
  }
  if (pair.has_key) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(query_colour()), "%s", i18n::tr("q' of the followed word"));
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kKey), "  %s'", pair.key_label.c_str());
    ImGui::PushTextWrapPos(0.0f);
    ui::text_wrapped_disabled(
        "%s", i18n::format(i18n::tr("grey: where q' would point at the other positions. %s"), pair.angle_text.c_str())
                  .c_str());
    ImGui::PopTextWrapPos();
  }
}

void draw_alibi_lines(const std::vector<double>& slopes, int head, int max_distance, float width, float height) {
  ImGui::TextUnformatted(i18n::tr("bias \u2212m\u2095\u00b7distance, every head"));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(width, height));
  if (slopes.empty() || max_distance < 1) return;
  ImDrawList* list = ImGui::GetWindowDrawList();
  const double lowest = -slopes.front() * max_distance;  // the first head's slope is the steepest
  list->AddLine(origin, ImVec2(origin.x + width, origin.y), IM_COL32(170, 170, 175, 255));
  list->AddLine(origin, ImVec2(origin.x, origin.y + height), IM_COL32(170, 170, 175, 255));
  for (std::size_t h = 0; h < slopes.size(); ++h) {
    const double end = -slopes[h] * max_distance;
    const ImVec2 to(origin.x + width, origin.y + static_cast<float>(end / lowest) * height);
    const bool followed = static_cast<int>(h) == head;
    list->AddLine(origin, to, followed ? query_colour() : kFaint, followed ? 3.0f : 1.0f);
  }
  ImGui::TextDisabled(
      "%s", i18n::format(i18n::tr("distance 0 \xe2\x80\xa6 %d; head %d in blue"), max_distance, head).c_str());
}

}  // namespace attnviz::classroom
