#include "app/window/window_components.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <filesystem>
#include <string>

#include "app/window/fonts.h"

namespace attnviz::window {
namespace {

// A font file's family and licence, known by its name (the families fonts.cpp looks for).
about::Component font_component(const std::string& file) {
  const std::string name = std::filesystem::path(file).filename().string();
  const auto has = [&](const char* part) { return name.find(part) != std::string::npos; };
  about::Component font{name, "", "see its package's copyright file", file};
  if (has("DejaVu")) font.licence = "Bitstream-Vera AND public domain";
  if (has("Nanum") || has("Noto")) font.licence = "OFL-1.1";
  if (has("Un")) font.licence = "GPL-2.0";
  if (has("baekmuk") || has("Baekmuk")) font.licence = "Baekmuk";
  return font;
}

// "3.3.8 X11 GLX EGL OSMesa clock_gettime evdev shared": the version is the first word.
std::string glfw_version() {
  const std::string full = glfwGetVersionString();
  return full.substr(0, full.find(' '));
}

}  // namespace

std::vector<about::Component> window_components() {
  std::vector<about::Component> out = {
      {"Dear ImGui", IMGUI_VERSION, "MIT", "https://github.com/ocornut/imgui"},
      {"GLFW", glfw_version(), "Zlib", "https://www.glfw.org"},
  };
  const FontSet& set = fonts();
  if (set.latin_file.empty())
    out.push_back({"ProggyClean (Dear ImGui's built-in font)", "", "MIT", "https://github.com/ocornut/imgui"});
  else
    out.push_back(font_component(set.latin_file));
  if (!set.hangul_file.empty()) out.push_back(font_component(set.hangul_file));
  return out;
}

}  // namespace attnviz::window
