#include "core/vk/devices.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "core/common/error.h"
#include "core/vk/check.h"
#include "core/vk/instance.h"
#include "core/vk/requirements.h"

namespace attnviz::vk {
namespace {

int preference_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
  }
}

std::string device_list_text(const std::vector<DeviceInfo>& devices) {
  std::string text = std::to_string(devices.size()) + (devices.size() == 1 ? " device found" : " devices found");
  for (std::size_t i = 0; i < devices.size(); ++i) text += (i == 0 ? ": " : "; ") + devices[i].summary();
  return text;
}

}  // namespace

std::string DeviceInfo::type_name() const {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
  }
}

std::string DeviceInfo::api_version_text() const { return version_text(api_version); }

std::string DeviceInfo::summary() const {
  std::string text = std::to_string(index) + " " + name + " (" + type_name() + ", Vulkan " + api_version_text() + ")";
  if (!usable) text += " [unusable: " + unusable_reason + "]";
  return text;
}

DeviceInfo describe_device(VkPhysicalDevice device, int index, VkSurfaceKHR surface) {
  DeviceInfo info;
  info.index = index;

  VkPhysicalDeviceDriverProperties driver{};
  driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
  VkPhysicalDeviceSubgroupProperties subgroup{};
  subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  VkPhysicalDeviceProperties basic{};
  vkGetPhysicalDeviceProperties(device, &basic);
  info.name = basic.deviceName;
  info.type = basic.deviceType;
  info.api_version = basic.apiVersion;
  if (basic.apiVersion < VK_API_VERSION_1_1) {
    info.unusable_reason = "supports only Vulkan " + info.api_version_text() + "; attnviz needs 1.1";
    return info;
  }

  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &subgroup;
  if (basic.apiVersion >= VK_API_VERSION_1_2) subgroup.pNext = &driver;
  vkGetPhysicalDeviceProperties2(device, &properties);
  if (basic.apiVersion >= VK_API_VERSION_1_2) {
    info.driver = std::string(driver.driverName) + " (" + driver.driverInfo + ")";
  }

  std::uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &family_count, families.data());
  const VkQueueFlags needed =
      surface != VK_NULL_HANDLE ? VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT : VK_QUEUE_COMPUTE_BIT;
  std::string surface_failure;  // why presenting could not even be asked about
  for (std::uint32_t f = 0; f < family_count; ++f) {
    if ((families[f].queueFlags & needed) != needed || families[f].queueCount == 0) continue;
    if (surface != VK_NULL_HANDLE) {
      VkBool32 present = VK_FALSE;
      const VkResult asked = vkGetPhysicalDeviceSurfaceSupportKHR(device, f, surface, &present);
      if (asked < VK_SUCCESS) {
        surface_failure = "vkGetPhysicalDeviceSurfaceSupportKHR failed: " + result_name(asked);
        continue;
      }
      if (present == VK_FALSE) continue;
    }
    // Prefer a family that writes timestamps (per-stage GPU times).
    if (!info.queue_family ||
        (families[*info.queue_family].timestampValidBits == 0 && families[f].timestampValidBits > 0)) {
      info.queue_family = f;
    }
  }
  if (!info.queue_family) {
    if (!surface_failure.empty()) {
      info.unusable_reason = surface_failure;
      return info;
    }
    info.unusable_reason = surface != VK_NULL_HANDLE
                               ? "no queue family does graphics, compute and present to the window"
                               : "no queue family does compute";
    return info;
  }
  if ((subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) == 0 ||
      (subgroup.supportedOperations & kRequiredSubgroupOperations) != kRequiredSubgroupOperations) {
    info.unusable_reason = "its compute shaders lack the subgroup operations attnviz uses (" +
                           std::string(kRequiredSubgroupOperationsText) + ")";
    return info;
  }
  info.usable = true;
  return info;
}

