#pragma once
// The Vulkan instance, device and queue attnviz computes with: created here (headless or for a
// window's surface) or borrowed from a window that already owns a device.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/vk/devices.h"
#include "core/vk/handle.h"
#include "core/vk/instance.h"
#include "core/vk/matrix_cores.h"
#include "core/vk/pipeline_cache.h"

namespace attnviz::vk {

struct ContextOptions {
  std::vector<std::string> instance_extensions;  // e.g. what glfwGetRequiredInstanceExtensions lists
  std::vector<std::string> device_extensions;    // e.g. VK_KHR_swapchain
  // VK_LAYER_KHRONOS_validation plus a debug messenger that collects every message; also
  // switched on by the environment variable ATTNVIZ_VALIDATION=1, which prints each message
  // to stderr as well ("attnviz: Vulkan validation: ...").
  bool validation = false;
  std::optional<int> device_index;  // --device N; ATTNVIZ_DEVICE is read when unset
  // Called once the instance exists; the chosen queue family must then do graphics, compute
  // and present to this surface. The Context owns (and destroys) the returned surface.
  std::function<VkSurfaceKHR(VkInstance)> create_surface;
  // Pipelines are built through one VkPipelineCache per context; with a folder, its file for
  // this device is loaded from there (when valid: pipeline_cache.h) and save_pipeline_cache()
  // writes it (default_pipeline_cache_folder(): $XDG_CACHE_HOME/attnviz).
  std::optional<std::filesystem::path> pipeline_cache_folder;
  // Enable VK_EXT_external_memory_host where the device has it, so buffers can be made over
  // host memory without a copy (Buffer::import_host; the window's heatmaps of Eigen results).
  bool import_host_memory = false;
  // Enable fp16 arithmetic and cooperative matrices (core/vk/matrix_cores.h) where the device
  // offers them, for the tiled kernel's fp16 variant.
  bool matrix_cores = true;

  // Lower the device's limits (never raise them), so tests can exercise the splitting of
  // large problems into several dispatches at small sizes. The attention kernels bind texel
  // buffers; every range they bind also stays within max_storage_buffer_range.
  std::optional<VkDeviceSize> max_storage_buffer_range;
  std::optional<std::uint32_t> max_texel_buffer_elements;
  std::optional<std::uint32_t> max_workgroup_count;
  std::optional<std::uint32_t> max_shared_memory;
};

// The limits the compute code plans with (the device's, lowered by the overrides).
struct DeviceLimits {
  VkDeviceSize max_storage_buffer_range = 0;
  VkDeviceSize min_storage_buffer_offset_alignment = 1;
  std::uint32_t max_texel_buffer_elements = 0;
  VkDeviceSize min_texel_buffer_offset_alignment = 1;
  VkDeviceSize non_coherent_atom_size = 1;
  std::uint32_t max_workgroup_count[3] = {0, 0, 0};
  std::uint32_t max_workgroup_size[3] = {0, 0, 0};
  std::uint32_t max_workgroup_invocations = 0;
  std::uint32_t max_shared_memory = 0;
  std::uint32_t max_push_constants = 0;
  std::uint32_t subgroup_size = 1;
  bool timestamps = false;  // the queue family writes timestamps
  double timestamp_period_ns = 1.0;
  std::uint32_t timestamp_valid_bits = 0;
};

class Context;

// Saves a context's pipeline cache when it grew and says a failure once on stderr
// ("attnviz: the WHOSE pipeline cache could not be saved: …"): a cache that cannot be saved
// costs a compile in a later run, nothing more, so it is worth one line, not one per save.
class PipelineCacheSaver {
 public:
  explicit PipelineCacheSaver(std::string whose) : whose_(std::move(whose)) {}
  void save(const Context& context);

 private:
  std::string whose_;
  bool problem_said_ = false;
};

class Context {
 public:
  // Throws BackendUnavailable (no loader, no driver, no usable device, a --device index this
  // machine lacks: the message says what was tried and how to install a driver) or
  // InputError (a malformed ATTNVIZ_DEVICE).
  static std::shared_ptr<Context> create(const ContextOptions& options = {});

