#include "app/window/swapchain.h"

#include <algorithm>
#include <array>

#include "app/window/device_idle.h"
#include "core/vk/check.h"
#include "core/vk/context.h"

namespace attnviz::window {
namespace {

// UNORM, not SRGB: ImGui's colours and our colormap tables are already sRGB-encoded values.
VkSurfaceFormatKHR choose_format(VkPhysicalDevice gpu, VkSurfaceKHR surface) {
  std::uint32_t count = 0;
  vk::check(vkGetPhysicalDeviceSurfaceFormatsKHR(gpu, surface, &count, nullptr),
            "vkGetPhysicalDeviceSurfaceFormatsKHR");
  std::vector<VkSurfaceFormatKHR> formats(count);
  vk::check(vkGetPhysicalDeviceSurfaceFormatsKHR(gpu, surface, &count, formats.data()),
            "vkGetPhysicalDeviceSurfaceFormatsKHR");
  if (formats.empty())
    throw vk::VulkanError("vkGetPhysicalDeviceSurfaceFormatsKHR (no formats)", VK_ERROR_FORMAT_NOT_SUPPORTED);
  for (VkFormat wanted : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM}) {
    for (const auto& f : formats) {
      if (f.format == wanted && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) return f;
    }
  }
  if (formats.size() == 1 && formats[0].format == VK_FORMAT_UNDEFINED) {
    return {VK_FORMAT_B8G8R8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR};
  }
  return formats[0];
}

VkPresentModeKHR choose_present_mode(VkPhysicalDevice gpu, VkSurfaceKHR surface, PresentPacing pacing) {
  if (pacing == PresentPacing::VSync) return VK_PRESENT_MODE_FIFO_KHR;  // always supported
  std::uint32_t count = 0;
  vk::check(vkGetPhysicalDeviceSurfacePresentModesKHR(gpu, surface, &count, nullptr),
            "vkGetPhysicalDeviceSurfacePresentModesKHR");
  std::vector<VkPresentModeKHR> modes(count);
  vk::check(vkGetPhysicalDeviceSurfacePresentModesKHR(gpu, surface, &count, modes.data()),
            "vkGetPhysicalDeviceSurfacePresentModesKHR");
  for (VkPresentModeKHR wanted : {VK_PRESENT_MODE_IMMEDIATE_KHR, VK_PRESENT_MODE_MAILBOX_KHR}) {
    if (std::find(modes.begin(), modes.end(), wanted) != modes.end()) return wanted;
  }
  return VK_PRESENT_MODE_FIFO_KHR;
}

}  // namespace

Swapchain::Swapchain(const vk::Context& context, VkExtent2D wanted, PresentPacing pacing)
    : context_(&context), device_(context.device()) {
  format_ = choose_format(context.physical_device(), context.surface());
  present_mode_ = choose_present_mode(context.physical_device(), context.surface(), pacing);
  create_render_pass();
  create_swapchain(wanted);
}

Swapchain::~Swapchain() { wait_idle_or_report(device_, "swapchain"); }

void Swapchain::recreate(VkExtent2D wanted) {
  vk::check(vkDeviceWaitIdle(device_), "vkDeviceWaitIdle");
  create_swapchain(wanted);
}

void Swapchain::create_render_pass() {
  // The image is acquired with a semaphore waited at COLOR_ATTACHMENT_OUTPUT: the layout
  // transition must wait there too.
  VkSubpassDependency acquire{};
  acquire.srcSubpass = VK_SUBPASS_EXTERNAL;
  acquire.dstSubpass = 0;
  acquire.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  acquire.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  acquire.srcAccessMask = 0;
  acquire.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  render_pass_ = vk::create_colour_pass(device_, format_.format, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, {&acquire, 1});
}

void Swapchain::create_swapchain(VkExtent2D wanted) {
  VkSurfaceCapabilitiesKHR caps{};
  vk::check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(context_->physical_device(), context_->surface(), &caps),
            "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
  // currentExtent is the window's size, except on platforms where the swapchain decides it.
  extent_ = caps.currentExtent.width != 0xFFFFFFFFu ? caps.currentExtent : wanted;
  extent_.width = std::clamp(extent_.width, caps.minImageExtent.width, caps.maxImageExtent.width);
  extent_.height = std::clamp(extent_.height, caps.minImageExtent.height, caps.maxImageExtent.height);
  min_image_count_ = std::max(2u, caps.minImageCount);
  std::uint32_t image_count = min_image_count_ + 1;
  if (caps.maxImageCount > 0) image_count = std::min(image_count, caps.maxImageCount);
  capturable_ = (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;

  VkSwapchainCreateInfoKHR info{};
  info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR;
  info.surface = context_->surface();
  info.minImageCount = image_count;
  info.imageFormat = format_.format;
  info.imageColorSpace = format_.colorSpace;
  info.imageExtent = extent_;
  info.imageArrayLayers = 1;
  VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  if (capturable_) usage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  info.imageUsage = usage;
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = (caps.supportedTransforms & VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR) != 0
                          ? VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR
                          : caps.currentTransform;
  info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  for (VkCompositeAlphaFlagBitsKHR mode : {VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR}) {
    if ((caps.supportedCompositeAlpha & static_cast<VkCompositeAlphaFlagsKHR>(mode)) != 0) {
      info.compositeAlpha = mode;
      break;
    }
  }
  info.presentMode = present_mode_;
  info.clipped = VK_TRUE;
  info.oldSwapchain = swapchain_.get();
  VkSwapchainKHR swapchain = VK_NULL_HANDLE;
  vk::check(vkCreateSwapchainKHR(device_, &info, nullptr, &swapchain), "vkCreateSwapchainKHR");
  framebuffers_.clear();
  views_.clear();
  swapchain_ = SwapchainHandle(device_, swapchain);  // destroys the old one, now retired

  std::uint32_t count = 0;
  vk::check(vkGetSwapchainImagesKHR(device_, swapchain, &count, nullptr), "vkGetSwapchainImagesKHR");
  images_.resize(count);
  vk::check(vkGetSwapchainImagesKHR(device_, swapchain, &count, images_.data()), "vkGetSwapchainImagesKHR");
  for (VkImage image : images_) {
    views_.push_back(vk::create_image_view_2d(device_, image, format_.format));
    framebuffers_.push_back(vk::create_framebuffer(device_, render_pass_.get(), views_.back().get(), extent_));
  }
}

}  // namespace attnviz::window
