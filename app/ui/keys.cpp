#include "app/ui/keys.h"

#include <imgui_internal.h>

#include "app/window/navigation_keys.h"

namespace attnviz::ui::keys {

bool plain_keys_free() {
  const ImGuiIO& io = ImGui::GetIO();
  return !io.WantTextInput && !ImGui::IsAnyItemActive() &&
         !ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
}

void claim_from_navigation(int glfw_key) {
  if (plain_keys_free()) window::claim_from_navigation(glfw_key);
}

bool modal_open() { return ImGui::GetTopMostPopupModal() != nullptr; }

bool ctrl_key_free(int glfw_key) {
  if (modal_open()) return false;
  const bool text_editing = glfw_key == GLFW_KEY_Z || glfw_key == GLFW_KEY_Y || glfw_key == GLFW_KEY_C ||
                            glfw_key == GLFW_KEY_X || glfw_key == GLFW_KEY_V || glfw_key == GLFW_KEY_A;
  return !(text_editing && ImGui::GetIO().WantTextInput);
}

}  // namespace attnviz::ui::keys
