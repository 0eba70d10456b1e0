#include "app/window/imgui_layer.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cfloat>
#include <optional>

#include "app/window/device_idle.h"
#include "app/window/draw_list_guard.h"
#include "app/window/glfw_window.h"
#include "app/window/navigation_keys.h"
#include "app/window/preedit_overlay.h"
#include "app/window/swapchain.h"
#include "app/window/widget_log.h"
#include "core/vk/check.h"
#include "core/vk/commands.h"
#include "core/vk/context.h"
#include "core/vk/descriptors.h"

namespace attnviz::window {
namespace {

void check_imgui_vulkan(VkResult result) { vk::check(result, "Dear ImGui's Vulkan backend"); }

// Fonts are rasterised at most this much larger than at 1x: with 11,172 Hangul syllables a
// larger atlas would outgrow a texture. Beyond it ImGui scales the glyphs (a little softer).
constexpr float kMaxRasterScale = 2.5f;

FontSet load_scaled_fonts(float ui_scale) {
  const float raster = std::min(ui_scale, kMaxRasterScale);
  ImGui::GetIO().FontGlobalScale = ui_scale / raster;
  return load_fonts(ImGuiLayer::kBaseFontPixels * raster);
}

}  // namespace

ImGuiLayer::ImGuiLayer(GlfwWindow& window, const vk::Context& context, const Swapchain& swapchain, float ui_scale)
    : window_(&window), context_(&context), swapchain_(&swapchain), ui_scale_(ui_scale) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout comes from code (--layout), not from a stale imgui.ini
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  io.ConfigWindowsMoveFromTitleBarOnly = true;

  // One sampler for the font atlas; the pool is ImGui's alone and is reset when fonts reload.
  const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4};
  pool_ = vk::create_descriptor_pool(context.device(), 4, {&size, 1});

  ImGui_ImplGlfw_InitForVulkan(window.handle(), true);
  window.take_back_input_events();  // keys, buttons and characters reach ImGui through one queue
  fonts_ = load_scaled_fonts(ui_scale_);
  init_renderer();
}

ImGuiLayer::~ImGuiLayer() {
  wait_idle_or_report(context_->device(), "Dear ImGui layer");
  ImGui_ImplVulkan_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

void ImGuiLayer::init_renderer() {
  ImGui_ImplVulkan_InitInfo info{};
  info.Instance = context_->instance();
  info.PhysicalDevice = context_->physical_device();
  info.Device = context_->device();
  info.QueueFamily = context_->queue_family();
  info.Queue = context_->queue();
  info.DescriptorPool = pool_.get();
  info.MinImageCount = swapchain_->min_image_count();
  // The backend keeps this many vertex buffers in rotation: at least the frames in flight.
  info.ImageCount = std::max(swapchain_->image_count(), swapchain_->min_image_count());
  info.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
  info.CheckVkResultFn = check_imgui_vulkan;
  ImGui_ImplVulkan_Init(&info, swapchain_->render_pass());
  upload_fonts();
}

void ImGuiLayer::upload_fonts() {
  vk::CommandStream stream(*context_);
  ImGui_ImplVulkan_CreateFontsTexture(stream.begin());
  stream.submit_and_wait();
  ImGui_ImplVulkan_DestroyFontUploadObjects();
  // The atlas lives on the GPU now; the CPU copy (up to 4096² RGBA with Hangul) can go.
  ImGui::GetIO().Fonts->ClearTexData();
}

void ImGuiLayer::set_ui_scale(float ui_scale) {
  if (ui_scale == ui_scale_) return;
  ui_scale_ = ui_scale;
  vk::check(vkDeviceWaitIdle(context_->device()), "vkDeviceWaitIdle");
  ImGui_ImplVulkan_Shutdown();  // the 1.86 backend cannot replace its font texture in place
  vk::check(vkResetDescriptorPool(context_->device(), pool_.get(), 0), "vkResetDescriptorPool");
  fonts_ = load_scaled_fonts(ui_scale_);
  init_renderer();
}

void ImGuiLayer::on_swapchain_rebuilt(const Swapchain& swapchain) {
  ImGui_ImplVulkan_SetMinImageCount(swapchain.min_image_count());
}

void ImGuiLayer::new_frame(bool ignore_mouse) {
  ImGui_ImplVulkan_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  // Keys, characters and buttons in the order they happened (key_queue.h). ImGui_ImplGlfw_NewFrame
  // set io.MouseDown from the buttons' state now; the queue says what this frame sees instead
  // (a click between two frames is down for one of them).
  window_->input().deliver([this, &io](KeyChange change) {
    switch (change.kind) {
      case InputKind::Key:
        if (change.key >= 0 && change.key < IM_ARRAYSIZE(io.KeysDown)) io.KeysDown[change.key] = change.down;
        break;
      case InputKind::Button:
        if (change.key >= 0 && change.key < IM_ARRAYSIZE(mouse_down_)) mouse_down_[change.key] = change.down;
        break;
      case InputKind::Char: io.AddInputCharacter(static_cast<unsigned int>(change.key)); break;
    }
  });
  for (int i = 0; i < IM_ARRAYSIZE(mouse_down_); ++i) io.MouseDown[i] = mouse_down_[i];
  // As ImGui's own key callback does: the modifiers follow the keys.
  io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
  io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
  io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
  io.KeySuper = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
  apply_navigation_claims(io);  // the keys a shortcut takes this frame (navigation_keys.h)
  if (ignore_mouse) {           // where the pointer happens to be must not show in a screenshot
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    for (bool& down : io.MouseDown) down = false;
    io.MouseWheel = 0.0f;
  }
  if (widget_log::enabled()) {
    int x = 0;
    int y = 0;
    glfwGetWindowPos(window_->handle(), &x, &y);
    widget_log::set_window_origin(x, y);
    widget_log::set_input_pending(window_->input_pending());
  }
  ImGui::NewFrame();
}

ImDrawData* ImGuiLayer::end_frame() {
  show_preedit();
  ImGui::EndFrame();
  // A text so long that one primitive overflows 16-bit indices is split, not an abort.
  split_oversized_draw_commands();
  ImGui::Render();
  widget_log::end_frame();
  return ImGui::GetDrawData();
}

// The syllable an input method is composing, at the caret of the field it is typed in; the
// input method learns where that caret is (its candidate window goes there).
void ImGuiLayer::show_preedit() {
  X11InputMethod& input_method = window_->input_method();
  if (!input_method.active()) return;
  const std::optional<TextCaret> caret = active_text_caret();
  input_method.on_frame(caret);
  if (caret) draw_preedit(input_method.preedit(), *caret);
  if (widget_log::enabled()) widget_log::set_preedit(caret ? input_method.preedit().utf8() : "");
}

void ImGuiLayer::record(ImDrawData* draw_data, VkCommandBuffer cmd) { ImGui_ImplVulkan_RenderDrawData(draw_data, cmd); }

}  // namespace attnviz::window
