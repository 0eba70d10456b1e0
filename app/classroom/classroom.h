#pragma once
// The classroom views (issue 6) as the window sees them: what the panel registry adds, what
// the frame loop calls once per frame, and the start-up options (start_options.h).
//
//   Step by step      the pipeline one page at a time, one query token followed throughout
//   Compare           2 or 4 variants (masks, heads, K/V heads) on one colour scale
//   Cross-attention   target and source sentences with the weights between them
//   Tiled             FlashAttention-2 tile by tile (production_views.h)
//   Decode            KV-cache decoding token by token, with its cost (production_views.h)
//   Source sentence   (Inputs column) a second sentence for cross-attention
//   Classroom menu    shortcuts, presentation mode (F11), Help (F1)

#include <optional>
#include <string>

#include "app/classroom/view_states.h"
#include "app/ui/classroom_state.h"
#include "app/ui/layout.h"

namespace attnviz::classroom {

// Adds the Source panel, the five views (after the panels already added, so their tabs come
// after Heatmaps) and the Classroom menu, all showing `views` (the desktop keeps it).
void add_classroom(ui::Layout& layout, ViewStates& views);

// The title of the tab the layout should select in this frame, once (then forgotten).
std::optional<std::string> take_tab_request(ui::ClassroomState& state);

}  // namespace attnviz::classroom
