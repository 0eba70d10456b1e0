#pragma once
// ModelRunner: the model session's worker side. It opens a model and runs its forward passes on
// the backend a job asks for, and keeps what the next job reuses: the backends (Vulkan on a
// device of the worker's own, a VkDevice apart from the window's, whose queue belongs to the
// frames), the open model and its forward pass (a head switch reruns from the first layer it
// changes: ForwardPass::rerun_from). Used on the session's worker thread only, and released
// there (release()), so the Vulkan device is destroyed on the thread that made it.
//
// A Vulkan failure computes the pass again with Eigen and says why in the outcome; a text the
// model refuses for its length comes back with the start that fits.

#include <exception>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>

#include "app/compute/compute_session.h"
#include "core/attention/backend.h"
#include "core/model/forward.h"
#include "core/model/model.h"
#include "core/model/text_fit.h"
#include "core/vk/context.h"

namespace attnviz::compute {

// The first layer whose output differs between two sets of edits (num_layers when none does).
int first_changed_layer(const model::ModelEdits& a, const model::ModelEdits& b, int num_layers);

// Makes the worker's Vulkan backend (called on the worker thread, the first time Vulkan
// computes); throws when Vulkan cannot compute here.
using VulkanBackendFactory = std::function<std::unique_ptr<Backend>()>;
// The window's: a headless device of the model's own, on `device_index` (--device) when given.
VulkanBackendFactory vulkan_backend_factory(std::optional<int> device_index, bool validation);

struct ModelJob {
  std::optional<std::string> path;  // open this model first
  bool close = false;               // forget the model
  std::string text;
  model::ModelEdits edits;
  std::uint64_t id = 0;
  BackendMode backend = BackendMode::Cpu;  // Vulkan, Cpu or Both
};

struct ModelOutcome {
  std::uint64_t id = 0;
  bool closed = false;
  bool opening = false;                       // the job was to open a model (opened or not)
  std::shared_ptr<const model::Model> model;  // set when the job opened one
  std::shared_ptr<const model::ForwardResult> result;
  Matrix rollout;
  std::string text;
  model::ModelEdits edits;
  BackendMode backend = BackendMode::Cpu;  // what computed it
  std::string vulkan_failure;              // why Vulkan did not, when it was asked to
  std::string error;                       // "" on success; "cancelled"
  // The failure behind `error` when the window words it (a refused text, no memory): said in
  // the window's language on its thread (window_message_of), not on the worker's.
  std::exception_ptr failure;
  std::optional<model::TextCut> text_cut;  // the text refused for its length: the start that fits
};

class ModelRunner {
 public:
  // `make_vulkan` empty: Vulkan on the preferred device (vulkan_backend_factory({}, false)).
  explicit ModelRunner(VulkanBackendFactory make_vulkan = {});
  ModelRunner(const ModelRunner&) = delete;
  ModelRunner& operator=(const ModelRunner&) = delete;

  // Runs `job`; every failure (cancelling included) is said in the outcome, none thrown.
  ModelOutcome run(const ModelJob& job, std::stop_token stop, const model::ProgressCallback& progress);
  // Lets go of the pass, the model and the backends (on the thread that made them).
  void release();

 private:
  ModelOutcome compute(const ModelJob& job, std::stop_token stop, const model::ProgressCallback& progress);
  ModelOutcome forward_on_chosen_backend(const ModelJob& job, const std::shared_ptr<const model::Model>& model,
                                         std::stop_token stop, const model::ProgressCallback& progress);
  ModelOutcome forward(const ModelJob& job, const std::shared_ptr<const model::Model>& model, BackendMode backend,
                       std::stop_token stop, const model::ProgressCallback& progress);
  Backend& worker_backend(BackendMode backend);
  void drop_vulkan();
  void save_vulkan_pipelines();

  // The backends, the model it runs and its forward pass (kept for rerun_from), which refers
  // to them (declared after them, so destroyed first).
  VulkanBackendFactory make_vulkan_;
  std::unique_ptr<Backend> cpu_;
  std::unique_ptr<Backend> vulkan_;
  vk::PipelineCacheSaver pipeline_cache_saver_{"model's"};
  std::shared_ptr<const model::Model> worker_model_;
  std::unique_ptr<model::ForwardPass> pass_;
  BackendMode pass_backend_ = BackendMode::Cpu;
  std::string pass_text_;
  model::ModelEdits pass_edits_;
  bool pass_valid_ = false;
};

}  // namespace attnviz::compute
