// The Vulkan context on lavapipe (or whatever device the machine has): creation with the
// validation layer, device listing and choice, buffers.

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/common/error.h"
#include "core/vk/buffer.h"
#include "core/vk/check.h"
#include "core/vk/context.h"
#include "tests/vk/vk_test_support.h"

namespace attnviz::vk {
namespace {

DeviceInfo fake_device(int index, VkPhysicalDeviceType type, bool usable, const char* name) {
  DeviceInfo d;
  d.index = index;
  d.type = type;
  d.usable = usable;
  d.name = name;
  d.api_version = VK_API_VERSION_1_3;
  if (!usable) d.unusable_reason = "no queue family does compute";
  return d;
}

TEST(DeviceChoice, PrefersDiscreteThenIntegratedThenVirtualThenCpu) {
  const std::vector<DeviceInfo> devices = {
      fake_device(0, VK_PHYSICAL_DEVICE_TYPE_CPU, true, "llvmpipe"),
      fake_device(1, VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU, true, "iGPU"),
      fake_device(2, VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, false, "broken dGPU"),
      fake_device(3, VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, true, "dGPU"),
      fake_device(4, VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU, true, "vGPU"),
  };
  EXPECT_EQ(choose_device(devices, std::nullopt).index, 3);
  EXPECT_EQ(choose_device({devices[0], devices[1], devices[4]}, std::nullopt).index, 1);
  EXPECT_EQ(choose_device({devices[0], devices[4]}, std::nullopt).index, 4);
  const DeviceChoice only = choose_device({devices[0]}, std::nullopt);
  EXPECT_EQ(only.index, 0);
  EXPECT_EQ(only.reason, "the only usable device");
}

TEST(DeviceChoice, ExplicitIndexWinsAndBadIndexIsAnInputError) {
  const std::vector<DeviceInfo> devices = {fake_device(0, VK_PHYSICAL_DEVICE_TYPE_CPU, true, "llvmpipe")};
  EXPECT_EQ(choose_device(devices, 0).reason, "chosen with --device 0");
  // An index this machine lacks: the backend is unavailable here (exit 3), naming the devices.
  try {
    (void)choose_device(devices, 7, "<environment>", "ATTNVIZ_DEVICE");
    FAIL() << "expected BackendUnavailable";
  } catch (const BackendUnavailable& e) {
    EXPECT_NE(
        std::string(e.what()).find("device 7 (chosen with ATTNVIZ_DEVICE) does not exist; 1 device found: 0 llvmpipe"),
        std::string::npos)
        << e.what();
  }
  try {
    (void)choose_device(devices, -1);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.origin(), "<command line>");
    EXPECT_EQ(e.pointer(), "--device");
  }
}

TEST(DeviceChoice, NoUsableDeviceIsBackendUnavailableSayingWhy) {
  const std::vector<DeviceInfo> devices = {fake_device(0, VK_PHYSICAL_DEVICE_TYPE_CPU, false, "old")};
  try {
    (void)choose_device(devices, std::nullopt);
    FAIL() << "expected BackendUnavailable";
  } catch (const BackendUnavailable& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("no queue family does compute"), std::string::npos) << message;
    EXPECT_NE(message.find("mesa-vulkan-drivers"), std::string::npos) << message;
  }
  EXPECT_THROW((void)choose_device(devices, 0), BackendUnavailable);
}

