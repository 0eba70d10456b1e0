#pragma once
// A Dear ImGui context without a window or renderer, for tests that build frames and look at
// what ImGui decided (scrolling, hover, key routing, draw lists). One per test; frames are the
// test's own: NewFrame, its windows, Render (or EndFrame).

#include <imgui.h>

namespace attnviz::testing {

class HeadlessImGui {
 public:
  explicit HeadlessImGui(ImVec2 display = ImVec2(400.0f, 300.0f)) : context_(ImGui::CreateContext()) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = display;
    io.DeltaTime = 1.0f / 60.0f;
    io.IniFilename = nullptr;
    io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;  // as imgui_impl_vulkan.cpp does
    unsigned char* pixels = nullptr;
    int width = 0;
    int height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);  // builds the font atlas
  }
  ~HeadlessImGui() { ImGui::DestroyContext(context_); }
  HeadlessImGui(const HeadlessImGui&) = delete;
  HeadlessImGui& operator=(const HeadlessImGui&) = delete;

 private:
  ImGuiContext* context_;
};

}  // namespace attnviz::testing
