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

const char* to_string(ModelShown shown) {
  switch (shown) {
    case ModelShown::Heads: return "heads";
    case ModelShown::Lens: return "lens";
    case ModelShown::Attribution: return "attribution";
    case ModelShown::Patching: return "patching";
  }
  return "heads";
}

std::optional<ModelShown> model_shown_from_string(const std::string& name) {
  for (const ModelShown shown : {ModelShown::Heads, ModelShown::Lens, ModelShown::Attribution, ModelShown::Patching})
    if (name == to_string(shown)) return shown;
  return std::nullopt;
}

LayoutMode layout_after_key(LayoutKey key, LayoutMode current, bool presenting) {
  switch (key) {
    case LayoutKey::F9: return LayoutMode::Full;
    case LayoutKey::F10: return LayoutMode::CompareReady;
    case LayoutKey::F8:
      if (presenting) return LayoutMode::Heatmaps;
      return current == LayoutMode::Heatmaps ? LayoutMode::Full : LayoutMode::Heatmaps;
  }
  return current;
}

}  // namespace attnviz::ui
