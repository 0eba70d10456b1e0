#include "app/ui/view_state.h"

namespace attnviz::ui {

const char* to_string(LayoutMode mode) {
  switch (mode) {
    case LayoutMode::Full: return "full";
    case LayoutMode::Heatmaps: return "heatmaps";
    case LayoutMode::CompareReady: return "compare-ready";
  }
  return "full";
}

std::optional<LayoutMode> layout_mode_from_string(const std::string& name) {
  if (name == "full") return LayoutMode::Full;
  if (name == "heatmaps") return LayoutMode::Heatmaps;
  if (name == "compare-ready" || name == "compare") return LayoutMode::CompareReady;
  return std::nullopt;
}

}  // namespace attnviz::ui
