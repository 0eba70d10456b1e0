// A 4096-token problem on 8 heads against the Eigen path. Its 512 MiB of scores exceed
// lavapipe's real maxStorageBufferRange (128 MiB), so the plan binds head groups separately.

#include <gtest/gtest.h>

#include "core/cpu/cpu_backend.h"
#include "core/gpu/vulkan_attention.h"
#include "tests/gpu/problem_factory.h"
#include "tests/vk/vk_test_support.h"

namespace attnviz {
namespace {

TEST(VulkanLongSequence, FourThousandTokensMatchTheEigenPath) {
  const auto context = testing::validated_context();
  gpu::VulkanAttention vulkan(context);
  testing::Lcg random(4096);
  testing::Shape shape;
  shape.n = 4096;
  shape.d_model = 64;
  shape.heads = 8;
  shape.kv_heads = 8;
  shape.d_k = 16;
  shape.d_v = 16;
  shape.scale = 0.25f;
  shape.mask.causal = true;
  const Problem problem = testing::make_problem(random, shape, 0.5f);
  const Result gpu = vulkan.compute(problem);
  EXPECT_GT(vulkan.last_dispatch_count(), 7u) << "lavapipe's 128 MiB range should split the score passes";
  testing::expect_close(gpu, make_cpu_backend()->compute(problem), 1e-5, 1e-5, testing::describe(shape));
  testing::expect_no_validation_messages(*context);
}

}  // namespace
}  // namespace attnviz
