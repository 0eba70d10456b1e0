#pragma once
// Shared by the Vulkan tests: one validated Context per test binary, and a check that the
// validation layer reported nothing.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/vk/context.h"

namespace attnviz::testing {

inline std::shared_ptr<vk::Context> validated_context(const vk::ContextOptions& extra = {}) {
  vk::ContextOptions options = extra;
  options.validation = true;
  return vk::Context::create(options);
}

// Fails the current test for every message the validation layer collected.
inline void expect_no_validation_messages(const vk::Context& context) {
  ASSERT_TRUE(context.validation_enabled()) << "the tests need VK_LAYER_KHRONOS_validation";
  const auto messages = context.validation_messages();
  for (const std::string& message : messages) ADD_FAILURE() << "validation: " << message;
  EXPECT_TRUE(messages.empty());
}

}  // namespace attnviz::testing
