#pragma once
// Creating the VkInstance: the loader's version, the requested extensions, the validation layer
// with a messenger that collects what it reports. Failures become BackendUnavailable with a
// message that says what was tried and how to get a driver.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/vk/handle.h"

namespace attnviz::vk {

// Messages of the validation layer, collected by the debug-utils messenger. Thread-safe; lives
// on the heap so the messenger's user pointer stays valid while its Context moves.
class MessageLog {
 public:
  void add(std::string message);
  [[nodiscard]] std::vector<std::string> messages() const;
  void clear();
  // Also print each message to stderr as it arrives (ATTNVIZ_VALIDATION=1 on the command line).
  void echo_to_stderr(bool echo);

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> messages_;
  bool echo_ = false;
};

class MessengerOwner {
 public:
  MessengerOwner() = default;
  MessengerOwner(VkInstance instance, VkDebugUtilsMessengerEXT messenger)
      : instance_(instance), messenger_(messenger) {}
  ~MessengerOwner() { reset(); }
  MessengerOwner(const MessengerOwner&) = delete;
  MessengerOwner& operator=(const MessengerOwner&) = delete;
  MessengerOwner(MessengerOwner&& other) noexcept
      : instance_(std::exchange(other.instance_, VK_NULL_HANDLE)),
        messenger_(std::exchange(other.messenger_, VK_NULL_HANDLE)) {}
  MessengerOwner& operator=(MessengerOwner&& other) noexcept;
  [[nodiscard]] VkDebugUtilsMessengerEXT get() const { return messenger_; }
  void reset();

 private:
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
};

class SurfaceOwner {
 public:
  SurfaceOwner() = default;
  SurfaceOwner(VkInstance instance, VkSurfaceKHR surface) : instance_(instance), surface_(surface) {}
  ~SurfaceOwner() { reset(); }
  SurfaceOwner(const SurfaceOwner&) = delete;
  SurfaceOwner& operator=(const SurfaceOwner&) = delete;
  SurfaceOwner(SurfaceOwner&& other) noexcept
      : instance_(std::exchange(other.instance_, VK_NULL_HANDLE)),
        surface_(std::exchange(other.surface_, VK_NULL_HANDLE)) {}
  SurfaceOwner& operator=(SurfaceOwner&& other) noexcept;
  [[nodiscard]] VkSurfaceKHR get() const { return surface_; }
  void reset();

 private:
  VkInstance instance_ = VK_NULL_HANDLE;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
};

struct InstanceSetup {
  InstanceOwner instance;
  MessengerOwner messenger;       // empty without validation
  std::uint32_t api_version = 0;  // what the instance was created with
  std::string loader_version;     // e.g. "1.3.239"
};

// `log` receives validation messages when `validation` is set (it must outlive the instance).
InstanceSetup create_instance(const std::vector<std::string>& extensions, bool validation, MessageLog* log);

// ATTNVIZ_VALIDATION=1 (or any value but "0" / empty).
bool validation_requested_by_environment();

// The advice appended to every "no Vulkan here" message.
std::string driver_install_advice();

// "VK_DRIVER_FILES=/x.json VK_ICD_FILENAMES=..." for the variables that are set, or "".
std::string driver_environment_summary();

std::string version_text(std::uint32_t version);  // "1.3.239"

}  // namespace attnviz::vk
