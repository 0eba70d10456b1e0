#include "app/compute/model_runner.h"

#include <algorithm>
#include <exception>
#include <new>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "app/compute/model_messages.h"
#include "app/i18n/translate.h"
#include "core/common/error.h"
#include "core/cpu/cpu_backend.h"
#include "core/gpu/vulkan_attention.h"
#include "core/model/cancelled.h"
#include "core/model/text_fit.h"
#include "core/vk/context.h"

namespace attnviz::compute {
namespace {

// Rollout multiplies N × N matrices once per layer in float64: past this many tokens it would
// hold the worker for seconds after every edit, so the view says it is not computed.
constexpr int kRolloutMaxTokens = 512;

int first_layer_of(const model::ModelEdits& edits, const model::ModelEdits& other, int num_layers) {
  int first = num_layers;
  for (const auto& [key, factor] : edits.head_factors) {
    const auto there = other.head_factors.find(key);
    if (there == other.head_factors.end() || there->second != factor) first = std::min(first, key.first);
  }
  for (const auto& [key, weights] : edits.weights) {
    const auto there = other.weights.find(key);
    const bool same = there != other.weights.end() && there->second.rows == weights.rows &&
                      there->second.cols == weights.cols && there->second.data == weights.data;
    if (!same) first = std::min(first, std::get<0>(key));
  }
  return first;
}

// The start of a refused text that the model takes, when its length was what was refused: the
// positions, the tokenizer, the kept attention or the activations' memory.
std::optional<model::TextCut> text_cut_for(const model::Model& model, const std::string& text) {
  const model::ModelConfig& config = model.config();
  const int limit = model::token_limit(config, config.num_layers);
  return model::cut_to_token_limit(model.tokenizer(), text,
                                   model::most_tokens_in_memory(model, config.num_layers, limit));
}

}  // namespace

int first_changed_layer(const model::ModelEdits& a, const model::ModelEdits& b, int num_layers) {
  return std::min(first_layer_of(a, b, num_layers), first_layer_of(b, a, num_layers));
}

VulkanBackendFactory vulkan_backend_factory(std::optional<int> device_index, bool validation) {
  return [device_index, validation] {
    vk::ContextOptions options;
    options.device_index = device_index;
    options.validation = validation;
    // The worker's own device builds its pipelines through the same on-disk cache as the
    // window's (saved after each pass: save_vulkan_pipelines), so a model's shapes compile once.
    options.pipeline_cache_folder = vk::default_pipeline_cache_folder();
    return make_vulkan_backend(options);
  };
}

ModelRunner::ModelRunner(VulkanBackendFactory make_vulkan)
    : make_vulkan_(make_vulkan ? std::move(make_vulkan) : vulkan_backend_factory(std::nullopt, false)) {}

ModelOutcome ModelRunner::run(const ModelJob& job, std::stop_token stop, const model::ProgressCallback& progress) {
  ModelOutcome outcome;
  outcome.id = job.id;
  outcome.opening = job.path.has_value();
  try {
    if (job.close) {
      pass_.reset();
      worker_model_.reset();
      pass_valid_ = false;
      outcome.closed = true;
      return outcome;
    }
    ModelOutcome computed = compute(job, stop, progress);
    computed.opening = outcome.opening;
    return computed;
  } catch (const model::Cancelled&) {
    outcome.error = "cancelled";
  } catch (const std::bad_alloc&) {
    outcome.error = "not enough memory";  // not translated: said by window_message_of
    outcome.failure = std::current_exception();
  } catch (const InputError& error) {
    outcome.error = error.what();
    outcome.failure = std::current_exception();
    // A pass of the shown model (an opening's refused text is cut in compute(); a model that
    // did not open has nothing to cut for).
    if (worker_model_ && !job.path) outcome.text_cut = text_cut_for(*worker_model_, job.text);
  } catch (const std::exception& error) {
    outcome.error = error.what();
    outcome.failure = std::current_exception();
  }
  return outcome;
}

void ModelRunner::release() {
  pass_.reset();
  worker_model_.reset();
  vulkan_.reset();
  cpu_.reset();
}

Backend& ModelRunner::worker_backend(BackendMode backend) {
  if (backend == BackendMode::Cpu) {
    if (!cpu_) cpu_ = make_cpu_backend();
    return *cpu_;
  }
  if (!vulkan_) vulkan_ = make_vulkan_();
  if (!vulkan_) throw std::runtime_error(N_("no Vulkan backend was made"));
  return *vulkan_;
}

// Writes the worker device's pipeline cache when the pass built new pipelines.
void ModelRunner::save_vulkan_pipelines() {
  const auto* vulkan = dynamic_cast<const gpu::VulkanAttention*>(vulkan_.get());
  if (vulkan != nullptr) pipeline_cache_saver_.save(vulkan->context());
}

void ModelRunner::drop_vulkan() {
  if (pass_backend_ != BackendMode::Cpu) {  // the kept pass refers to the Vulkan backend
    pass_.reset();
    pass_valid_ = false;
  }
  vulkan_.reset();
}

// Opens the job's model (when it names one), then runs it on the job's backend; a Vulkan
// failure runs it again on Eigen and says why in the outcome. Cancelling is no failure.
ModelOutcome ModelRunner::compute(const ModelJob& job, std::stop_token stop, const model::ProgressCallback& progress) {
  std::shared_ptr<const model::Model> model = worker_model_;
  if (job.path) {
    model::LoadOptions load;
    load.progress = progress;
    load.stop = stop;
    model = model::Model::open(*job.path, load);
  }
  if (!model) throw std::runtime_error(N_("no model is open"));
  if (!job.path) return forward_on_chosen_backend(job, model, stop, progress);
  try {
    return forward_on_chosen_backend(job, model, stop, progress);
  } catch (const InputError& refused) {
    // The model opened and only its text was refused: it stays open, with no result yet, so
    // that the user mends the text rather than open the model again.
    pass_.reset();  // refers to the model being replaced
    pass_valid_ = false;
    worker_model_ = model;
    ModelOutcome outcome;
    outcome.id = job.id;
    outcome.model = model;
    outcome.text = job.text;
    outcome.error = refused.what();
    outcome.failure = std::current_exception();
    outcome.text_cut = text_cut_for(*model, job.text);
    return outcome;
  }
}

ModelOutcome ModelRunner::forward_on_chosen_backend(const ModelJob& job,
                                                    const std::shared_ptr<const model::Model>& model,
                                                    std::stop_token stop, const model::ProgressCallback& progress) {
  if (job.backend == BackendMode::Cpu) return forward(job, model, BackendMode::Cpu, stop, progress);
  try {
    ModelOutcome outcome = forward(job, model, job.backend, stop, progress);
    save_vulkan_pipelines();
    return outcome;
  } catch (const model::Cancelled&) {
    throw;
  } catch (const std::exception& error) {
    const std::string failure =
        dynamic_cast<const std::bad_alloc*>(&error) != nullptr ? N_("not enough device memory") : error.what();
    // Eigen again: when it fails too, the text or the model is at fault (its error is the
    // one shown), not Vulkan, which is kept.
    ModelOutcome outcome = forward(job, model, BackendMode::Cpu, stop, progress);
    drop_vulkan();
    outcome.vulkan_failure = failure;
    return outcome;
  }
}

ModelOutcome ModelRunner::forward(const ModelJob& job, const std::shared_ptr<const model::Model>& model,
                                  BackendMode backend, std::stop_token stop, const model::ProgressCallback& progress) {
  const bool new_model = model != worker_model_;
  std::unique_ptr<model::ForwardPass> fresh;
  if (new_model || !pass_ || pass_backend_ != backend) {
    Backend& computes = worker_backend(backend);
    Backend* compare = backend == BackendMode::Both ? &worker_backend(BackendMode::Cpu) : nullptr;
    fresh = std::make_unique<model::ForwardPass>(*model, computes, compare);
  }
  model::ForwardOptions options;
  options.edits = job.edits;
  options.progress = progress;
  options.stop = stop;
  model::ForwardPass& pass = fresh ? *fresh : *pass_;
  const bool rerun = !fresh && pass_valid_ && pass_text_ == job.text;
  if (!fresh) pass_valid_ = false;  // until this run has finished
  const tokenizers::Encoding encoding =
      model->tokenizer().encode(job.text, "the text");  // not translated: the core's English names it
  if (rerun)
    pass.rerun_from(first_changed_layer(pass_edits_, job.edits, model->config().num_layers), options);
  else
    pass.run(encoding, options);
  ModelOutcome outcome;
  outcome.id = job.id;
  outcome.backend = backend;
  // The pass's own result, handed over: the window shows it and the pass never writes it again
  // (a rerun copies the layers it keeps), so the attention is in memory once, not twice.
  outcome.result = pass.share_result();
  const model::ForwardResult& result = *outcome.result;
  const int tokens = static_cast<int>(result.ids.size());
  if (tokens > 0 && tokens <= kRolloutMaxTokens && !result.layers.empty()) {
    outcome.rollout = model::attention_rollout(result, model->config().num_layers - 1);
  }
  outcome.text = job.text;
  outcome.edits = job.edits;
  if (fresh) {
    pass_ = std::move(fresh);  // before the model it refers to is replaced
    pass_backend_ = backend;
  }
  if (new_model) {
    worker_model_ = model;
    outcome.model = model;
  }
  pass_text_ = job.text;
  pass_edits_ = job.edits;
  pass_valid_ = true;
  return outcome;
}

}  // namespace attnviz::compute
