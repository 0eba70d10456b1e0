#pragma once
// Pieces of the Heatmaps panel (app/panels/heatmaps_panel.cpp), in their own file to keep
// each short: headings, the all-heads grid and the pinned query.

#include <string>
#include <vector>

#include "app/panels/panel.h"

namespace attnviz::ui {

// tokens[i], or "?" outside the list.
const char* token_text(const std::vector<std::string>& tokens, int i);

// Heights of a heading line and of a colorbar with its ticks, in pixels.
float title_height();
float colorbar_height();

// A bold title and, when it fits in `max_width` (0: the rest of the line), a grey formula.
void heading(const char* title, const char* formula, float max_width = 0.0f);

// Every head's weights as a thumbnail in width × height; clicking one selects that head.
void draw_head_grid(UiContext& ui, float width, float height);

// The pinned query's weights over the keys as bars and its context vector, or a hint.
void draw_pinned_query(UiContext& ui, int head, float width, float height);

}  // namespace attnviz::ui
