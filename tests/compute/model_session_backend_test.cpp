// The window's model on the chosen backend: Vulkan (a device of the worker's own, here with
// the validation layer: any message fails) gives what Eigen gives; the automatic choice keeps
// Eigen on a CPU driver; a Vulkan failure computes with Eigen and says so once; the shown
// result is never written while the worker computes the next pass.

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "app/compute/model_session.h"
#include "core/common/error.h"
#include "core/cpu/cpu_backend.h"
#include "core/gpu/vulkan_attention.h"
#include "tests/compute/model_session_support.h"
#include "tests/vk/vk_test_support.h"

namespace attnviz::compute {
namespace {

using namespace model_session_support;

// One validated device for the binary's Vulkan sessions (lavapipe in CI).
std::shared_ptr<vk::Context> validated() {
  static const std::shared_ptr<vk::Context> context = testing::validated_context();
  return context;
}

// The session's Vulkan backends, on the validated device; counts how often one was made.
VulkanBackendFactory validated_factory(std::atomic<int>& made) {
  return [&made] {
    ++made;
    return make_vulkan_backend(validated());
  };
}

// Eigen under another name, failing at its `fail_at`-th attention (as a device lost mid-pass).
class FailingBackend final : public Backend {
 public:
  explicit FailingBackend(int fail_at) : fail_at_(fail_at) {}
  [[nodiscard]] std::string name() const override { return "vulkan"; }
  [[nodiscard]] std::string device_name() const override { return "failing test device"; }
  void run(const Problem& problem, const ComputeOptions& options) override { inner_->run(problem, options); }
  [[nodiscard]] const Result& result() const override { return inner_->result(); }
  [[nodiscard]] const Timing& timing() const override { return inner_->timing(); }
  void compute_into(const Problem& problem, const ComputeOptions& options, Result& result) override {
    if (++calls_ == fail_at_) throw std::runtime_error("vkQueueSubmit: VK_ERROR_DEVICE_LOST (test)");
    inner_->compute_into(problem, options, result);
  }

