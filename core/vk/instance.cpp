#include "core/vk/instance.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/common/error.h"
#include "core/vk/check.h"

namespace attnviz::vk {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

VKAPI_ATTR VkBool32 VKAPI_CALL collect_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                               VkDebugUtilsMessageTypeFlagsEXT /*types*/,
                                               const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  const char* level = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0 ? "error" : "warning";
  std::string text = std::string("[") + level + "] ";
  if (data->pMessageIdName != nullptr) text += std::string(data->pMessageIdName) + ": ";
  text += data->pMessage != nullptr ? data->pMessage : "(no message)";
  static_cast<MessageLog*>(user)->add(std::move(text));
  return VK_FALSE;  // never abort the call that triggered it
}

VkDebugUtilsMessengerCreateInfoEXT messenger_info(MessageLog* log) {
  VkDebugUtilsMessengerCreateInfoEXT info{};
  info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  info.pfnUserCallback = collect_message;
  info.pUserData = log;
  return info;
}

bool layer_available(const char* name) {
  std::uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, nullptr) < VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(count);
  if (vkEnumerateInstanceLayerProperties(&count, layers.data()) < VK_SUCCESS) return false;
  for (const auto& layer : layers) {
    if (std::strcmp(layer.layerName, name) == 0) return true;
  }
  return false;
}

std::vector<std::string> available_extensions() {
  std::uint32_t count = 0;
  std::vector<std::string> names;
  if (vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr) < VK_SUCCESS) return names;
  std::vector<VkExtensionProperties> extensions(count);
  if (vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data()) < VK_SUCCESS) return names;
  for (const auto& extension : extensions) names.emplace_back(extension.extensionName);
  return names;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  for (const auto& n : names) {
    if (n == name) return true;
  }
  return false;
}

[[noreturn]] void fail(const std::string& tried, const std::string& problem) {
  throw BackendUnavailable("Vulkan is unavailable: " + tried + problem + ". " + driver_install_advice());
}

}  // namespace

void MessageLog::add(std::string message) {
  const std::lock_guard lock(mutex_);
  if (echo_) std::fprintf(stderr, "attnviz: Vulkan validation: %s\n", message.c_str());
  messages_.push_back(std::move(message));
}

void MessageLog::echo_to_stderr(bool echo) {
  const std::lock_guard lock(mutex_);
  echo_ = echo;
}

std::vector<std::string> MessageLog::messages() const {
  const std::lock_guard lock(mutex_);
  return messages_;
}

void MessageLog::clear() {
  const std::lock_guard lock(mutex_);
  messages_.clear();
}

MessengerOwner& MessengerOwner::operator=(MessengerOwner&& other) noexcept {
  if (this != &other) {
    reset();
    instance_ = std::exchange(other.instance_, VK_NULL_HANDLE);
    messenger_ = std::exchange(other.messenger_, VK_NULL_HANDLE);
  }
  return *this;
}

void MessengerOwner::reset() {
  if (messenger_ != VK_NULL_HANDLE) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy != nullptr) destroy(instance_, messenger_, nullptr);
  }
  messenger_ = VK_NULL_HANDLE;
}

SurfaceOwner& SurfaceOwner::operator=(SurfaceOwner&& other) noexcept {
  if (this != &other) {
    reset();
    instance_ = std::exchange(other.instance_, VK_NULL_HANDLE);
    surface_ = std::exchange(other.surface_, VK_NULL_HANDLE);
  }
  return *this;
}

void SurfaceOwner::reset() {
  if (surface_ != VK_NULL_HANDLE) vkDestroySurfaceKHR(instance_, surface_, nullptr);
  surface_ = VK_NULL_HANDLE;
}

std::string version_text(std::uint32_t version) {
  return std::to_string(VK_API_VERSION_MAJOR(version)) + "." + std::to_string(VK_API_VERSION_MINOR(version)) + "." +
         std::to_string(VK_API_VERSION_PATCH(version));
}

bool validation_requested_by_environment() {
  const char* value = std::getenv("ATTNVIZ_VALIDATION");
  return value != nullptr && value[0] != '\0' && std::strcmp(value, "0") != 0;
}

