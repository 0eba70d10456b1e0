#include "app/window/navigation_keys.h"

#include <array>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace attnviz::window {
namespace {

struct NavigationKey {
  ImGuiKey imgui;
  int glfw;  // what the GLFW backend maps it to
};

constexpr std::array<NavigationKey, 8> kNavigationKeys{{{ImGuiKey_LeftArrow, GLFW_KEY_LEFT},
                                                        {ImGuiKey_RightArrow, GLFW_KEY_RIGHT},
                                                        {ImGuiKey_UpArrow, GLFW_KEY_UP},
                                                        {ImGuiKey_DownArrow, GLFW_KEY_DOWN},
                                                        {ImGuiKey_PageUp, GLFW_KEY_PAGE_UP},
                                                        {ImGuiKey_PageDown, GLFW_KEY_PAGE_DOWN},
                                                        {ImGuiKey_Home, GLFW_KEY_HOME},
                                                        {ImGuiKey_End, GLFW_KEY_END}}};

std::array<bool, kNavigationKeys.size()> g_claimed{};

}  // namespace

void claim_from_navigation(int glfw_key) {
  for (std::size_t i = 0; i < kNavigationKeys.size(); ++i) {
    if (kNavigationKeys[i].glfw == glfw_key) g_claimed[i] = true;
  }
}

void apply_navigation_claims(ImGuiIO& io) {
  for (std::size_t i = 0; i < kNavigationKeys.size(); ++i) {
    io.KeyMap[kNavigationKeys[i].imgui] = g_claimed[i] ? -1 : kNavigationKeys[i].glfw;
    g_claimed[i] = false;
  }
}

}  // namespace attnviz::window
