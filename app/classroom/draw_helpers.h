#pragma once
// Small drawing helpers the classroom views share: headings, pill buttons, token chips and a
// heatmap of a host matrix with a caption (name and shape) above it.

#include <cstdint>
#include <string>
#include <vector>

#include "app/heatmap/heatmap_widget.h"

namespace attnviz::classroom {

// Text in the heading font (larger, bold; Latin only: no Hangul in it).
void heading_text(const std::string& text);

// A button drawn as selected (filled with the accent colour) or not; true when clicked.
bool pill(const char* label, bool selected, float min_width = 0.0f);

// The tokens as chips on one wrapped line; returns the clicked index or -1.
// `highlight` is drawn selected; `caption` is written before the chips.
int token_chips(const char* id, const std::string& caption, const std::vector<std::string>& tokens, int highlight);

// A version number no other upload has used: host matrices the classroom builds are
// uploaded under it, so the heatmap renderer never mistakes them for an earlier upload that
// happened to live at the same address.
std::uint64_t fresh_upload_version();

// `values` with every non-finite entry replaced by 0 (−∞ of masked scores: the heatmap
// hatches those cells and shows no number there).
Matrix finite_copy(const Matrix& values);
bool all_finite(const Matrix& values);

}  // namespace attnviz::classroom