std::string driver_install_advice() {
  return "To compute without a GPU, install Mesa's CPU driver (lavapipe): sudo apt-get install mesa-vulkan-drivers; "
         "for a GPU, install its vendor's Vulkan driver.";
}

std::string driver_environment_summary() {
  std::string summary;
  for (const char* name : {"VK_DRIVER_FILES", "VK_ICD_FILENAMES", "VK_ADD_DRIVER_FILES"}) {
    const char* value = std::getenv(name);
    if (value == nullptr) continue;
    if (!summary.empty()) summary += " ";
    summary += std::string(name) + "=" + value;
  }
  return summary;
}

InstanceSetup create_instance(const std::vector<std::string>& extensions, bool validation, MessageLog* log) {
  InstanceSetup setup;
  std::uint32_t loader_version = VK_API_VERSION_1_0;
  if (vkEnumerateInstanceVersion(&loader_version) < VK_SUCCESS) loader_version = VK_API_VERSION_1_0;
  setup.loader_version = version_text(loader_version);
  std::string tried = "the Vulkan loader was found (version " + setup.loader_version + ")";
  if (loader_version < VK_API_VERSION_1_1) fail(tried, ", but attnviz needs Vulkan 1.1 or newer");

  const std::vector<std::string> available = available_extensions();
  std::vector<std::string> enabled;
  for (const auto& name : extensions) {
    if (!contains(available, name)) fail(tried, ", but it lacks the instance extension " + name);
    if (!contains(enabled, name)) enabled.push_back(name);
  }
  if (validation) {
    if (!layer_available(kValidationLayer)) {
      throw BackendUnavailable(std::string("Vulkan validation was requested, but ") + kValidationLayer +
                               " is not installed: sudo apt-get install vulkan-validationlayers");
    }
    if (!contains(enabled, VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) enabled.emplace_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }
  VkInstanceCreateFlags flags = 0;
  if (contains(available, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
    // Lists portability drivers such as MoltenVK too.
    enabled.emplace_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
    flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  }

  std::vector<const char*> extension_names;
  for (const auto& name : enabled) extension_names.push_back(name.c_str());
  const char* layers[] = {kValidationLayer};

  setup.api_version = loader_version >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : loader_version;
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "attnviz";
  app.applicationVersion = VK_MAKE_API_VERSION(0, 0, 1, 0);
  app.pEngineName = "attnviz";
  app.apiVersion = setup.api_version;

  VkDebugUtilsMessengerCreateInfoEXT messenger = messenger_info(log);
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pNext = validation ? &messenger : nullptr;  // also reports on vkCreateInstance itself
  info.flags = flags;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = validation ? 1u : 0u;
  info.ppEnabledLayerNames = layers;
  info.enabledExtensionCount = static_cast<std::uint32_t>(extension_names.size());
  info.ppEnabledExtensionNames = extension_names.data();

  VkInstance instance = VK_NULL_HANDLE;
  const VkResult created = vkCreateInstance(&info, nullptr, &instance);
  if (created != VK_SUCCESS) {
    const std::string environment = driver_environment_summary();
    std::string problem = ", but vkCreateInstance failed with " + result_name(created);
    if (created == VK_ERROR_INCOMPATIBLE_DRIVER) problem += " (no Vulkan driver (ICD) was found";
    if (created == VK_ERROR_INCOMPATIBLE_DRIVER) problem += environment.empty() ? ")" : "; " + environment + ")";
    fail(tried, problem);
  }
  setup.instance = InstanceOwner(instance);

  if (validation) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    if (create == nullptr)
      throw BackendUnavailable("vkCreateDebugUtilsMessengerEXT is missing although validation is on");
    VkDebugUtilsMessengerEXT handle = VK_NULL_HANDLE;
    check(create(instance, &messenger, nullptr, &handle), "vkCreateDebugUtilsMessengerEXT");
    setup.messenger = MessengerOwner(instance, handle);
  }
  return setup;
}

}  // namespace attnviz::vk