 private:
  std::unique_ptr<Backend> inner_ = make_cpu_backend();
  int fail_at_;
  int calls_ = 0;
};

const AutomaticChoice kCpuDriver = choose_automatically("llvmpipe (test)", VK_PHYSICAL_DEVICE_TYPE_CPU);
const AutomaticChoice kGpu = choose_automatically("a GPU (test)", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU);

TEST(ModelSessionBackend, VulkanForcedGivesWhatEigenGives) {
  std::atomic<int> made = 0;
  {
    ModelSession session(validated_factory(made));
    session.set_backend(BackendMode::Vulkan, kCpuDriver);
    EXPECT_EQ(session.effective_backend(), BackendMode::Vulkan);
    for (const std::string& path : {gpt2(), llama()}) {
      session.open(path, kText);
      session.wait();
      ASSERT_NE(session.result(), nullptr) << session.error();
      EXPECT_EQ(session.result()->backend, "vulkan");
      expect_same(*session.result(), direct(path, {}), 1e-4);
    }
    // A head switch reruns the later layers on the same device.
    session.set_head_factor(1, 0, 0.0f);
    session.wait();
    model::ModelEdits off;
    off.head_factors[{1, 0}] = 0.0f;
    EXPECT_EQ(session.result()->backend, "vulkan");
    expect_same(*session.result(), direct(llama(), off), 1e-4);
    EXPECT_EQ(session.backend_summary(), "model: Vulkan, as chosen");
    EXPECT_FALSE(session.take_backend_notice().has_value());

    // Both: Vulkan shown, each layer's attention computed by Eigen too, and they agree.
    session.set_backend(BackendMode::Both, kCpuDriver);
    session.wait();
    ASSERT_NE(session.result(), nullptr);
    EXPECT_EQ(session.result()->backend, "vulkan");
    for (const model::LayerAttention& layer : session.result()->layers) {
      ASSERT_FALSE(layer.differences.empty()) << "layer " << layer.layer;
      EXPECT_TRUE(results_agree(layer.differences)) << "layer " << layer.layer;
    }
    // Back to Eigen: recomputed there, no undo step for it.
    const bool could_undo = session.can_undo();
    session.set_backend(BackendMode::Cpu, kCpuDriver);
    session.wait();
    EXPECT_EQ(session.result()->backend, "cpu");
    EXPECT_TRUE(session.result()->layers.front().differences.empty());
    EXPECT_EQ(session.can_undo(), could_undo);
  }
  EXPECT_EQ(made.load(), 1) << "one device for the session, made once";
  testing::expect_no_validation_messages(*validated());
}

TEST(ModelSessionBackend, TheAutomaticChoiceKeepsEigenOnACpuDriver) {
  std::atomic<int> made = 0;
  ModelSession session(validated_factory(made));
  session.set_backend(BackendMode::Automatic, kCpuDriver);
  session.open(gpt2(), kText);
  session.wait();
  ASSERT_NE(session.result(), nullptr) << session.error();
  EXPECT_EQ(session.result()->backend, "cpu");
  EXPECT_EQ(made.load(), 0) << "no Vulkan device is made for Eigen";
  EXPECT_EQ(session.backend_summary(), "model: Eigen, automatic (CPU driver)");
  EXPECT_NE(session.backend_explanation().find("llvmpipe (test) is a CPU driver"), std::string::npos);

  // This machine's own device decides as the window's scenario session does.
  const AutomaticChoice here = choose_automatically(validated()->device_name(), validated()->device_type());
  session.set_backend(BackendMode::Automatic, here);
  session.wait();
  const bool gpu = validated()->device_type() != VK_PHYSICAL_DEVICE_TYPE_CPU;
  EXPECT_EQ(session.result()->backend, gpu ? "vulkan" : "cpu") << validated()->device_name();

  // On a GPU the automatic choice is Vulkan.
  session.set_backend(BackendMode::Automatic, kGpu);
  session.wait();
  EXPECT_EQ(session.result()->backend, "vulkan");
  EXPECT_EQ(session.backend_summary(), "model: Vulkan, automatic (GPU)");
  testing::expect_no_validation_messages(*validated());
}

TEST(ModelSessionBackend, NoVulkanDeviceFallsBackToEigenWithOneNotice) {
  int made = 0;
  ModelSession session([&made]() -> std::unique_ptr<Backend> {
    ++made;
    throw BackendUnavailable("no Vulkan device here (test)");
  });
  session.set_backend(BackendMode::Vulkan, kCpuDriver);
  session.open(gpt2(), kText);
  session.wait();
  ASSERT_NE(session.result(), nullptr) << session.error();
  EXPECT_EQ(session.result()->backend, "cpu");
  expect_same(*session.result(), direct(gpt2(), {}));
  const std::optional<std::string> notice = session.take_backend_notice();
  ASSERT_TRUE(notice.has_value());
  EXPECT_NE(notice->find("no Vulkan device here (test)"), std::string::npos) << *notice;
  EXPECT_NE(notice->find("Eigen"), std::string::npos) << *notice;
  EXPECT_FALSE(session.take_backend_notice().has_value()) << "said once";
  EXPECT_FALSE(session.take_failure().has_value()) << "the model was computed: no failure";
  EXPECT_EQ(session.effective_backend(), BackendMode::Cpu);
  EXPECT_EQ(session.backend_summary(), "model: Eigen (Vulkan failed)");

  // Edits go on with Eigen without trying Vulkan again each time.
  session.set_backend(BackendMode::Vulkan, kCpuDriver);
  session.set_head_factor(0, 1, 0.0f);
  session.wait();
  EXPECT_EQ(made, 1);
  // Choosing Vulkan again tries again.
  session.set_backend(BackendMode::Cpu, kCpuDriver);
  session.set_backend(BackendMode::Vulkan, kCpuDriver);
  session.wait();
  EXPECT_EQ(made, 2);
  EXPECT_TRUE(session.take_backend_notice().has_value());
  EXPECT_EQ(session.result()->backend, "cpu");
}

TEST(ModelSessionBackend, AVulkanFailureMidPassIsComputedAgainWithEigen) {
  // The first device fails in layer 1; the one made when Vulkan is chosen again works.
  ModelSession session([made = 0]() mutable { return std::make_unique<FailingBackend>(made++ == 0 ? 2 : -1); });
  session.set_backend(BackendMode::Vulkan, kGpu);
  session.open(gpt2(), kText);
  session.wait();
  ASSERT_NE(session.result(), nullptr) << session.error();
  EXPECT_EQ(session.result()->backend, "cpu");
  expect_same(*session.result(), direct(gpt2(), {}));
  const std::optional<std::string> notice = session.take_backend_notice();
  ASSERT_TRUE(notice.has_value());
  EXPECT_NE(notice->find("VK_ERROR_DEVICE_LOST"), std::string::npos) << *notice;

  // A text the model refuses is the text's fault, not Vulkan's: its own error, no notice.
  session.set_backend(BackendMode::Cpu, kGpu);
  session.set_backend(BackendMode::Vulkan, kGpu);
  session.wait();
  EXPECT_EQ(session.result()->backend, "vulkan");
  EXPECT_FALSE(session.take_backend_notice().has_value());
  std::string long_text;
  for (int i = 0; i < 40; ++i) long_text += "the cat ";
  session.set_text(long_text);
  session.wait();
  const std::optional<std::string> failure = session.take_failure();
  ASSERT_TRUE(failure.has_value());
  EXPECT_NE(failure->find("position"), std::string::npos) << *failure;
  EXPECT_EQ(session.text(), kText);
  EXPECT_FALSE(session.take_backend_notice().has_value());
  EXPECT_EQ(session.effective_backend(), BackendMode::Vulkan);
}

// What a frame reads stays as it was while the worker computes the next pass: the worker
// writes only storage of its own (ASan would catch a read of freed storage).
TEST(ModelSessionBackend, TheWorkersPipelinesGoToTheOnDiskCache) {
  // The default factory's device builds through $XDG_CACHE_HOME/attnviz, as the window's does.
  const std::filesystem::path cache =
      std::filesystem::temp_directory_path() / ("attnviz-model-cache-" + std::to_string(::getpid()));
  std::filesystem::remove_all(cache);
  const char* before = std::getenv("XDG_CACHE_HOME");
  const std::string kept = before != nullptr ? before : "";
  ::setenv("XDG_CACHE_HOME", cache.c_str(), 1);
  {
    ModelSession session(vulkan_backend_factory(std::nullopt, false));
    session.set_backend(BackendMode::Vulkan, kCpuDriver);
    session.open(gpt2(), kText);
    session.wait();
    ASSERT_NE(session.result(), nullptr) << session.error();
    EXPECT_EQ(session.result()->backend, "vulkan");
  }
  if (before != nullptr)
    ::setenv("XDG_CACHE_HOME", kept.c_str(), 1);
  else
    ::unsetenv("XDG_CACHE_HOME");
  std::vector<std::filesystem::path> files;
  if (std::filesystem::exists(cache / "attnviz")) {
    for (const auto& entry : std::filesystem::directory_iterator(cache / "attnviz")) files.push_back(entry.path());
  }
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].filename().string().rfind("pipelines-", 0), 0u) << files[0];
  EXPECT_GT(std::filesystem::file_size(files[0]), 64u);  // the header and the driver's data
  std::filesystem::remove_all(cache);
}

TEST(ModelSessionBackend, TheShownResultStaysValidWhileTheWorkerComputes) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  ASSERT_NE(session.result(), nullptr);
  const model::ForwardResult* shown = session.result();
  const model::ForwardResult before = *shown;
  const std::vector<std::pair<int, int>> switched = {{0, 0}, {1, 1}, {1, 2}};  // (layer, head)
  for (const auto& [layer, head] : switched) {
    session.set_head_factor(layer, head, 0.0f);
    // No poll(): the frames go on reading the shown result while the worker computes.
    double sum = 0.0;
    while (session.busy()) {
      for (const model::LayerAttention& kept : shown->layers) {
        for (const HeadResult& shown_head : kept.attention.heads) sum += shown_head.weights.data.front();
      }
    }
    EXPECT_TRUE(std::isfinite(sum));
    expect_same(*shown, before, 0.0);
  }
  session.wait();
  EXPECT_NE(session.result(), shown);
  model::ModelEdits off;
  for (const auto& key : switched) off.head_factors[key] = 0.0f;
  expect_same(*session.result(), direct(gpt2(), off));
}

}  // namespace
}  // namespace attnviz::compute
