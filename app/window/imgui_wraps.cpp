// Wrappers around four of Dear ImGui 1.86's functions, for executables linked with
// -Wl,--wrap=SYMBOL for each symbol below (attnviz_imgui_wraps() in app/window/CMakeLists.txt):
// the linker sends calls of SYMBOL made from other object files (ImGui's widgets, our panels)
// to __wrap_SYMBOL, which reports to the widget log (widget_log.h) and calls ImGui's own
// function, __real_SYMBOL. ImGui behaves exactly as without them.
//
// The names are the Itanium C++ ABI's for these signatures of ImGui 1.86 (Debian bookworm's
// libimgui-dev); a member function takes `this` as its first argument.

#include <imgui.h>
#include <imgui_internal.h>

#include <string>

#include "app/window/widget_log.h"

namespace {

// Before main(): the log knows the wrappers are linked in.
const bool g_marked = [] {
  attnviz::window::widget_log::mark_wrapped();
  return true;
}();

}  // namespace

// NOLINTBEGIN(bugprone-reserved-identifier): the names the linker's --wrap expects.
extern "C" {

// bool ImGui::ItemAdd(const ImRect& bb, ImGuiID id, const ImRect* nav_bb, ImGuiItemFlags extra_flags)
bool __real__ZN5ImGui7ItemAddERK6ImRectjPS1_i(const ImRect& bb, ImGuiID id, const ImRect* nav_bb, ImGuiItemFlags flags);
bool __wrap__ZN5ImGui7ItemAddERK6ImRectjPS1_i(const ImRect& bb, ImGuiID id, const ImRect* nav_bb,
                                              ImGuiItemFlags flags) {
  const bool visible = __real__ZN5ImGui7ItemAddERK6ImRectjPS1_i(bb, id, nav_bb, flags);
  attnviz::window::widget_log::on_item(bb, id, visible);
  return visible;
}

// ImGuiID ImGuiWindow::GetID(const char* str, const char* str_end)
ImGuiID __real__ZN11ImGuiWindow5GetIDEPKcS1_(ImGuiWindow* window, const char* str, const char* str_end);
ImGuiID __wrap__ZN11ImGuiWindow5GetIDEPKcS1_(ImGuiWindow* window, const char* str, const char* str_end) {
  const ImGuiID id = __real__ZN11ImGuiWindow5GetIDEPKcS1_(window, str, str_end);
  attnviz::window::widget_log::on_label(id, str, str_end);
  return id;
}

// void ImGui::PushID(const char* str_id)
void __real__ZN5ImGui6PushIDEPKc(const char* str_id);
void __wrap__ZN5ImGui6PushIDEPKc(const char* str_id) {
  __real__ZN5ImGui6PushIDEPKc(str_id);
  const ImGuiWindow* window = GImGui->CurrentWindow;
  if (str_id != nullptr && window != nullptr && !window->IDStack.empty()) {
    attnviz::window::widget_log::on_push(window->IDStack.back(), str_id);
  }
}

// void ImGui::PushID(int int_id)
void __real__ZN5ImGui6PushIDEi(int int_id);
void __wrap__ZN5ImGui6PushIDEi(int int_id) {
  __real__ZN5ImGui6PushIDEi(int_id);
  const ImGuiWindow* window = GImGui->CurrentWindow;
  if (window != nullptr && !window->IDStack.empty()) {
    attnviz::window::widget_log::on_push(window->IDStack.back(), std::to_string(int_id));
  }
}

}  // extern "C"
// NOLINTEND(bugprone-reserved-identifier)
