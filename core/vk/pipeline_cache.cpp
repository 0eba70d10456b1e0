#include "core/vk/pipeline_cache.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

#include "core/common/atomic_file.h"
#include "core/vk/check.h"

namespace attnviz::vk {
namespace {

constexpr char kMagic[16] = {'a', 't', 't', 'n', 'v', 'i', 'z', '-', 'p', 'i', 'p', 'e', 'l', 'i', 'n', 'e'};
constexpr std::uint32_t kHeaderVersion = 1;
constexpr std::size_t kHeaderBytes = 64;
constexpr std::uint64_t kMaxFileBytes = std::uint64_t{256} << 20;  // a cache is a few MB at most

std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

template <typename T>
void put(std::string& out, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i)
    out += static_cast<char>((static_cast<std::uint64_t>(value) >> (8 * i)) & 0xFFu);
}

template <typename T>
T get(std::string_view bytes, std::size_t at) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i)
    value |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  return static_cast<T>(value);
}

std::string header_for(const VkPhysicalDeviceProperties& device, std::string_view data) {
  std::string out(kMagic, sizeof kMagic);
  put(out, kHeaderVersion);
  put(out, device.vendorID);
  put(out, device.deviceID);
  put(out, device.driverVersion);
  out.append(reinterpret_cast<const char*>(device.pipelineCacheUUID), VK_UUID_SIZE);
  put(out, static_cast<std::uint64_t>(data.size()));
  put(out, fnv1a(data));
  return out;
}

std::string hex(std::uint32_t value) {
  std::ostringstream text;
  text << std::hex << value;
  return text.str();
}

std::optional<std::string> read_file(const std::filesystem::path& file, std::string& problem) {
  std::error_code error;
  if (!std::filesystem::exists(file, error)) return std::nullopt;
  if (!std::filesystem::is_regular_file(file, error)) {
    problem = "not a regular file";
    return std::nullopt;
  }
  const auto size = std::filesystem::file_size(file, error);
  if (error || size > kMaxFileBytes) {
    problem = error ? "cannot read its size: " + error.message()
                    : "larger than any pipeline cache (" + std::to_string(size) + " bytes)";
    return std::nullopt;
  }
  std::ifstream in(file, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) {
    problem = "cannot be read";
    return std::nullopt;
  }
  return bytes;
}

}  // namespace

std::optional<std::filesystem::path> default_pipeline_cache_folder() {
  // XDG: a relative $XDG_CACHE_HOME is invalid and ignored.
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/')
    return std::filesystem::path(xdg) / "attnviz";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".cache" / "attnviz";
  }
  return std::nullopt;
}

std::string pipeline_cache_file_name(const VkPhysicalDeviceProperties& device) {
  return "pipelines-" + hex(device.vendorID) + "-" + hex(device.deviceID) + ".bin";
}

std::optional<std::string> pipeline_cache_file_problem(std::string_view bytes,
                                                       const VkPhysicalDeviceProperties& device) {
  if (bytes.size() < kHeaderBytes || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    return std::string("damaged: not an attnviz pipeline cache");
  }
  if (get<std::uint32_t>(bytes, 16) != kHeaderVersion) return std::string("written by another version of attnviz");
  const std::string_view data = bytes.substr(kHeaderBytes);
  if (get<std::uint64_t>(bytes, 48) != data.size() || get<std::uint64_t>(bytes, 56) != fnv1a(data)) {
    return std::string("damaged: its data does not match its size or checksum");
  }
  if (bytes.substr(0, kHeaderBytes) != header_for(device, data)) return std::string("made by another device or driver");
  return std::nullopt;
}

PipelineCache::PipelineCache(VkDevice device, const VkPhysicalDeviceProperties& properties,
                             std::optional<std::filesystem::path> file)
    : device_(device), properties_(properties), file_(std::move(file)) {
  std::string initial;
  if (file_) {
    std::string problem;
    const std::optional<std::string> bytes = read_file(*file_, problem);
    if (bytes) {
      if (const auto why = pipeline_cache_file_problem(*bytes, properties_))
        problem = *why;
      else
        initial = bytes->substr(kHeaderBytes);
    }
    if (!problem.empty()) message_ = "pipeline cache " + file_->string() + " ignored (" + problem + "); it is rebuilt";
  }
  VkPipelineCacheCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
  info.initialDataSize = initial.size();
  info.pInitialData = initial.empty() ? nullptr : initial.data();
  VkPipelineCache cache = VK_NULL_HANDLE;
  VkResult result = vkCreatePipelineCache(device_, &info, nullptr, &cache);
  if (result != VK_SUCCESS && !initial.empty()) {
    // The driver refused data it gave out itself: start empty rather than not at all.
    message_ = "pipeline cache " + file_->string() + " ignored (the driver refused it: " + result_name(result) +
               "); it is rebuilt";
    initial.clear();
    info.initialDataSize = 0;
    info.pInitialData = nullptr;
    result = vkCreatePipelineCache(device_, &info, nullptr, &cache);
  }
  check(result, "vkCreatePipelineCache");
  cache_ = PipelineCacheHandle(device_, cache);
  reused_ = !initial.empty();
  saved_data_ = std::move(initial);
}

std::string PipelineCache::save() {
  if (!file_) return "";
  std::size_t size = 0;
  VkResult result = vkGetPipelineCacheData(device_, cache_.get(), &size, nullptr);
  if (result != VK_SUCCESS) return std::string("vkGetPipelineCacheData: ") + result_name(result);
  // A driver's cache only gains entries: the same size means no pipeline was built since the
  // last save, and the data need not be copied out (the model worker asks after every pass).
  if (!saved_data_.empty() && size == saved_data_.size()) return "";
  std::string data(size, '\0');
  result = vkGetPipelineCacheData(device_, cache_.get(), &size, data.data());
  if (result != VK_SUCCESS && result != VK_INCOMPLETE)
    return std::string("vkGetPipelineCacheData: ") + result_name(result);
  data.resize(size);
  if (data == saved_data_) return "";
  try {
    std::error_code error;
    std::filesystem::create_directories(file_->parent_path(), error);
    write_file_atomically(*file_, header_for(properties_, data) + data);
  } catch (const FileWriteError& error) {
    return error.what();
  }
  saved_data_ = std::move(data);
  return "";
}

}  // namespace attnviz::vk
