#pragma once
// Pieces of the Heatmaps panel (app/panels/heatmaps_panel.cpp), in their own file to keep
// each short: headings, the all-heads grid and the pinned query.

#include <string>
#include <string_view>
#include <vector>

#include "app/heatmap/query_bars.h"
#include "app/ui/panel.h"

namespace attnviz::panels {

// tokens[i] as ui::token_label writes it, or "?" outside the list.
std::string token_text(const std::vector<std::string>& tokens, int i);

// “text”, in typographic quotes.
std::string in_quotes(std::string_view text);

// A note wrapped at the region's edge: in the quiet grey of disabled text, or in the error red
// for a problem.
void note_text(const std::string& text, bool problem = false);

// Heights of a heading of `lines` lines and of a colorbar with its ticks, in pixels.
float title_height(int lines = 1);
float colorbar_height();

// A bold title and, when it fits in `max_width` (0: the rest of the line), a grey formula.
void heading(const char* title, const char* formula, float max_width = 0.0f);

// A heatmap's title block in `width` pixels: 1 line when the title and its formula fit side
// by side, else 2 with the formula below: the formula (the scale 1/√d_k is the lesson's
// point) is moved, never dropped.
int title_lines(const char* title, const char* formula, float width);
// Its first line: the bold title (shortened if even it does not fit), and the formula beside
// it unless `formula_below`. ImGui's last item is then the title line (for the Export button).
void title_line(const char* title, const char* formula, float width, bool formula_below);
// Its second line: the formula, shortened to `width` with the whole of it in a tooltip.
void formula_line(const char* formula, float width);
// The width of `title` in the headings' bold face.
float heading_width(const char* title);

// How the query heads share keys and values, as the toolbar says it: "" for multi-head
// attention (each head its own K/V), "  ·  MQA: 1 K/V head for all 4", "  ·  GQA: 2 K/V heads,
// 4 queries each".
std::string kv_sharing(int heads, int kv_heads);

// The toolbar above the heatmaps (app/panels/heatmaps_toolbar.cpp).
void draw_heatmaps_toolbar(ui::UiContext& ui, int head_count);

// Every head's weights as a thumbnail in width × height, none larger than `max_side`;
// clicking one selects that head.
void draw_head_grid(ui::UiContext& ui, float width, float height, float max_side);

// The pinned query's weights over the keys as bars and its context vector, or a hint; the bars
// in the colours of the weights and context heatmaps beside them.
void draw_pinned_query(ui::UiContext& ui, int head, float width, float height, const heatmap::BarColours& weights,
                       const heatmap::BarColours& context);

}  // namespace attnviz::panels
