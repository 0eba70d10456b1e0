#include "app/desktop/panel_registry.h"

#include "app/classroom/classroom.h"
#include "app/export_ui/export_ui.h"
#include "app/panels/panels.h"

namespace attnviz::desktop {

std::unique_ptr<ui::Layout> make_default_layout(classroom::ViewStates& classroom_views) {
  auto layout = std::make_unique<ui::Layout>();
  layout->add_menu(panels::make_file_menu());
  layout->add_menu(panels::make_edit_menu());
  layout->add_menu(panels::make_view_menu());
  layout->add_panel(panels::make_sentence_panel());
  layout->add_panel(panels::make_model_panel());
  layout->add_panel(panels::make_mask_panel());
  layout->add_panel(panels::make_matrices_panel());
  layout->add_panel(panels::make_heatmaps_panel());
  layout->add_panel(panels::make_backend_panel());
  layout->add_panel(panels::make_kv_cache_panel());
  layout->add_panel(panels::make_status_bar());
  layout->add_dialog(export_ui::make_export_dialog());
  layout->add_dialog(export_ui::make_view_image_dialog());
  layout->add_dialog(panels::make_open_model_dialog());
  classroom::add_classroom(*layout, classroom_views);
  layout->add_menu(panels::make_help_menu());  // the desktop's last menu
  // After the classroom's views, so that keys 1-6 (and the Classroom menu's numbers) are the
  // first six tabs in order.
  layout->add_panel(panels::make_model_view());
  panels::add_training_view(*layout);  // after the Model view: key 8
  return layout;
}

}  // namespace attnviz::desktop
