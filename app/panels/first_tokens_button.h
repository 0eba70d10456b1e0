#pragma once
// "Keep the first 65,536 tokens": offered under the Sentence box and above the Heatmaps when a
// text typed or pasted past the overview's limit leaves it nothing to show. Both places apply
// the same edit as one undo step.

#include "app/ui/panel.h"

namespace attnviz::panels {

// Draws the button (`id` tells the two places apart, "##sentence", "##overview"); a click cuts
// the sentence (and a cross-attention source) to the tokens the overview shows, as one undo
// step of that name. Returns whether it did.
bool keep_first_tokens_button(ui::UiContext& ui, const char* id);

}  // namespace attnviz::panels
