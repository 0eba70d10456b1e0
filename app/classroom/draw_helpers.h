#pragma once
// Small drawing helpers the classroom views share: headings, pill buttons, token chips and a
// heatmap of a host matrix with a caption (name and shape) above it.

#include <cstdint>
#include <string>
#include <vector>

#include "app/compute/compute_session.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/ui/panel.h"

struct ImFont;

namespace attnviz::classroom {

// The font of the numbers in heatmap cells (the small font), for measuring them.
ImFont* cell_font();

// Text in the heading font (larger, bold; Latin only: no Hangul in it), wrapped at the
// current wrap position (the window's edge unless one is pushed).
void heading_text(const std::string& text);
// Its height when wrapped at `width` pixels.
float heading_height(const std::string& text, float width);

// ImGui::SameLine, unless an item `width` pixels wide would then end past `right` (window
// coordinates, e.g. the content region's right edge): toolbars wrap instead of running off
// a projector's screen.
void same_line_if_fits(float width, float right);

// The width of a pill() or ImGui::Button with this label.
float button_width(const char* label);

// A button drawn as selected (filled with the accent colour) or not; true when clicked.
bool pill(const char* label, bool selected, float min_width = 0.0f);

// "Head" and one pill per head after the toolbar's last item, `group_gap` after it (on a new
// line when they would end past `right`); a clicked pill sets `selected`. Nothing for one head.
// `id_base` keeps each view's pills apart in ImGui's ID stack.
void head_pills(int heads, int& selected, float group_gap, float right, int id_base);

// The tokens as chips on one wrapped line; returns the clicked index or -1.
// `highlight` is drawn selected; `caption` is written before the chips.
int token_chips(const char* id, const std::string& caption, const std::vector<std::string>& tokens, int highlight);

// `line` wrapped at spaces only, within `width` pixels (0: up to the window's edge),
// continuation lines indented when `hanging` (a trace line's numbers under its name). ImGui's
// own wrapping also breaks after a '.', which splits numbers ("-0." / "591", "max 0." / "13").
void text_wrapped_at_spaces(const std::string& line, float width = 0.0f, bool hanging = true);
// The lines it draws (in the current font).
std::vector<std::string> wrap_at_spaces(const std::string& line, float width, bool hanging = true);

// A version number no other upload has used: host matrices the classroom builds are
// uploaded under it, so the heatmap renderer never mistakes them for an earlier upload that
// happened to live at the same address.
std::uint64_t fresh_upload_version();

// `values` with every non-finite entry replaced by 0 (−∞ of masked scores: the heatmap
// hatches those cells and shows no number there).
Matrix finite_copy(const Matrix& values);
bool all_finite(const Matrix& values);

// What a view says when the session has no result: for a text past the window's 4,096 tokens,
// that only the Heatmaps view's overview shows it (with a button that goes there); else `lead`
// and the session's error.
void nothing_to_show(ui::UiContext& ui, const char* lead);

}  // namespace attnviz::classroom