  // Wraps objects a window already owns; they are not destroyed by the Context. The caller
  // keeps them alive for as long as anything made from this Context.
  static std::shared_ptr<Context> borrow(VkInstance instance, VkPhysicalDevice physical_device, VkDevice device,
                                         std::uint32_t queue_family, VkQueue queue);

  ~Context() = default;
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  Context(Context&&) noexcept = default;
  Context& operator=(Context&&) noexcept = default;

  [[nodiscard]] VkInstance instance() const { return instance_; }
  [[nodiscard]] VkPhysicalDevice physical_device() const { return physical_device_; }
  [[nodiscard]] VkDevice device() const { return device_; }
  [[nodiscard]] VkQueue queue() const { return queue_; }
  [[nodiscard]] std::uint32_t queue_family() const { return queue_family_; }
  [[nodiscard]] VkSurfaceKHR surface() const { return surface_; }  // VK_NULL_HANDLE when headless
  [[nodiscard]] bool owns_device() const { return owned_device_.get() != VK_NULL_HANDLE; }

  [[nodiscard]] const std::string& device_name() const { return info_.name; }
  [[nodiscard]] VkPhysicalDeviceType device_type() const { return info_.type; }
  [[nodiscard]] const DeviceInfo& device_info() const { return info_; }
  [[nodiscard]] const DeviceChoice& choice() const { return choice_; }  // index and why
  [[nodiscard]] const DeviceLimits& limits() const { return limits_; }
  [[nodiscard]] std::uint32_t subgroup_size() const { return limits_.subgroup_size; }
  [[nodiscard]] const VkPhysicalDeviceMemoryProperties& memory_properties() const { return memory_; }
  [[nodiscard]] const VkPhysicalDeviceProperties& properties() const { return properties_; }
  // The alignment of host memory Buffer::import_host takes; 0 when the device cannot import.
  [[nodiscard]] VkDeviceSize host_import_alignment() const { return host_import_alignment_; }
  // Whether fp16 cooperative matrices were enabled on this device, and why not.
  [[nodiscard]] const MatrixCoreSupport& matrix_cores() const { return matrix_cores_; }

  // The cache every pipeline of this context is built through (VK_NULL_HANDLE for a borrowed
  // device), and what became of its file. Pipeline creation may run on several threads: the
  // driver synchronises the cache.
  [[nodiscard]] VkPipelineCache pipeline_cache() const {
    return pipeline_cache_ ? pipeline_cache_->get() : VK_NULL_HANDLE;
  }
  [[nodiscard]] const PipelineCache* pipeline_cache_store() const { return pipeline_cache_.get(); }
  // Writes the cache to its file when it grew; "" or why it could not.
  std::string save_pipeline_cache() const { return pipeline_cache_ ? pipeline_cache_->save() : std::string(); }

  // Everything the validation layer reported (warnings and errors), in order. Thread-safe.
  [[nodiscard]] std::vector<std::string> validation_messages() const;
  void clear_validation_messages();
  [[nodiscard]] bool validation_enabled() const { return messenger_.get() != VK_NULL_HANDLE; }

 private:
  Context() = default;
  void read_device_properties(const ContextOptions& options);
  void create_device(const ContextOptions& options);

  // Destroyed bottom-up: the device before the surface, the messenger, the instance.
  std::unique_ptr<MessageLog> log_ = std::make_unique<MessageLog>();
  InstanceOwner owned_instance_;
  MessengerOwner messenger_;
  SurfaceOwner owned_surface_;
  DeviceOwner owned_device_;
  std::unique_ptr<PipelineCache> pipeline_cache_;  // destroyed before the device

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::uint32_t queue_family_ = 0;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;

  DeviceInfo info_;
  DeviceChoice choice_;
  DeviceLimits limits_;
  VkPhysicalDeviceMemoryProperties memory_{};
  VkPhysicalDeviceProperties properties_{};
  VkDeviceSize host_import_alignment_ = 0;
  MatrixCoreSupport matrix_cores_;
};

}  // namespace attnviz::vk
