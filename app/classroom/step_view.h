#pragma once
// The classroom views as panels of the main area (one tab each) and the Classroom menu.

#include <memory>

#include "app/classroom/view_states.h"
#include "app/ui/panel.h"

namespace attnviz::classroom {

// Step by step: one page per step of the pipeline, the followed query's numbers beside it.
std::unique_ptr<ui::Panel> make_step_view(ViewStates& views);
// Compare: 2 or 4 variants of the scenario side by side on one colour scale.
std::unique_ptr<ui::Panel> make_compare_view(ViewStates& views);
// Cross-attention: the target and source sentences, the weights between them as lines.
std::unique_ptr<ui::Panel> make_cross_view();
// Source sentence (Inputs column): turn cross-attention on, type the second sentence.
std::unique_ptr<ui::Panel> make_source_panel();
// Classroom menu: steps, heads, masks, presentation mode, the Help window; every shortcut.
std::unique_ptr<ui::Menu> make_classroom_menu(ViewStates& views);

}  // namespace attnviz::classroom
