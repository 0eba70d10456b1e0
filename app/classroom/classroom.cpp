#include "app/classroom/classroom.h"

#include "app/classroom/production_views.h"
#include "app/classroom/step_view.h"
#include "app/ui/classroom_state.h"

namespace attnviz::classroom {

void add_classroom(ui::Layout& layout, ViewStates& views) {
  layout.add_panel(make_source_panel());
  layout.add_panel(make_step_view(views));
  layout.add_panel(make_compare_view(views));
  layout.add_panel(make_cross_view());
  layout.add_panel(make_tiled_view(views));
  layout.add_panel(make_decode_view(views));
  layout.add_menu(make_classroom_menu(views));
}

std::optional<std::string> take_tab_request(ui::ClassroomState& state) {
  if (!state.select_tab) return std::nullopt;
  const std::string title = ui::tab_title(*state.select_tab);
  state.select_tab.reset();
  return title;
}

}  // namespace attnviz::classroom
