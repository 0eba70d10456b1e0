#pragma once
// Scene → SVG 1.1 text: real <rect> and <text> elements, labels XML-escaped, the physical size
// (width/height in pt) following the scene's dpi.

#include <string>
#include <string_view>

#include "core/export/scene.h"

namespace attnviz::exporting {

std::string scene_to_svg(const Scene& scene);

// Escapes &, <, >, " and ' for XML text and attribute values; drops characters XML 1.0 forbids.
std::string xml_escape(std::string_view text);

}  // namespace attnviz::exporting
