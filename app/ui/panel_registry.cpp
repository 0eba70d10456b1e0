// Which panels and menus the window has, in order (one source file each in app/panels/,
// the classroom views from app/classroom/).

#include "app/panels/input_panels.h"
#include "app/panels/panels.h"
#include "app/ui/layout.h"
#include "app/classroom/classroom.h"

namespace attnviz::ui {

std::unique_ptr<Layout> make_default_layout() {
  auto layout = std::make_unique<Layout>();
  layout->add_menu(make_file_menu());
  layout->add_menu(make_edit_menu());
  layout->add_menu(make_view_menu());
  layout->add_panel(make_sentence_panel());
  layout->add_panel(make_model_panel());
  layout->add_panel(make_mask_panel());
  layout->add_panel(make_matrices_panel());
  layout->add_panel(make_heatmaps_panel());
  layout->add_panel(make_backend_panel());
  classroom::add_classroom(*layout);
  return layout;
}

}  // namespace attnviz::ui
