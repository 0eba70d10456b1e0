#pragma once
// Dear ImGui on the window: its GLFW and Vulkan backends (compiled from Debian's
// libimgui-dev example sources), the font atlas on the GPU, and the per-frame begin/render.

#include <vulkan/vulkan.h>

#include "app/window/fonts.h"
#include "core/vk/handle.h"

struct ImDrawData;

namespace attnviz::vk {
class Context;
}

namespace attnviz::window {

class GlfwWindow;
class Swapchain;

class ImGuiLayer {
 public:
  // ui_scale multiplies font sizes (the caller scales the style).
  ImGuiLayer(GlfwWindow& window, const vk::Context& context, const Swapchain& swapchain, float ui_scale);
  ~ImGuiLayer();
  ImGuiLayer(const ImGuiLayer&) = delete;
  ImGuiLayer& operator=(const ImGuiLayer&) = delete;

  // ignore_mouse: as if the pointer were outside the window (screenshots, measurements).
  // Hands ImGui this frame's key changes from the window's queue (a tap stays down a frame).
  void new_frame(bool ignore_mouse = false);
  // ImGui::Render(); the draw data of the frame (for the heatmap callbacks' clip mapping).
  ImDrawData* end_frame();
  // Records the draw data into `cmd` (inside the render pass). Heatmap callbacks run here.
  void record(ImDrawData* draw_data, VkCommandBuffer cmd);

  // The swapchain was rebuilt: ImGui's vertex buffers follow its image count.
  void on_swapchain_rebuilt(const Swapchain& swapchain);

  // Reloads the fonts at a new scale (the monitor's content scale changed).
  void set_ui_scale(float ui_scale);
  [[nodiscard]] float ui_scale() const { return ui_scale_; }
  [[nodiscard]] const FontSet& fonts() const { return fonts_; }

  static constexpr float kBaseFontPixels = 17.0f;

 private:
  void init_renderer();
  void show_preedit();
  void upload_fonts();

  GlfwWindow* window_;
  const vk::Context* context_;
  const Swapchain* swapchain_;
  vk::DescriptorPool pool_;
  float ui_scale_ = 1.0f;
  FontSet fonts_;
  bool mouse_down_[5] = {};  // the buttons as delivered from the window's queue
};

}  // namespace attnviz::window
