#pragma once
// "Keep the first 65,536 tokens": offered under the Sentence box and above the Heatmaps when a
// text typed or pasted past the overview's limit leaves it nothing to show; "Keep the first
// 4,096 tokens" in the views that show every matrix, for a text only the overview shows. Each
// applies its edit as one undo step.

#include "app/ui/panel.h"
#include "core/overview/overview.h"

namespace attnviz::ui {

// Draws the button (`id` tells the places apart, "##sentence", "##overview"); a click cuts the
// sentence (and a cross-attention source) to its first `limit` tokens, as one undo step of the
// button's name. Returns whether it did.
bool keep_first_tokens_button(UiContext& ui, const char* id, int limit = overview::kMaxOverviewTokens);

}  // namespace attnviz::ui