TEST(VulkanErrors, NameTheCallAndTheResult) {
  try {
    check(VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkAllocateMemory");
    FAIL();
  } catch (const VulkanError& e) {
    EXPECT_STREQ(e.what(), "vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY");
    EXPECT_EQ(e.result(), VK_ERROR_OUT_OF_DEVICE_MEMORY);
  }
  EXPECT_NO_THROW(check(VK_INCOMPLETE, "vkEnumeratePhysicalDevices"));
  EXPECT_EQ(result_name(static_cast<VkResult>(-12345)), "VkResult(-12345)");
}

TEST(Context, CreatesAValidatedComputeDevice) {
  const auto context = testing::validated_context();
  EXPECT_NE(context->device(), VK_NULL_HANDLE);
  EXPECT_NE(context->queue(), VK_NULL_HANDLE);
  EXPECT_FALSE(context->device_name().empty());
  EXPECT_EQ(context->surface(), VK_NULL_HANDLE);
  const DeviceLimits& limits = context->limits();
  EXPECT_GE(limits.max_storage_buffer_range, 1u << 16);
  EXPECT_GE(limits.max_workgroup_invocations, 128u);
  EXPECT_GE(limits.max_shared_memory, 16384u);
  EXPECT_GE(context->subgroup_size(), 1u);
  EXPECT_FALSE(context->choice().reason.empty());
  testing::expect_no_validation_messages(*context);
}

TEST(Context, LimitOverridesOnlyLower) {
  ContextOptions options;
  options.max_storage_buffer_range = 4096;
  options.max_workgroup_count = 3;
  options.max_shared_memory = 1u << 30;  // higher than any device: ignored
  const auto context = testing::validated_context(options);
  EXPECT_EQ(context->limits().max_storage_buffer_range, 4096u);
  EXPECT_EQ(context->limits().max_workgroup_count[0], 3u);
  EXPECT_LT(context->limits().max_shared_memory, 1u << 30);
  testing::expect_no_validation_messages(*context);
}

TEST(Context, AMissingDeviceIndexNamesTheDevicesFound) {
  ContextOptions options;
  options.device_index = 99;
  try {
    (void)Context::create(options);
    FAIL() << "expected BackendUnavailable";
  } catch (const BackendUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("device 99 (chosen with --device) does not exist"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("0 llvmpipe"), std::string::npos) << e.what();
  }
}

TEST(Context, ListsTheDevicesItChoseFrom) {
  const std::vector<DeviceInfo> devices = list_devices();
  ASSERT_FALSE(devices.empty());
  const auto context = testing::validated_context();
  const DeviceInfo& chosen = devices[static_cast<std::size_t>(context->choice().index)];
  EXPECT_EQ(chosen.name, context->device_name());
  EXPECT_TRUE(chosen.usable);
  EXPECT_NE(chosen.summary().find(chosen.name), std::string::npos);
}

TEST(Context, BorrowingAQueueFamilyWithoutComputeIsRefused) {
  const auto owner = testing::validated_context();
  std::uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(owner->physical_device(), &family_count, nullptr);
  try {
    (void)Context::borrow(owner->instance(), owner->physical_device(), owner->device(), family_count, owner->queue());
    FAIL() << "expected BackendUnavailable";
  } catch (const BackendUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("queue family " + std::to_string(family_count)), std::string::npos)
        << e.what();
  }
  testing::expect_no_validation_messages(*owner);
}

TEST(Context, ValidationMessagesAreCollectedAndCleared) {
  const auto context = testing::validated_context();
  // A deliberate misuse: a buffer of size 0 is invalid (VUID-VkBufferCreateInfo-size-00912).
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = 0;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  (void)vkCreateBuffer(context->device(), &info, nullptr, &buffer);
  if (buffer != VK_NULL_HANDLE) vkDestroyBuffer(context->device(), buffer, nullptr);
  const auto messages = context->validation_messages();
  ASSERT_FALSE(messages.empty());
  EXPECT_NE(messages.front().find("VkBufferCreateInfo"), std::string::npos) << messages.front();
  context->clear_validation_messages();
  EXPECT_TRUE(context->validation_messages().empty());
}

TEST(Buffer, HostVisibleMemoryRoundTrips) {
  const auto context = testing::validated_context();
  Buffer staging(*context, 64, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind::HostUpload);
  ASSERT_TRUE(staging.host_visible());
  const float values[4] = {1.5f, -2.0f, 3.25f, 0.0f};
  staging.write(16, values, sizeof(values));
  staging.flush();
  float back[4] = {};
  staging.invalidate();
  staging.read(16, back, sizeof(back));
  EXPECT_EQ(std::memcmp(values, back, sizeof(values)), 0);

  Buffer moved = std::move(staging);
  EXPECT_TRUE(moved.host_visible());
  EXPECT_FALSE(staging.host_visible());  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_EQ(moved.size(), 64u);
  testing::expect_no_validation_messages(*context);
}

}  // namespace
}  // namespace attnviz::vk
