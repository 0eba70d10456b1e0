// When the window recomputes: only when the document or the backend changed; a document that
// cannot be computed keeps the last result on screen with the reason.
#include "app/compute/compute_session.h"

#include <gtest/gtest.h>

#include "app/document/document.h"
#include "core/vk/context.h"

namespace attnviz::compute {
namespace {

Scenario small_scenario() {
  Scenario s;
  s.sentence = "the cat sat on the mat";
  s.d_model = 4;
  s.num_heads = 2;
  s.num_kv_heads = 1;
  s.d_k = 2;
  s.d_v = 2;
  s.mask.causal = true;
  return s;
}

std::shared_ptr<vk::Context> context() {
  static const std::shared_ptr<vk::Context> shared = vk::Context::create();
  return shared;
}

TEST(ComputeSession, RecomputesOnlyWhenTheDocumentOrTheBackendChanged) {
  ComputeSession session(context(), BackendMode::Vulkan);
  document::Document document(small_scenario());
  EXPECT_TRUE(session.update(document));
  ASSERT_TRUE(session.has_result());
  EXPECT_EQ(session.generation(), 1u);
  const std::uint64_t allocations = session.device_allocations();
  for (int frame = 0; frame < 5; ++frame) EXPECT_FALSE(session.update(document));
  EXPECT_EQ(session.generation(), 1u);

  Scenario edited = document.scenario();
  edited.seed = 2;  // same shapes: recompute without allocating
  document.apply(edited, "Seed");
  EXPECT_TRUE(session.update(document));
  EXPECT_EQ(session.generation(), 2u);
  EXPECT_EQ(session.device_allocations(), allocations);

  session.set_mode(BackendMode::Both);
  EXPECT_TRUE(session.update(document));
  EXPECT_FALSE(session.update(document));
  ASSERT_TRUE(session.compared());
  for (const MatrixDifference& d : session.differences()) EXPECT_LT(d.max_abs, 1e-5) << d.name;
}

TEST(ComputeSession, TheDeviceResultIsWhatIsShownAndMatchesEigen) {
  ComputeSession session(context(), BackendMode::Both);
  document::Document document(small_scenario());
  ASSERT_TRUE(session.update(document));
  EXPECT_STREQ(session.shown_backend(), "vulkan");
  const MatrixSource weights = session.head_matrix(1, HeadMatrix::Weights);
  EXPECT_NE(weights.device.buffer, VK_NULL_HANDLE);  // drawn straight from the result buffer
  EXPECT_EQ(weights.device.rows, 6);
  const Matrix* host = session.host_matrix(1, HeadMatrix::Weights);
  ASSERT_NE(host, nullptr);
  const Result* cpu = session.cpu_result();
  ASSERT_NE(cpu, nullptr);
  for (std::size_t i = 0; i < host->data.size(); ++i) EXPECT_NEAR(host->data[i], cpu->heads[1].weights.data[i], 1e-6);
  EXPECT_FLOAT_EQ(host->at(0, 1), 0.0f);  // causal: the first token sees only itself
  EXPECT_FLOAT_EQ(host->at(0, 0), 1.0f);
}

TEST(ComputeSession, AnEditThatCannotBeComputedKeepsTheLastResult) {
  ComputeSession session(context(), BackendMode::Cpu);
  document::Document document(small_scenario());
  ASSERT_TRUE(session.update(document));
  Scenario broken = document.scenario();
  broken.num_kv_heads = 3;  // 2 heads cannot share 3 K/V heads
  document.apply(broken, "K/V heads");
  session.update(document);
  EXPECT_FALSE(session.error().empty());
  EXPECT_TRUE(session.has_result());
  EXPECT_EQ(session.problem().num_kv_heads, 1);
  EXPECT_EQ(session.generation(), 1u);
  document.undo();
  session.update(document);
  EXPECT_TRUE(session.error().empty());
}

// The window warms both backends up before its first frame, so the first recompute it shows
// is timed like the ones after it (on lavapipe the first dispatch compiles the shaders: about
// 75 ms against 2.5 ms). Without a warm-up the first run says it includes start-up.
TEST(ComputeSession, AfterTheWarmUpTheFirstRecomputeIsAnOrdinaryOne) {
  ComputeSession cold(context(), BackendMode::Both);
  document::Document document(small_scenario());
  ASSERT_TRUE(cold.update(document));
  EXPECT_TRUE(cold.vulkan_status().includes_start_up);
  EXPECT_TRUE(cold.cpu_status().includes_start_up);
  Scenario edited = document.scenario();
  edited.seed = 3;
  document.apply(edited, "Seed");
  ASSERT_TRUE(cold.update(document));
  EXPECT_FALSE(cold.vulkan_status().includes_start_up);
  EXPECT_FALSE(cold.cpu_status().includes_start_up);

  ComputeSession warm(context(), BackendMode::Both);
  warm.warm_up();
  EXPECT_GT(warm.vulkan_warm_up_ms(), 0.0);
  EXPECT_GT(warm.cpu_warm_up_ms(), 0.0);
  EXPECT_FALSE(warm.has_result()) << "the warm-up shows nothing";
  EXPECT_EQ(warm.generation(), 0u);
  ASSERT_TRUE(warm.update(document));
  EXPECT_FALSE(warm.vulkan_status().includes_start_up);
  EXPECT_FALSE(warm.cpu_status().includes_start_up);
  EXPECT_EQ(warm.generation(), 1u);
  for (const MatrixDifference& d : warm.differences()) EXPECT_LT(d.max_abs, 1e-5) << d.name;
}

TEST(ComputeSession, WithoutVulkanTheWarmUpWarmsEigen) {
  ComputeSession session(nullptr, BackendMode::Cpu);
  session.warm_up();
  EXPECT_EQ(session.vulkan_warm_up_ms(), 0.0);
  EXPECT_GT(session.cpu_warm_up_ms(), 0.0);
  document::Document document(small_scenario());
  ASSERT_TRUE(session.update(document));
  EXPECT_FALSE(session.cpu_status().includes_start_up);
}

// The window's session builds its Vulkan kernels on a thread of its own (its first frame waited
// 12.7 s for lavapipe): Eigen computes until they are ready, then Vulkan where it is chosen.
TEST(ComputeSession, VulkanBuiltInTheBackgroundTakesOverOnceReady) {
  ComputeSession session(context(), BackendMode::Vulkan, VulkanStart::InBackground);
  EXPECT_TRUE(session.vulkan_available()) << "it will be, once built";
  document::Document document(small_scenario());
  if (session.preparing_kernels()) {
    ASSERT_TRUE(session.update(document));
    EXPECT_STREQ(session.shown_backend(), "cpu") << "Eigen stands in meanwhile";
    EXPECT_NE(session.vulkan_status().error.find("being prepared"), std::string::npos) << session.vulkan_status().error;
  }
  ASSERT_TRUE(session.take_prepared_backend(true)) << "waits where Vulkan is chosen";
  EXPECT_FALSE(session.preparing_kernels().has_value());
  EXPECT_TRUE(session.vulkan_failure().empty()) << session.vulkan_failure();
  EXPECT_FALSE(session.take_prepared_backend(true)) << "taken once";
  ASSERT_TRUE(session.update(document)) << "Vulkan computes from the next update";
  EXPECT_STREQ(session.shown_backend(), "vulkan");
  ComputeSession eigen(nullptr, BackendMode::Cpu);
  ASSERT_TRUE(eigen.update(document));
  const Result& want = eigen.shown_result();
  const Result& got = session.shown_result();
  ASSERT_EQ(got.heads.size(), want.heads.size());
  for (std::size_t h = 0; h < want.heads.size(); ++h) {
    for (std::size_t i = 0; i < want.heads[h].weights.size(); ++i) {
      EXPECT_NEAR(got.heads[h].weights.data[i], want.heads[h].weights.data[i], 1e-5f);
    }
  }
}

// Where Eigen computes, nothing waits for the kernels, and the warm-up leaves Vulkan alone (on
// lavapipe it JIT-compiled every kernel before the first frame for nothing).
TEST(ComputeSession, WhereEigenComputesTheWarmUpLeavesVulkanAlone) {
  ComputeSession session(context(), BackendMode::Cpu, VulkanStart::InBackground);
  session.warm_up();
  EXPECT_EQ(session.vulkan_warm_up_ms(), 0.0);
  EXPECT_GT(session.cpu_warm_up_ms(), 0.0);
  EXPECT_TRUE(session.kernel_preparation_note().empty()) << "nothing to say: Eigen computes";
  while (!session.take_prepared_backend(true)) {  // not waited for with Eigen chosen: polled
  }
  document::Document document(small_scenario());
  ASSERT_TRUE(session.update(document));
  EXPECT_STREQ(session.shown_backend(), "cpu");
  EXPECT_TRUE(session.vulkan_status().error.empty());
}

TEST(ComputeSession, WithoutVulkanEigenStandsIn) {
  ComputeSession session(nullptr, BackendMode::Vulkan);
  document::Document document(small_scenario());
  ASSERT_TRUE(session.update(document));
  EXPECT_STREQ(session.shown_backend(), "cpu");
  EXPECT_FALSE(session.vulkan_status().error.empty());
  EXPECT_NE(session.head_matrix(0, HeadMatrix::Scores).host, nullptr);
}

}  // namespace
}  // namespace attnviz::compute

