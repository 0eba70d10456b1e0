#pragma once
// What the window is built from beside the core's libraries (core/about): Dear ImGui, GLFW and
// the font files it found, each with its version and licence, for Help ▸ About.

#include <vector>

#include "core/about/components.h"

namespace attnviz::window {

// Dear ImGui, GLFW (the version the process runs with), and the Latin and Hangul font files the
// UI draws with (after load_fonts; ImGui's built-in font when no Latin font was found).
std::vector<about::Component> window_components();

}  // namespace attnviz::window
