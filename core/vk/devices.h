#pragma once
// The Vulkan devices on this machine and which one attnviz computes on (`attnviz devices`).
// Order of preference: discrete GPU, integrated GPU, virtual GPU, CPU (lavapipe); --device N
// (or ATTNVIZ_DEVICE) overrides it.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnviz::vk {

struct DeviceInfo {
  int index = 0;  // position in vkEnumeratePhysicalDevices order, as --device takes it
  std::string name;
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  std::uint32_t api_version = 0;
  std::string driver;  // e.g. "llvmpipe (Mesa 22.3.6 (LLVM 15.0.6))"
  bool usable = false;
  std::string unusable_reason;                // empty when usable
  std::optional<std::uint32_t> queue_family;  // the family attnviz would use

  [[nodiscard]] std::string type_name() const;         // "discrete GPU", "CPU", ...
  [[nodiscard]] std::string api_version_text() const;  // "1.3.230"
  [[nodiscard]] std::string summary() const;           // "0 llvmpipe (LLVM 15.0.6, 256 bits) (CPU, Vulkan 1.3.230)"
};

struct DeviceChoice {
  int index = 0;
  std::string reason;  // e.g. "the only usable device" or "chosen with --device 1"
};

// Picks a device. `requested` is the --device value (or ATTNVIZ_DEVICE); `origin` and `option`
// name where it came from. A negative index is an InputError; an index past the devices
// found, or an unusable device, is BackendUnavailable naming every device found, e.g.
//   "Vulkan device 7 (chosen with --device) does not exist; 1 device found: 0 llvmpipe (...)".
// Throws BackendUnavailable when no device is usable.
DeviceChoice choose_device(const std::vector<DeviceInfo>& devices, std::optional<int> requested,
                           const std::string& origin = "<command line>", const std::string& option = "--device");

// Reads ATTNVIZ_DEVICE; throws InputError("<environment>", "ATTNVIZ_DEVICE", ...) when it is not an integer.
std::optional<int> device_index_from_environment();

// What the system offers, without creating a device. Throws BackendUnavailable (no loader
// or driver) with the same message Context::create would give.
std::vector<DeviceInfo> list_devices();

// Describes every physical device of `instance`; `tried` says what worked so far, for the
// BackendUnavailable message when there are none.
std::vector<DeviceInfo> enumerate_devices(VkInstance instance, VkSurfaceKHR surface, const std::string& tried);

// The extensions of `wanted` the device lacks, comma-separated; "" when it has them all.
std::string missing_device_extensions(VkPhysicalDevice device, const std::vector<std::string>& wanted);

// Fills a DeviceInfo for one physical device. `surface` (optional) must be presentable from
// the chosen queue family, which then also needs graphics.
DeviceInfo describe_device(VkPhysicalDevice device, int index, VkSurfaceKHR surface);

}  // namespace attnviz::vk