namespace attnviz::compute {
namespace {

TEST(AutomaticBackend, EigenOnACpuDriverVulkanOnAGpuEigenWithoutADevice) {
  const AutomaticChoice cpu = choose_automatically("llvmpipe (LLVM 15.0.6, 256 bits)", VK_PHYSICAL_DEVICE_TYPE_CPU);
  EXPECT_EQ(cpu.mode, BackendMode::Cpu);
  EXPECT_EQ(cpu.reason(), "llvmpipe (LLVM 15.0.6, 256 bits) is a CPU driver: Eigen computes faster on the CPU");
  for (const VkPhysicalDeviceType gpu : {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU,
                                         VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU}) {
    const AutomaticChoice choice = choose_automatically("NVIDIA H100 PCIe", gpu);
    EXPECT_EQ(choice.mode, BackendMode::Vulkan);
    EXPECT_EQ(choice.reason(), "NVIDIA H100 PCIe is a GPU");
  }
  EXPECT_EQ(choose_automatically("", VK_PHYSICAL_DEVICE_TYPE_OTHER).mode, BackendMode::Cpu);
  EXPECT_EQ(backend_mode_from_string("auto"), BackendMode::Automatic);
  EXPECT_STREQ(to_string(BackendMode::Automatic), "auto");
}

// On the test machines the only device is lavapipe: the automatic choice computes with Eigen
// and says why; a choice made by the user wins, and says so.
TEST(AutomaticBackend, TheSessionFollowsTheDeviceAndAForcedChoiceWins) {
  ComputeSession session(context(), BackendMode::Automatic);
  document::Document document(small_scenario());
  const bool cpu_device = context()->device_type() == VK_PHYSICAL_DEVICE_TYPE_CPU;
  ASSERT_TRUE(session.update(document));
  EXPECT_STREQ(session.shown_backend(), cpu_device ? "cpu" : "vulkan");
  EXPECT_EQ(session.effective_mode(), cpu_device ? BackendMode::Cpu : BackendMode::Vulkan);
  EXPECT_EQ(session.vulkan_status().ran, !cpu_device);
  if (cpu_device) {
    EXPECT_EQ(session.choice_summary(), "Eigen chosen automatically: " + context()->device_name() +
                                            " is a CPU driver: Eigen computes faster on the CPU");
  }

  session.set_mode(BackendMode::Vulkan);
  ASSERT_TRUE(session.update(document));
  EXPECT_STREQ(session.shown_backend(), "vulkan");
  EXPECT_EQ(session.choice_summary(), "Vulkan, as chosen");
  session.set_mode(BackendMode::Cpu);
  ASSERT_TRUE(session.update(document));
  EXPECT_STREQ(session.shown_backend(), "cpu");
  EXPECT_EQ(session.choice_summary(), "Eigen, as chosen");

  ComputeSession without_vulkan(nullptr, BackendMode::Automatic);
  ASSERT_TRUE(without_vulkan.update(document));
  EXPECT_STREQ(without_vulkan.shown_backend(), "cpu");
  EXPECT_EQ(without_vulkan.choice_summary(), "Eigen chosen automatically: no Vulkan device computes here");
}

}  // namespace
}  // namespace attnviz::compute
