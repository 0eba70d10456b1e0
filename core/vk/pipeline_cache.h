#pragma once
// A VkPipelineCache kept on disk between runs, so that pipelines built once (every shape's, on
// every start) are not compiled again: $XDG_CACHE_HOME/attnviz/pipelines-VENDOR-DEVICE.bin
// (~/.cache/attnviz/… without XDG_CACHE_HOME), one file per device.
//
// The file is attnviz's header (below) and the driver's cache data. It is used only when the
// header matches this device and driver (vendor, device, driver version, the driver's
// pipelineCacheUUID) and the data is whole (its size and checksum); otherwise it is ignored,
// with a message saying why, and replaced at the next save(). A damaged file never reaches the
// driver. Saving writes a temporary file and renames it (core/common/atomic_file.h), so two
// windows saving at once leave one whole file.
//
//   offset  size  field
//        0    16  magic "attnviz-pipeline" (no terminator)
//       16     4  header version (1), little-endian
//       20     4  vendorID
//       24     4  deviceID
//       28     4  driverVersion
//       32    16  pipelineCacheUUID
//       48     8  data size in bytes
//       56     8  FNV-1a 64 of the data
//       64     …  vkGetPipelineCacheData's bytes

#include <vulkan/vulkan.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/vk/handle.h"

namespace attnviz::vk {

using PipelineCacheHandle = DeviceHandle<VkPipelineCache, vkDestroyPipelineCache>;

// $XDG_CACHE_HOME/attnviz, else $HOME/.cache/attnviz; nullopt when neither is set.
std::optional<std::filesystem::path> default_pipeline_cache_folder();
// The device's file name in that folder: "pipelines-VENDOR-DEVICE.bin" (hexadecimal IDs).
std::string pipeline_cache_file_name(const VkPhysicalDeviceProperties& device);

// Whether `bytes` (a whole cache file) may be given to this device's driver; nullopt when it
// may, else why not ("damaged: …", "made by another device or driver").
std::optional<std::string> pipeline_cache_file_problem(std::string_view bytes,
                                                       const VkPhysicalDeviceProperties& device);

class PipelineCache {
 public:
  // An empty cache, or the one saved in `file` when it is valid for this device. Never throws
  // for the file's sake: a missing, unreadable or invalid file gives an empty cache.
  PipelineCache(VkDevice device, const VkPhysicalDeviceProperties& properties,
                std::optional<std::filesystem::path> file);

  [[nodiscard]] VkPipelineCache get() const { return cache_.get(); }
  [[nodiscard]] const std::optional<std::filesystem::path>& file() const { return file_; }
  // True when the file's pipelines were given to the driver.
  [[nodiscard]] bool reused() const { return reused_; }
  // Why the file was not used ("" when it was, or there was none yet).
  [[nodiscard]] const std::string& message() const { return message_; }

  // Writes the cache to its file when the driver's data changed since it was loaded or last
  // saved. Returns "" or why it could not be written (the cache stays usable either way).
  std::string save();

 private:
  VkDevice device_;
  VkPhysicalDeviceProperties properties_;
  std::optional<std::filesystem::path> file_;
  PipelineCacheHandle cache_;
  std::string saved_data_;  // the driver's data as the file holds it
  bool reused_ = false;
  std::string message_;
};

}  // namespace attnviz::vk