DeviceChoice choose_device(const std::vector<DeviceInfo>& devices, std::optional<int> requested,
                           const std::string& origin, const std::string& option) {
  if (requested) {
    const int index = *requested;
    if (index < 0) throw InputError(origin, option, std::to_string(index) + " is not a device index (0 or more)");
    // A well-formed index this machine lacks is "unavailable here" (exit 3), not bad input:
    // the same command line works where that device exists.
    if (static_cast<std::size_t>(index) >= devices.size()) {
      throw BackendUnavailable("Vulkan device " + std::to_string(index) + " (chosen with " + option +
                               ") does not exist; " + device_list_text(devices) + ". Pick one of them, or " +
                               (option == "ATTNVIZ_DEVICE" ? "unset ATTNVIZ_DEVICE" : "leave " + option + " out") +
                               " to let attnviz choose.");
    }
    const DeviceInfo& device = devices[static_cast<std::size_t>(index)];
    if (!device.usable) {
      throw BackendUnavailable("Vulkan device " + std::to_string(index) + " (" + device.name +
                               ") cannot run attnviz: " + device.unusable_reason + "; " + device_list_text(devices));
    }
    return {index, "chosen with " + option + " " + std::to_string(index)};
  }
  const DeviceInfo* best = nullptr;
  int usable_count = 0;
  for (const auto& device : devices) {
    if (!device.usable) continue;
    ++usable_count;
    if (best == nullptr || preference_rank(device.type) < preference_rank(best->type)) best = &device;
  }
  if (best == nullptr) {
    throw BackendUnavailable("Vulkan is unavailable: a driver is installed but no device can run attnviz; " +
                             device_list_text(devices) + ". " + driver_install_advice());
  }
  if (usable_count == 1) return {best->index, "the only usable device"};
  return {best->index,
          "the first " + best->type_name() + " (preference: discrete GPU, integrated GPU, virtual GPU, CPU)"};
}

std::optional<int> device_index_from_environment() {
  const char* value = std::getenv("ATTNVIZ_DEVICE");
  if (value == nullptr || value[0] == '\0') return std::nullopt;
  const std::string_view text(value);
  int index = 0;
  for (char c : text) {
    if (c < '0' || c > '9' || index > 100000) {
      throw InputError(
          "<environment>", "ATTNVIZ_DEVICE",
          "\"" + std::string(text) + "\" is not a device index (a number such as 0; see `attnviz devices`)");
    }
    index = index * 10 + (c - '0');
  }
  return index;
}

std::vector<DeviceInfo> enumerate_devices(VkInstance instance, VkSurfaceKHR surface, const std::string& tried) {
  std::uint32_t count = 0;
  const VkResult counted = vkEnumeratePhysicalDevices(instance, &count, nullptr);
  if (counted < VK_SUCCESS || count == 0) {
    throw BackendUnavailable(
        "Vulkan is unavailable: " + tried + ", but it lists no devices" +
        (counted < VK_SUCCESS ? " (vkEnumeratePhysicalDevices failed: " + result_name(counted) + ")" : "") + ". " +
        driver_install_advice());
  }
  std::vector<VkPhysicalDevice> handles(count);
  check(vkEnumeratePhysicalDevices(instance, &count, handles.data()), "vkEnumeratePhysicalDevices");
  handles.resize(count);
  std::vector<DeviceInfo> devices;
  for (std::uint32_t i = 0; i < count; ++i)
    devices.push_back(describe_device(handles[i], static_cast<int>(i), surface));
  return devices;
}

std::vector<DeviceInfo> list_devices() {
  MessageLog unused;
  InstanceSetup setup = create_instance({}, false, &unused);
  return enumerate_devices(setup.instance.get(), VK_NULL_HANDLE,
                           "the loader (" + setup.loader_version + ") created an instance");
}

std::string missing_device_extensions(VkPhysicalDevice device, const std::vector<std::string>& wanted) {
  std::uint32_t count = 0;
  check(vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr), "vkEnumerateDeviceExtensionProperties");
  std::vector<VkExtensionProperties> available(count);
  check(vkEnumerateDeviceExtensionProperties(device, nullptr, &count, available.data()),
        "vkEnumerateDeviceExtensionProperties");
  available.resize(count);
  std::string missing;
  for (const auto& name : wanted) {
    const bool found = std::any_of(available.begin(), available.end(),
                                   [&](const VkExtensionProperties& e) { return name == e.extensionName; });
    if (!found) missing += (missing.empty() ? "" : ", ") + name;
  }
  return missing;
}

}  // namespace attnviz::vk
