#include "app/ui/classroom_state.h"

namespace attnviz::ui {

const char* to_string(MainView view) {
  switch (view) {
    case MainView::Heatmaps: return "heatmaps";
    case MainView::Step: return "step";
    case MainView::Compare: return "compare";
    case MainView::Cross: return "cross";
    case MainView::Tiled: return "tiled";
    case MainView::Decode: return "decode";
  }
  return "heatmaps";
}

std::optional<MainView> main_view_from_string(const std::string& name) {
  for (MainView view : kMainViews)
    if (name == to_string(view)) return view;
  return std::nullopt;
}

const char* tab_title(MainView view) {
  switch (view) {
    case MainView::Heatmaps: return "Heatmaps";
    case MainView::Step: return "Step by step";
    case MainView::Compare: return "Compare";
    case MainView::Cross: return "Cross-attention";
    case MainView::Tiled: return "Tiled";
    case MainView::Decode: return "Decode";
  }
  return "Heatmaps";
}

}  // namespace attnviz::ui
