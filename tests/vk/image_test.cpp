// Images and what draws into them (core/vk/image.h): an image with its memory, a view, a colour
// pass, a framebuffer and a sampler made on lavapipe under the validation layer, which must say
// nothing.

#include "core/vk/image.h"

#include <gtest/gtest.h>

#include "tests/vk/vk_test_support.h"

namespace attnviz::vk {
namespace {

TEST(VkImage, AnImageItsViewPassFramebufferAndSamplerAreValid) {
  const auto context = testing::validated_context();
  const VkExtent2D extent{37, 21};
  const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  {
    const DeviceImage image = create_device_image(
        *context, extent, format, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT, "a test image");
    ASSERT_TRUE(image.image);
    ASSERT_TRUE(image.memory);
    EXPECT_GE(image.bytes, VkDeviceSize{37 * 21 * 4});
    const ImageView view = create_image_view_2d(context->device(), image.image.get(), format);
    VkSubpassDependency after{};
    after.srcSubpass = 0;
    after.dstSubpass = VK_SUBPASS_EXTERNAL;
    after.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    after.dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
    after.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    after.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    const RenderPass pass =
        create_colour_pass(context->device(), format, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, {&after, 1});
    const Framebuffer framebuffer = create_framebuffer(context->device(), pass.get(), view.get(), extent);
    const Sampler sampler = create_nearest_sampler(context->device());
    EXPECT_TRUE(view && pass && framebuffer && sampler);
  }  // destroyed in reverse: the layer reports any object destroyed while another uses it
  testing::expect_no_validation_messages(*context);
}

}  // namespace
}  // namespace attnviz::vk
