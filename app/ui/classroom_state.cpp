#include "app/ui/classroom_state.h"

#include "app/i18n/translate.h"

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
    case MainView::Heatmaps: return N_("Heatmaps");
    case MainView::Step: return N_("Step by step");
    case MainView::Compare: return N_("Compare");
    case MainView::Cross: return N_("Cross-attention");
    case MainView::Tiled: return N_("Tiled");
    case MainView::Decode: return N_("Decode");
  }
  return N_("Heatmaps");
}

}  // namespace attnviz::ui
