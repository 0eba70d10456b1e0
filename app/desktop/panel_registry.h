#pragma once
// Which panels, menus and dialogs the window has, and in which order: the one place that
// names them all (a new panel is one line here and one file in app/panels or app/classroom).

#include <memory>

#include "app/classroom/view_states.h"
#include "app/ui/layout.h"

namespace attnviz::desktop {

// The File, Edit and View menus, the input panels, Heatmaps, Backend, the status bar, the
// Export dialog and the classroom's views and menu (showing `classroom_views`), in order.
std::unique_ptr<ui::Layout> make_default_layout(classroom::ViewStates& classroom_views);

}  // namespace attnviz::desktop
