#include "app/platform/imgui_layer.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>

#include <algorithm>
#include <cfloat>

#include "app/platform/glfw_window.h"
#include "app/platform/swapchain.h"
#include "core/vk/check.h"
#include "core/vk/commands.h"
#include "core/vk/context.h"

namespace attnviz::platform {
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

ImGuiLayer::ImGuiLayer(const GlfwWindow& window, const vk::Context& context, const Swapchain& swapchain, float ui_scale)
    : context_(&context), swapchain_(&swapchain), ui_scale_(ui_scale) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout comes from code (--layout), not from a stale imgui.ini
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  io.ConfigWindowsMoveFromTitleBarOnly = true;

  // One sampler for the font atlas; the pool is ImGui's alone and is reset when fonts reload.
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4};
  VkDescriptorPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  pool_info.maxSets = 4;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &size;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  vk::check(vkCreateDescriptorPool(context.device(), &pool_info, nullptr, &pool), "vkCreateDescriptorPool");
  pool_ = vk::DescriptorPool(context.device(), pool);

  ImGui_ImplGlfw_InitForVulkan(window.handle(), true);
  fonts_ = load_scaled_fonts(ui_scale_);
  init_renderer();
}

ImGuiLayer::~ImGuiLayer() {
  vkDeviceWaitIdle(context_->device());
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
  if (ignore_mouse) {  // where the pointer happens to be must not show in a screenshot
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    for (bool& down : io.MouseDown) down = false;
    io.MouseWheel = 0.0f;
  }
  ImGui::NewFrame();
}

ImDrawData* ImGuiLayer::end_frame() {
  ImGui::Render();
  return ImGui::GetDrawData();
}

void ImGuiLayer::record(ImDrawData* draw_data, VkCommandBuffer cmd) { ImGui_ImplVulkan_RenderDrawData(draw_data, cmd); }

}  // namespace attnviz::platform
