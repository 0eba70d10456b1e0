#pragma once
// What attnviz is built from, for Help ▸ About: each library the core computes with, the version
// it was built with (or, where the library can say, runs with), its licence and its home. The
// window adds its own (Dear ImGui, GLFW, the fonts it found).

#include <string>
#include <vector>

namespace attnviz::about {

struct Component {
  std::string name;     // "Eigen"
  std::string version;  // "3.4.0"
  std::string licence;  // "MPL-2.0" (SPDX where there is one)
  std::string home;     // "https://eigen.tuxfamily.org"
};

// attnviz's own version ("0.1.0").
std::string attnviz_version();

// Eigen, nlohmann/json, utf8proc, stb_image_write and stb_truetype, the Vulkan headers and
// loader, OpenMP.
std::vector<Component> core_components();

}  // namespace attnviz::about
