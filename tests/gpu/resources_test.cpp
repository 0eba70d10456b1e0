// Resource behaviour of the Vulkan backend: no allocation when recomputing a shape seen
// before, geometric growth, splitting into several dispatches when the device's limits (or
// lowered test limits) require it, results left on the device for the window.

#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>

#include "core/cpu/cpu_backend.h"
#include "core/gpu/attention_layout.h"
#include "core/gpu/dispatch_plan.h"
#include "core/gpu/vulkan_attention.h"
#include "core/vk/barriers.h"
#include "core/vk/buffer.h"
#include "core/vk/commands.h"
#include "tests/gpu/problem_factory.h"
#include "tests/vk/vk_test_support.h"

namespace attnviz {
namespace {

using testing::Lcg;
using testing::Shape;

Shape medium_shape() {
  Shape s;
  s.n = 57;
  s.d_model = 24;
  s.heads = 4;
  s.kv_heads = 2;
  s.d_k = 8;
  s.d_v = 6;
  s.d_out = 10;
  s.mask.causal = true;
  return s;
}

TEST(VulkanResources, RecomputingTheSameShapeAllocatesNothing) {
  const auto context = testing::validated_context();
  gpu::VulkanAttention vulkan(context);
  Lcg random(3);
  const Shape shape = medium_shape();
  vulkan.run(testing::make_problem(random, shape));
  // The first read-back makes its staging buffer where device memory is not host-visible (a
  // discrete GPU; lavapipe maps every buffer): once, like the buffers of the first run.
  (void)vulkan.read_back();
  const std::uint64_t after_first = vulkan.allocation_count();
  EXPECT_GT(after_first, 0u);

  // New values (weights edited, another mask) in the same shape: nothing allocated.
  Shape edited = shape;
  edited.mask = MaskSetting{false, 3, {0, 56}};
  const Problem second = testing::make_problem(random, edited);
  vulkan.run(second);
  (void)vulkan.read_back();
  vulkan.run(second, ComputeOptions{false});
  EXPECT_EQ(vulkan.allocation_count(), after_first);

  // A smaller problem fits in the buffers already there.
  Shape smaller = shape;
  smaller.n = 20;
  vulkan.run(testing::make_problem(random, smaller));
  EXPECT_EQ(vulkan.allocation_count(), after_first);

  // A larger one grows them once; going back costs nothing.
  Shape larger = shape;
  larger.n = 300;
  vulkan.run(testing::make_problem(random, larger));
  const std::uint64_t after_growth = vulkan.allocation_count();
  EXPECT_GT(after_growth, after_first);
  vulkan.run(testing::make_problem(random, shape));
  vulkan.run(testing::make_problem(random, larger));
  EXPECT_EQ(vulkan.allocation_count(), after_growth);
  testing::expect_no_validation_messages(*context);
}

TEST(VulkanResources, TheHostResultIsReadBackOncePerRunIntoTheSameStorage) {
  const auto context = testing::validated_context();
  gpu::VulkanAttention vulkan(context);
  Backend& backend = vulkan;  // the window sees only the interface
  EXPECT_EQ(backend.device_results(), nullptr);
  EXPECT_THROW((void)backend.result(), std::logic_error);
  Lcg random(31);
  const Problem problem = testing::make_problem(random, medium_shape());
  backend.run(problem);
  ASSERT_NE(backend.device_results(), nullptr);
  const Result& first = backend.result();
  EXPECT_EQ(&backend.result(), &first);  // read back once, then the same copy
  testing::expect_close(first, make_cpu_backend()->compute(problem), 1e-5, 1e-5, "first run");
  EXPECT_EQ(backend.timing().stages_ms.size(), first.timing.stages_ms.size());

  // Another problem of the same shape: nothing allocated, the host copy read back anew into
  // the same storage.
  const std::uint64_t allocations = backend.allocation_count();
  const float* weights = first.heads[0].weights.data.data();
  const Problem again = testing::make_problem(random, medium_shape());
  backend.run(again);
  const Result& second = backend.result();
  EXPECT_EQ(second.heads[0].weights.data.data(), weights);
  testing::expect_close(second, make_cpu_backend()->compute(again), 1e-5, 1e-5, "second run");
  EXPECT_EQ(backend.allocation_count(), allocations);

  // A run that fails leaves no result behind.
  Problem broken = again;
  broken.wq = Matrix(3, 3);
  EXPECT_THROW(backend.run(broken), std::invalid_argument);
  EXPECT_EQ(backend.device_results(), nullptr);
  EXPECT_THROW((void)backend.result(), std::logic_error);
  testing::expect_no_validation_messages(*context);
}

// The window keeps on the host only the heads it shows: head_result(h) reads back that head
// alone, the same numbers the whole result holds, once per run.
TEST(VulkanResources, OneHeadIsReadBackAlone) {
  const auto context = testing::validated_context();
  gpu::VulkanAttention vulkan(context);
  Backend& backend = vulkan;
  Lcg random(47);
  for (const bool cross : {false, true}) {
    Shape shape = medium_shape();
    shape.cross = cross;  // cross-attention: keys from another sentence
    if (cross) shape.m = 23;
    const Problem problem = testing::make_problem(random, shape);
    backend.run(problem);
    const Result whole = vulkan.read_back();
    for (const int h : {2, 0, 3}) {
      const HeadResult& head = backend.head_result(h);
      const auto at = static_cast<std::size_t>(h);
      EXPECT_EQ(head.scores, whole.heads[at].scores) << "head " << h;
      EXPECT_EQ(head.weights, whole.heads[at].weights) << "head " << h;
      EXPECT_EQ(head.context, whole.heads[at].context) << "head " << h;
      EXPECT_EQ(&backend.head_result(h), &head);  // once per run
    }
    EXPECT_THROW((void)backend.head_result(4), std::out_of_range);
  }
  testing::expect_no_validation_messages(*context);
}

TEST(VulkanResources, TinyLimitsSplitEveryPassAndStillMatch) {
  vk::ContextOptions options;
  options.max_storage_buffer_range = 8192;  // bytes bound at once
  options.max_texel_buffer_elements = 4096;
  options.max_workgroup_count = 2;
  const auto context = testing::validated_context(options);
  gpu::VulkanAttention vulkan(context);
  const auto cpu = make_cpu_backend();
  Lcg random(5);
  Shape shape = medium_shape();
  shape.n = 150;
  shape.heads = 6;
  shape.kv_heads = 3;
  shape.d_model = 40;
  shape.d_out = 20;  // a weight matrix (or a head's block of one) must fit one binding
  for (const MaskSetting& mask : {MaskSetting{true, std::nullopt, {}}, MaskSetting{false, 4, {0, 77, 149}}}) {
    shape.mask = mask;
    const Problem problem = testing::make_problem(random, shape);
    for (const bool full_scores : {true, false}) {
      const ComputeOptions compute_options{full_scores};
      testing::expect_close(vulkan.compute(problem, compute_options), cpu->compute(problem, compute_options), 1e-5,
                            1e-5, testing::describe(shape));
    }
  }
  // Seven passes without limits; many more with them.
  EXPECT_GT(vulkan.last_dispatch_count(), 40u);
  testing::expect_no_validation_messages(*context);
}

TEST(DispatchPlan, FourThousandTokensOnEightHeadsExceedLavapipesRangeAndSplitPerHeadGroup) {
  gpu::AttentionShape shape{4096, 4096, 512, 8, 8, 64, 64, false, 512, false};
  const gpu::AttentionLayout layout = gpu::make_layout(shape);
  gpu::PlanLimits limits;
  limits.max_view_bytes = std::int64_t{1} << 27;  // lavapipe's maxStorageBufferRange (128 MiB)
  limits.view_alignment = 16;
  limits.max_groups = {65535, 65535, 65535};
  const auto plan = gpu::plan_attention(layout, gpu::TileConfig{}, limits);
  int scores_dispatches = 0;
  for (const gpu::PlannedDispatch& d : plan) {
    for (const gpu::PlannedView& view : d.views) {
      EXPECT_LE(view.range, limits.max_view_bytes);
      EXPECT_EQ(view.offset % 16, 0);
      EXPECT_EQ(view.range % (view.format == VK_FORMAT_R32_SFLOAT ? 4 : 16), 0);
    }
    if (d.stage == gpu::Stage::Scores) ++scores_dispatches;
  }
  // 8 heads × 64 MiB of scores: at most two heads per 128 MiB binding.
  EXPECT_GE(scores_dispatches, 4);
}

TEST(DispatchPlan, WorkgroupCountLimitSplitsRows) {
  gpu::AttentionShape shape{1000, 1000, 16, 2, 2, 8, 8, false, 16, false};
  const gpu::AttentionLayout layout = gpu::make_layout(shape);
  gpu::PlanLimits limits;
  limits.max_view_bytes = std::int64_t{1} << 30;
  limits.max_groups = {4, 4, 1};
  const gpu::TileConfig tiles;
  std::vector<std::pair<int, int>> softmax_rows;
  for (const gpu::PlannedDispatch& d : gpu::plan_attention(layout, tiles, limits)) {
    for (std::uint32_t g : d.groups) EXPECT_LE(g, 4u);
    if (d.stage == gpu::Stage::Softmax) {
      const auto& push = std::get<gpu::SoftmaxPush>(d.push);
      softmax_rows.emplace_back(push.chunk.head_base, push.chunk.row_base);
    }
  }
  // Softmax: 8 rows per workgroup, ≤ 4 workgroups along x, both heads along y: 32 dispatches.
  EXPECT_EQ(softmax_rows.size(), 32u);
}

TEST(VulkanResources, RunsOnABorrowedDevice) {
  // The window owns its device and lends it: the backend must work without owning anything.
  const auto owner = testing::validated_context();
  const auto borrowed = vk::Context::borrow(owner->instance(), owner->physical_device(), owner->device(),
                                            owner->queue_family(), owner->queue());
  EXPECT_FALSE(borrowed->owns_device());
  EXPECT_EQ(borrowed->device_name(), owner->device_name());
  {
    gpu::VulkanAttention vulkan(borrowed);
    Lcg random(21);
    const Problem problem = testing::make_problem(random, medium_shape());
    testing::expect_close(vulkan.compute(problem), make_cpu_backend()->compute(problem), 1e-5, 1e-5, "borrowed");
  }
  testing::expect_no_validation_messages(*owner);
}

TEST(VulkanResources, InconsistentProblemsAreRejectedNotRead) {
  const auto context = testing::validated_context();
  gpu::VulkanAttention vulkan(context);
  Lcg random(23);
  Problem problem = testing::make_problem(random, medium_shape());
  problem.wq = Matrix(3, 3);
  EXPECT_THROW(vulkan.run(problem), std::invalid_argument);
  problem = testing::make_problem(random, medium_shape());
  problem.num_kv_heads = 3;
  EXPECT_THROW(vulkan.run(problem), std::invalid_argument);
  testing::expect_no_validation_messages(*context);
}

TEST(VulkanResources, ResultsStayOnTheDeviceUntilAskedFor) {
  const auto context = testing::validated_context();
  gpu::VulkanAttention vulkan(context);
  Lcg random(9);
  const Shape shape = medium_shape();
  const Problem problem = testing::make_problem(random, shape);
  vulkan.run(problem);
  ASSERT_NE(vulkan.device_results(), nullptr);
  const DeviceResults& view = *vulkan.device_results();
  ASSERT_EQ(view.heads.size(), 4u);
  EXPECT_EQ(view.mask.mask.rows(), 57);
  EXPECT_EQ(view.mask.mask.cols(), 57);
  EXPECT_TRUE(view.mask.mask.causal());
  EXPECT_EQ(view.mask.table.rows, Mask::globals_texel_count(57, 57));
  EXPECT_EQ(view.heads[1].weights.mask, &view.mask);  // scores and weights say which mask hid what
  EXPECT_EQ(view.heads[1].scores.mask, &view.mask);
  EXPECT_EQ(view.heads[1].context.mask, nullptr);
  for (const DeviceHead& head : view.heads) {
    EXPECT_NE(head.scores.buffer, VK_NULL_HANDLE);
    EXPECT_EQ(head.scores.rows, 57);
    EXPECT_EQ(head.scores.cols, 57);
    EXPECT_GE(head.scores.row_pitch, 57);
    EXPECT_EQ(head.context.cols, 6);
  }
  EXPECT_EQ(view.output.cols, 10);
  // The views address the same floats read_back() returns: copy each view's range out.
  const Result result = vulkan.read_back();
  auto check_view = [&](const DeviceMatrix& view_matrix, const Matrix& expected, const std::string& what) {
    EXPECT_EQ(view_matrix.range,
              static_cast<VkDeviceSize>(((view_matrix.rows - 1) * view_matrix.row_pitch + view_matrix.cols) * 4));
    vk::Buffer staging(*context, view_matrix.range, VK_BUFFER_USAGE_TRANSFER_DST_BIT, vk::MemoryKind::HostReadback);
    vk::CommandStream stream(*context);
    const VkCommandBuffer cmd = stream.begin();
    const VkBufferCopy region{view_matrix.offset, 0, view_matrix.range};
    vkCmdCopyBuffer(cmd, view_matrix.buffer, staging.handle(), 1, &region);
    vk::barriers::device_to_host(cmd);
    stream.submit_and_wait();
    staging.invalidate();
    const auto* floats = reinterpret_cast<const float*>(staging.mapped());
    for (int r = 0; r < expected.rows; ++r) {
      for (int c = 0; c < expected.cols; ++c) {
        ASSERT_EQ(floats[r * view_matrix.row_pitch + c], expected.at(r, c)) << what << " (" << r << ", " << c << ")";
      }
    }
  };
  check_view(view.heads[2].scores, result.heads[2].scores, "scores");
  check_view(view.heads[2].weights, result.heads[2].weights, "weights");
  check_view(view.heads[3].context, result.heads[3].context, "context");
  check_view(view.output, result.output, "output");
  EXPECT_EQ(result.timing.stages_ms.size(), 5u);  // projections, scores, softmax, context, output
  EXPECT_GT(result.timing.total_ms, 0.0);
  testing::expect_no_validation_messages(*context);
}

}  // namespace
}  // namespace attnviz
