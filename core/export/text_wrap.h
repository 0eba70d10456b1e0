#pragma once
// Word wrapping for figure text (titles, notes): lines no wider than a given width, as measured
// by the font the figure is drawn with.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::exporting {

// Breaks `text` at spaces into lines whose measured width is at most `max_width`, never before
// a short number ("d_v 4)" stays together); a word wider than that on its own is broken between
// code points. Never returns an empty list ("" gives
// one empty line); spaces at line breaks are dropped.
std::vector<std::string> wrap_text(std::string_view text, double max_width,
                                   const std::function<double(const std::string&)>& measure);

// As wrap_text, but breaking first between the parts of `text` that `separator` joins (the
// subtitle's "head 0 of 1 · mask: none · scale …"), so that a part stays on one line whenever it
// fits on one; the separator is dropped at a break.
std::vector<std::string> wrap_parts(std::string_view text, std::string_view separator, double max_width,
                                    const std::function<double(const std::string&)>& measure);

}  // namespace attnviz::exporting
