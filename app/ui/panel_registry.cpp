// Which panels and menus the window has, in order. The input panels and the File and Edit
// menus come from app/panels/*_panel.cpp and *_menu.cpp; CMake defines ATTNVIZ_HAVE_<NAME>
// for each one present, so the window builds while they are being written.

#include "app/panels/input_panels.h"
#include "app/panels/panels.h"
#include "app/ui/layout.h"
#ifdef ATTNVIZ_HAVE_CLASSROOM
#include "app/classroom/classroom.h"
#endif

namespace attnviz::ui {

std::unique_ptr<Layout> make_default_layout() {
  auto layout = std::make_unique<Layout>();
#ifdef ATTNVIZ_HAVE_FILE_MENU
  layout->add_menu(make_file_menu());
#endif
#ifdef ATTNVIZ_HAVE_EDIT_MENU
  layout->add_menu(make_edit_menu());
#endif
  layout->add_menu(make_view_menu());
#ifdef ATTNVIZ_HAVE_SENTENCE_PANEL
  layout->add_panel(make_sentence_panel());
#endif
#ifdef ATTNVIZ_HAVE_MODEL_PANEL
  layout->add_panel(make_model_panel());
#endif
#ifdef ATTNVIZ_HAVE_MASK_PANEL
  layout->add_panel(make_mask_panel());
#endif
#ifdef ATTNVIZ_HAVE_MATRICES_PANEL
  layout->add_panel(make_matrices_panel());
#endif
  layout->add_panel(make_heatmaps_panel());
  layout->add_panel(make_backend_panel());
#ifdef ATTNVIZ_HAVE_CLASSROOM
  classroom::add_classroom(*layout);
#endif
  return layout;
}

}  // namespace attnviz::ui
