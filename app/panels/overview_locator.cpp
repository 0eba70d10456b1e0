// The overview's locator (overview_locator.h): the whole image kept, drawn small, the shown
// window outlined on it; a click or drag there moves the window.

#include "app/i18n/translate.h"
#include "app/panels/overview_locator.h"

#include <algorithm>
#include <cmath>

#include "app/heatmap/heatmap_widget.h"
#include "app/ui/view_state.h"

namespace attnviz::panels {
namespace {

constexpr std::uint32_t kOutlineDark = 0xff202020u;
constexpr std::uint32_t kOutlineLight = 0xffffffffu;
constexpr float kLeastSideEms = 6.0f;
constexpr float kLeastMarkPixels = 6.0f;  // a window of a few cells is still seen

// Outlines [a, b] white over dark, readable on every colormap; at least a few pixels across.
void outline(ImDrawList* list, ImVec2 a, ImVec2 b) {
  const ImVec2 centre((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f);
  const float half_w = std::max((b.x - a.x) * 0.5f, kLeastMarkPixels * 0.5f);
  const float half_h = std::max((b.y - a.y) * 0.5f, kLeastMarkPixels * 0.5f);
  const ImVec2 p(centre.x - half_w, centre.y - half_h);
  const ImVec2 q(centre.x + half_w, centre.y + half_h);
  list->AddRect(p, q, kOutlineDark, 0.0f, 0, 3.5f);
  list->AddRect(p, q, kOutlineLight, 0.0f, 0, 1.5f);
}

}  // namespace

overview::CellWindow centred_window(double row, double col, double rows, double cols, int n, int m) {
  constexpr int kSmallestWindow = 8;
  const int r = std::clamp(static_cast<int>(std::lround(rows)), std::min(kSmallestWindow, n), n);
  const int c = std::clamp(static_cast<int>(std::lround(cols)), std::min(kSmallestWindow, m), m);
  const int r0 = std::clamp(static_cast<int>(std::lround(row - rows / 2.0)), 0, n - r);
  const int c0 = std::clamp(static_cast<int>(std::lround(col - cols / 2.0)), 0, m - c);
  return {r0, r0 + r, c0, c0 + c};
}

float OverviewLocator::least_side() { return ImGui::GetFontSize() * kLeastSideEms; }

void OverviewLocator::remember(const overview::Overview& shown, const std::shared_ptr<const Problem>& problem,
                               const compute::OverviewAsk& ask, const LocatorImage& image) {
  if (!problem || image.values == nullptr) return;
  if (shown.grid.window != overview::whole(problem->n(), problem->m())) return;
  values_ = *image.values;
  range_min_ = image.range_min;
  range_max_ = image.range_max;
  log_scale_ = image.log_scale;
  quantity_ = shown.quantity;
  problem_ = problem;
  head_ = ask.head;
  pooling_ = ask.pooling;
  ++version_;
}

bool OverviewLocator::fits(const std::shared_ptr<const Problem>& problem, const compute::OverviewAsk& ask) const {
  return problem && problem_.lock() == problem && head_ == ask.head && quantity_ == ask.quantity &&
         pooling_ == ask.pooling && values_.rows > 0;
}

std::optional<overview::CellWindow> OverviewLocator::draw(ui::UiContext& ui, ImVec2 corner, float side, int n, int m,
                                                          const overview::CellWindow& window,
                                                          const std::shared_ptr<const Problem>& problem,
                                                          const compute::OverviewAsk& ask) {
  if (n <= 0 || m <= 0 || side < least_side()) return std::nullopt;
  ImGui::SetCursorScreenPos(corner);
  ImGui::TextDisabled("%s", i18n::tr("where this window lies"));
  ImGui::SetCursorScreenPos(ImVec2(corner.x, ImGui::GetCursorScreenPos().y));  // a new line starts at the panel's left
  const float scale = side / static_cast<float>(std::max(n, m));
  const ImVec2 size(scale * static_cast<float>(m), scale * static_cast<float>(n));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::PushID("##overview_locator");
  if (fits(problem, ask)) {
    draw_thumbnail(ui, size);
  } else {
    // Another head or quantity than the whole image kept: the window's place, on a plain field.
    ImGui::InvisibleButton("##heatmap", size);
    ImGui::GetWindowDrawList()->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y),
                                              ImGui::GetColorU32(ImGuiCol_FrameBg));
  }
  ImGui::PopID();
  const bool hovered = ImGui::IsItemHovered();
  const bool held = ImGui::IsItemActive();
  const bool let_go = ImGui::IsItemDeactivated();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  ImDrawList* list = ImGui::GetWindowDrawList();
  list->AddRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), ImGui::GetColorU32(ImGuiCol_Border));

  if (held) {  // the window, its size kept, centred on the cell under the mouse
    const double row = std::clamp(static_cast<double>((mouse.y - origin.y) / size.y), 0.0, 1.0) * n;
    const double col = std::clamp(static_cast<double>((mouse.x - origin.x) / size.x), 0.0, 1.0) * m;
    dragged_ = centred_window(row, col, window.rows(), window.cols(), n, m);
  }
  const overview::CellWindow marked = dragged_.value_or(window);
  const auto at = [&](int row, int col) {
    return ImVec2(origin.x + size.x * static_cast<float>(col) / static_cast<float>(m),
                  origin.y + size.y * static_cast<float>(row) / static_cast<float>(n));
  };
  outline(list, at(marked.row_begin, marked.col_begin), at(marked.row_end, marked.col_end));
  if (hovered && !held)
    ImGui::SetTooltip("%s",
                      i18n::tr("The whole matrix, the window shown outlined: click or drag to move the window there."));

  std::optional<overview::CellWindow> asked;
  if (let_go && dragged_) asked = dragged_;
  if (!held) dragged_.reset();
  return asked;
}

void OverviewLocator::draw_thumbnail(ui::UiContext& ui, ImVec2 size) {
  heatmap::HeatmapSpec spec;
  spec.source.host = &values_;
  spec.source.version = version_;
  spec.range_min = range_min_;
  spec.range_max = range_max_;
  spec.log_scale = log_scale_;
  spec.colormap = quantity_ == overview::Quantity::Weights ? ui.view.weights_colormap : ui.view.scores_colormap;
  spec.nan_hidden = true;
  spec.numbers = false;
  spec.cells_width = size.x;
  spec.cells_height = size.y;
  ui.heatmaps.draw("##thumbnail", spec);
}

}  // namespace attnviz::panels
