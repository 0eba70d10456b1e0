#pragma once
// attnviz's icon, drawn from one description: a rounded dark tile holding a 4 × 4 attention
// map under a causal mask (the lower triangle lit in viridis-like colours, the hidden cells
// faint). The window sets it as its icon; `attnviz_make_icons` (app/install) writes the same
// picture as the SVG and the PNG sizes that are installed for application menus.

#include <cstdint>
#include <string>
#include <vector>

namespace attnviz::window {

// RGBA, 8 bits per channel, `size` × `size`, rows top to bottom, straight (not premultiplied) alpha.
std::vector<std::uint8_t> render_app_icon(int size);

// The same picture as a scalable SVG document.
std::string app_icon_svg();

}  // namespace attnviz::window
