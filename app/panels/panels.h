#pragma once
// The window's panels and menus, one source file each (app/panels/*.cpp). The layout
// (app/ui/layout.cpp) creates them in this order.

#include <memory>

#include "app/panels/panel.h"

namespace attnviz::ui {

// Heatmaps of the selected head (raw scores, scaled and masked scores, weights, context), the
// all-heads grid, the pinned query's weights and context vector.
std::unique_ptr<Panel> make_heatmaps_panel();
// Vulkan / Eigen / both, devices, timings, largest differences and the difference heatmap.
std::unique_ptr<Panel> make_backend_panel();
// View menu: layout, colormaps, weight range, numbers.
std::unique_ptr<Menu> make_view_menu();

// The status bar at the bottom of the window: tokens, heads, backend, compute and frame time.
void draw_status_bar(UiContext& ui, float x, float y, float width, float height);

}  // namespace attnviz::ui
