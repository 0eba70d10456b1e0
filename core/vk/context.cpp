#include "core/vk/context.h"

#include <algorithm>
#include <cstring>
#include <iostream>

#include "core/common/error.h"
#include "core/vk/check.h"

namespace attnviz::vk {
namespace {

std::vector<VkPhysicalDevice> physical_devices(VkInstance instance) {
  std::uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> handles(count);
  check(vkEnumeratePhysicalDevices(instance, &count, handles.data()), "vkEnumeratePhysicalDevices");
  return handles;
}

template <typename T>
T lowered(T device_value, const std::optional<T>& override_value) {
  return override_value ? std::min(device_value, *override_value) : device_value;
}

}  // namespace

std::shared_ptr<Context> Context::create(const ContextOptions& options) {
  std::shared_ptr<Context> context(new Context());
  Context& c = *context;
  const bool validation = options.validation || validation_requested_by_environment();
  // Asked for from outside (a user, a script): nobody reads the log, so print it.
  c.log_->echo_to_stderr(validation_requested_by_environment());
  InstanceSetup setup = create_instance(options.instance_extensions, validation, c.log_.get());
  c.owned_instance_ = std::move(setup.instance);
  c.messenger_ = std::move(setup.messenger);
  c.instance_ = c.owned_instance_.get();

  if (options.create_surface) {
    c.owned_surface_ = SurfaceOwner(c.instance_, options.create_surface(c.instance_));
    c.surface_ = c.owned_surface_.get();
    if (c.surface_ == VK_NULL_HANDLE) throw BackendUnavailable("the window could not create a Vulkan surface");
  }

  std::vector<DeviceInfo> devices =
      enumerate_devices(c.instance_, c.surface_, "the loader (" + setup.loader_version + ") created an instance");
  const std::vector<VkPhysicalDevice> handles = physical_devices(c.instance_);
  for (auto& device : devices) {
    if (!device.usable) continue;
    const std::string missing =
        missing_device_extensions(handles[static_cast<std::size_t>(device.index)], options.device_extensions);
    if (!missing.empty()) {
      device.usable = false;
      device.unusable_reason = "lacks the device extensions " + missing;
    }
  }

  const bool from_environment = !options.device_index.has_value();
  const std::optional<int> requested = from_environment ? device_index_from_environment() : options.device_index;
  c.choice_ = choose_device(devices, requested, from_environment ? "<environment>" : "<command line>",
                            from_environment ? "ATTNVIZ_DEVICE" : "--device");
  c.info_ = devices[static_cast<std::size_t>(c.choice_.index)];
  c.physical_device_ = handles[static_cast<std::size_t>(c.choice_.index)];
  c.queue_family_ = *c.info_.queue_family;
  c.matrix_cores_ = options.matrix_cores
                        ? query_matrix_cores(c.instance_, setup.api_version, c.physical_device_)
                        : MatrixCoreSupport{false, false, "not asked for (ContextOptions::matrix_cores)"};
  c.create_device(options);
  c.read_device_properties(options);
  std::optional<std::filesystem::path> cache_file;
  if (options.pipeline_cache_folder)
    cache_file = *options.pipeline_cache_folder / pipeline_cache_file_name(c.properties_);
  c.pipeline_cache_ = std::make_unique<PipelineCache>(c.device_, c.properties_, std::move(cache_file));
  return context;
}

void Context::create_device(const ContextOptions& options) {
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{};
  queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_info.queueFamilyIndex = queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;

  std::vector<const char*> extensions;
  for (const auto& name : options.device_extensions) extensions.push_back(name.c_str());
  const bool import = options.import_host_memory &&
                      missing_device_extensions(physical_device_, {VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME}).empty();
  if (import) extensions.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  const MatrixCoreFeatures matrix_features(matrix_cores_);
  if (matrix_cores_.usable) extensions.push_back(MatrixCoreFeatures::kExtension);
  VkDeviceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  info.pNext = matrix_features.chain();
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VkDevice device = VK_NULL_HANDLE;
  check(vkCreateDevice(physical_device_, &info, nullptr, &device), "vkCreateDevice");
  owned_device_ = DeviceOwner(device);
  device_ = device;
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
  if (import) {
    VkPhysicalDeviceExternalMemoryHostPropertiesEXT host{};
    host.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties.pNext = &host;
    vkGetPhysicalDeviceProperties2(physical_device_, &properties);
    host_import_alignment_ = std::max<VkDeviceSize>(host.minImportedHostPointerAlignment, 1);
  }
}

std::shared_ptr<Context> Context::borrow(VkInstance instance, VkPhysicalDevice physical_device, VkDevice device,
                                         std::uint32_t queue_family, VkQueue queue) {
  std::shared_ptr<Context> context(new Context());
  Context& c = *context;
  c.instance_ = instance;
  c.physical_device_ = physical_device;
  c.device_ = device;
  c.queue_family_ = queue_family;
  c.queue_ = queue;
  c.info_ = describe_device(physical_device, 0, VK_NULL_HANDLE);
  if (!c.info_.usable) {
    throw BackendUnavailable("the window's Vulkan device (" + c.info_.name +
                             ") cannot run attnviz's compute shaders: " + c.info_.unusable_reason);
  }
  std::uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &family_count, families.data());
  if (queue_family >= family_count || (families[queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT) == 0) {
    throw BackendUnavailable("the window's queue family " + std::to_string(queue_family) +
                             " cannot run compute shaders");
  }
  c.info_.queue_family = queue_family;
  c.choice_ = {0, "borrowed from the window"};
  c.matrix_cores_ = {false, false, "the window's device was created without them"};
  c.read_device_properties({});
  return context;
}

void Context::read_device_properties(const ContextOptions& options) {
  VkPhysicalDeviceSubgroupProperties subgroup{};
  subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(physical_device_, &properties);
  properties_ = properties.properties;
  const VkPhysicalDeviceLimits& l = properties.properties.limits;

  limits_.max_storage_buffer_range = lowered<VkDeviceSize>(l.maxStorageBufferRange, options.max_storage_buffer_range);
  limits_.min_storage_buffer_offset_alignment = l.minStorageBufferOffsetAlignment;
  limits_.max_texel_buffer_elements = lowered(l.maxTexelBufferElements, options.max_texel_buffer_elements);
  limits_.min_texel_buffer_offset_alignment = l.minTexelBufferOffsetAlignment;
  limits_.non_coherent_atom_size = l.nonCoherentAtomSize;
  for (int axis = 0; axis < 3; ++axis) {
    limits_.max_workgroup_count[axis] = lowered(l.maxComputeWorkGroupCount[axis], options.max_workgroup_count);
    limits_.max_workgroup_size[axis] = l.maxComputeWorkGroupSize[axis];
  }
  limits_.max_workgroup_invocations = l.maxComputeWorkGroupInvocations;
  limits_.max_shared_memory = lowered(l.maxComputeSharedMemorySize, options.max_shared_memory);
  limits_.max_push_constants = l.maxPushConstantsSize;
  limits_.subgroup_size = std::max(1u, subgroup.subgroupSize);

  std::uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &family_count, families.data());
  limits_.timestamp_valid_bits = queue_family_ < family_count ? families[queue_family_].timestampValidBits : 0;
  limits_.timestamps = limits_.timestamp_valid_bits > 0 && l.timestampPeriod > 0.0f;
  limits_.timestamp_period_ns = static_cast<double>(l.timestampPeriod);
  vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory_);
}

std::vector<std::string> Context::validation_messages() const { return log_->messages(); }

void Context::clear_validation_messages() { log_->clear(); }

void PipelineCacheSaver::save(const Context& context) {
  const std::string problem = context.save_pipeline_cache();
  if (problem.empty() || problem_said_) return;
  std::cerr << "attnviz: the " << whose_ << " pipeline cache could not be saved: " << problem << "\n";
  problem_said_ = true;
}

}  // namespace attnviz::vk
