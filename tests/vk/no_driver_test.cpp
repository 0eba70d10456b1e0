// Without any Vulkan driver the backend must refuse cleanly (BackendUnavailable, exit code 3)
// with a message that says what was tried and how to install a driver. main() points the
// loader at a driver manifest that does not exist before anything touches Vulkan.

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "core/common/error.h"
#include "core/gpu/vulkan_attention.h"
#include "core/vk/context.h"

namespace attnviz::vk {
namespace {

void expect_helpful(const std::string& message) {
  EXPECT_NE(message.find("loader was found"), std::string::npos) << message;
  EXPECT_NE(message.find("VK_ERROR_INCOMPATIBLE_DRIVER"), std::string::npos) << message;
  EXPECT_NE(message.find("VK_DRIVER_FILES=/nonexistent.json"), std::string::npos) << message;
  EXPECT_NE(message.find("sudo apt-get install mesa-vulkan-drivers"), std::string::npos) << message;
  // The core does not know whether its caller could do without Vulkan: the command line adds
  // "--backend cpu" (tests/cli), the window must not (it draws with Vulkan).
  EXPECT_EQ(message.find("--backend cpu"), std::string::npos) << message;
}

TEST(NoDriver, ContextCreationIsBackendUnavailable) {
  try {
    (void)Context::create({});
    FAIL() << "expected BackendUnavailable";
  } catch (const BackendUnavailable& e) {
    expect_helpful(e.what());
  }
}

TEST(NoDriver, ValidatedContextCreationIsBackendUnavailableToo) {
  ContextOptions options;
  options.validation = true;
  EXPECT_THROW((void)Context::create(options), BackendUnavailable);
}

TEST(NoDriver, MakingTheBackendIsBackendUnavailable) {
  try {
    (void)make_vulkan_backend();
    FAIL() << "expected BackendUnavailable";
  } catch (const BackendUnavailable& e) {
    expect_helpful(e.what());
  }
}

TEST(NoDriver, ListingDevicesIsBackendUnavailable) {
  try {
    (void)list_devices();
    FAIL() << "expected BackendUnavailable";
  } catch (const BackendUnavailable& e) {
    expect_helpful(e.what());
  }
}

}  // namespace
}  // namespace attnviz::vk

int main(int argc, char** argv) {
  setenv("VK_DRIVER_FILES", "/nonexistent.json", 1);
  setenv("VK_ICD_FILENAMES", "/nonexistent.json", 1);
  unsetenv("VK_ADD_DRIVER_FILES");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
