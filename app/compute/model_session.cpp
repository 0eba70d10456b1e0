#include "app/compute/model_session.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>
#include <tuple>
#include <utility>

#include "core/common/error.h"
#include "core/cpu/cpu_backend.h"
#include "core/gpu/vulkan_attention.h"
#include "core/lesson/number_text.h"
#include "core/model/cancelled.h"
#include "core/model/text_fit.h"
#include "core/vk/context.h"

namespace attnviz::compute {
namespace {

// Rollout multiplies N × N matrices once per layer in float64: past this many tokens it would
// hold the worker for seconds after every edit, so the view says it is not computed.
constexpr int kRolloutMaxTokens = 512;

const char* backend_name(BackendMode backend) {
  switch (backend) {
    case BackendMode::Vulkan: return "Vulkan";
    case BackendMode::Both: return "Vulkan, compared with Eigen";
    default: return "Eigen";
  }
}

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

}  // namespace

std::string window_message(const InputError& error) {
  if (error.origin() != "<text>") return error.what();
  // The core's advice for the command line (--layers) names an option the window does not
  // have: it keeps every layer.
  if (const auto* large = dynamic_cast<const model::KeptAttentionTooLarge*>(&error)) {
    using lesson::format_grouped;
    return "The text makes " + format_grouped(large->tokens()) + " tokens; keeping the attention of " +
           format_grouped(large->kept_layers()) + " layers \xC3\x97 " + format_grouped(large->heads()) +
           " heads for them takes " + format_grouped(large->mebibytes()) + " MiB, more than the window keeps (" +
           format_grouped(model::kMaxKeptCells * 8 >> 20) + " MiB): use a shorter text";
  }
  const std::string problem = lesson::group_whole_numbers(error.problem());
  return problem.starts_with("makes ") ? "The text " + problem : "The text: " + problem;
}

namespace {

// The start of a refused text that the model takes, when its length was what was refused.
std::optional<model::TextCut> text_cut_for(const model::Model& model, const std::string& text) {
  const model::ModelConfig& config = model.config();
  return model::cut_to_token_limit(model.tokenizer(), text, model::token_limit(config, config.num_layers));
}

}  // namespace

int first_changed_layer(const model::ModelEdits& a, const model::ModelEdits& b, int num_layers) {
  return std::min(first_layer_of(a, b, num_layers), first_layer_of(b, a, num_layers));
}

std::string model_caption(const std::string& path, const std::string& architecture, int layers, int heads) {
  std::filesystem::path where(path);
  if (where.filename().empty()) where = where.parent_path();  // "models/gpt2/"
  const std::string extension = where.extension().string();
  // A file inside a model folder stands for the folder; a GGUF file is the model itself.
  if (extension == ".json" || extension == ".safetensors") where = std::filesystem::absolute(where).parent_path();
  std::string name = where.filename().string();
  if (name.empty()) name = path;
  return name + "  \u2014  " + architecture + ", " + std::to_string(layers) + " layers \u00D7 " +
         std::to_string(heads) + " heads";
}

std::string head_switch_label(int layer, int head, std::optional<float> factor) {
  std::string label = "Layer " + std::to_string(layer) + " head " + std::to_string(head);
  if (!factor) return label + " on";
  if (*factor == 0.0f) return label + " off";
  char scaled[32];
  std::snprintf(scaled, sizeof scaled, " \xC3\x97 %.3g", static_cast<double>(*factor));
  return label + scaled;
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

ModelSession::ModelSession(VulkanBackendFactory make_vulkan)
    : make_vulkan_(make_vulkan ? std::move(make_vulkan) : vulkan_backend_factory(std::nullopt, false)),
      worker_([this] { work(); }) {}

ModelSession::~ModelSession() {
  {
    const std::lock_guard lock(mutex_);
    quit_ = true;
    paused_ = false;
    stop_.request_stop();
  }
  wake_.notify_all();
  worker_.join();
}

std::uint64_t ModelSession::submit(Job job) {
  std::uint64_t id = 0;
  {
    const std::lock_guard lock(mutex_);
    id = job.id = next_id_++;
    pending_ = std::move(job);
    stop_.request_stop();  // the job in flight gives way to this one
  }
  wake_.notify_all();
  return id;
}

ModelSession::Job ModelSession::pass_job(std::string text) const {
  Job job;
  job.text = std::move(text);
  job.edits = edits_;
  job.backend = effective_backend();
  return job;
}

void ModelSession::open(const std::string& path, const std::string& text) {
  requested_text_ = text;
  Job job = pass_job(text);
  job.path = path;
  job.edits = {};
  submit(std::move(job));
}

void ModelSession::set_text(const std::string& text) {
  requested_text_ = text;
  // While a model opens, the new text goes with it (a pass alone would stop the opening).
  if (const std::string path = loading_path(); !path.empty()) {
    open(path, text);
    return;
  }
  if (!model_) return;
  submit(pass_job(text));
}

void ModelSession::apply_edits(model::ModelEdits next, std::string label) {
  if (!model_ || activity() == ModelActivity::Loading) return;
  undo_.push_back(Step{edits_, std::nullopt, std::move(label)});
  redo_.clear();
  edits_ = std::move(next);
  submit(pass_job(requested_text_));
}

void ModelSession::keep_text_start() {
  if (!text_cut_ || !model_ || activity() == ModelActivity::Loading) return;
  undo_.push_back(
      Step{edits_, requested_text_, "Keep the first " + lesson::format_grouped(text_cut_->tokens) + " tokens"});
  redo_.clear();
  requested_text_ = std::move(text_cut_->text);
  text_cut_.reset();
  submit(pass_job(requested_text_));
}

void ModelSession::set_head_factor(int layer, int head, std::optional<float> factor) {
  model::ModelEdits next = edits_;
  if (factor && *factor == 1.0f) factor.reset();  // × 1 is the head as it is
  if (factor)
    next.head_factors[{layer, head}] = *factor;
  else
    next.head_factors.erase({layer, head});
  if (next.head_factors == edits_.head_factors) return;
  apply_edits(std::move(next), head_switch_label(layer, head, factor));
}

void ModelSession::reset_heads() {
  if (edits_.head_factors.empty()) return;
  model::ModelEdits next = edits_;
  next.head_factors.clear();
  apply_edits(std::move(next), "Every head on");
}

void ModelSession::set_head_weight(int layer, int head, model::Projection which, std::optional<Matrix> weights,
                                   std::string label) {
  model::ModelEdits next = edits_;
  const auto key = std::make_tuple(layer, head, which);
  if (weights)
    next.weights[key] = std::move(*weights);
  else if (next.weights.erase(key) == 0)
    return;  // nothing to put back
  apply_edits(std::move(next), std::move(label));
}

const Matrix* ModelSession::edited_weight(int layer, int head, model::Projection which) const {
  const auto found = edits_.weights.find(std::make_tuple(layer, head, which));
  return found == edits_.weights.end() ? nullptr : &found->second;
}

std::optional<float> ModelSession::head_factor(int layer, int head) const {
  const auto found = edits_.head_factors.find({layer, head});
  if (found == edits_.head_factors.end()) return std::nullopt;
  return found->second;
}

const std::string& ModelSession::undo_label() const {
  static const std::string none;
  return undo_.empty() ? none : undo_.back().label;
}

const std::string& ModelSession::redo_label() const {
  static const std::string none;
  return redo_.empty() ? none : redo_.back().label;
}

// The step's state becomes the current one; the step that brings back the state replaced.
ModelSession::Step ModelSession::swap_in(Step step) {
  Step back{edits_, std::nullopt, step.label};
  edits_ = std::move(step.before);
  if (step.text) {
    back.text = requested_text_;
    requested_text_ = std::move(*step.text);
  }
  return back;
}

void ModelSession::undo() {
  if (undo_.empty() || !model_) return;
  Step step = std::move(undo_.back());
  undo_.pop_back();
  redo_.push_back(swap_in(std::move(step)));
  submit(pass_job(requested_text_));
}

void ModelSession::redo() {
  if (redo_.empty() || !model_) return;
  Step step = std::move(redo_.back());
  redo_.pop_back();
  undo_.push_back(swap_in(std::move(step)));
  submit(pass_job(requested_text_));
}

void ModelSession::set_backend(BackendMode mode, const AutomaticChoice& automatic) {
  const BackendMode before = effective_backend();
  if (mode != backend_mode_) vulkan_failure_.clear();  // chosen again: Vulkan is tried again
  backend_mode_ = mode;
  // Called every frame: copied only when it changed (no allocation in a steady frame).
  if (automatic.mode != automatic_.mode || automatic.reason != automatic_.reason) automatic_ = automatic;
  if (effective_backend() == before) return;
  if (const std::string path = loading_path(); !path.empty()) {
    open(path, requested_text_);  // the opening starts again, to compute on the backend chosen
  } else if (model_) {
    submit(pass_job(requested_text_));
  }
}

BackendMode ModelSession::effective_backend() const {
  if (!vulkan_failure_.empty()) return BackendMode::Cpu;
  return backend_mode_ == BackendMode::Automatic ? automatic_.mode : backend_mode_;
}

std::string ModelSession::backend_summary() const {
  if (!model_) return "";
  const std::string shown = std::string("model: ") + backend_name(shown_backend_);
  if (!vulkan_failure_.empty()) return shown + " (Vulkan failed)";
  if (backend_mode_ == BackendMode::Automatic) return shown + ", automatic (" + automatic_.brief + ")";
  return shown + ", as chosen";
}

std::string ModelSession::backend_explanation() const {
  if (!model_) return "";
  const std::string shown = std::string("The model is computed with ") + backend_name(shown_backend_);
  if (!vulkan_failure_.empty()) {
    return shown + ": Vulkan could not compute it (" + vulkan_failure_ + "). Choose a backend again to retry Vulkan.";
  }
  if (backend_mode_ == BackendMode::Automatic) return shown + ", chosen automatically: " + automatic_.reason + ".";
  return shown + ", as chosen.";
}

std::optional<std::string> ModelSession::take_backend_notice() {
  return std::exchange(unreported_backend_notice_, std::nullopt);
}

void ModelSession::cancel() {
  bool waiting = false;
  bool running = false;
  {
    const std::lock_guard lock(mutex_);
    waiting = pending_.has_value();
    running = current_.has_value();
    pending_.reset();
    stop_.request_stop();
  }
  // A job that had not started says nothing; one that had says "cancelled" when it stops.
  if (waiting && !running) {
    error_ = "cancelled";
    edits_ = shown_edits_;
  }
}

void ModelSession::close() {
  cancel();
  Job job;
  job.close = true;
  closed_id_ = submit(std::move(job));
  model_.reset();
  caption_.clear();
  result_.reset();
  rollout_ = Matrix();
  text_.clear();
  shown_edits_ = {};
  edits_ = {};
  undo_.clear();
  redo_.clear();
  error_.clear();
  ++generation_;
}

ModelActivity ModelSession::activity() const {
  const std::lock_guard lock(mutex_);
  const std::optional<Job>& job = current_ ? current_ : pending_;
  if (!job || job->close) return ModelActivity::Idle;
  return job->path ? ModelActivity::Loading : ModelActivity::Computing;
}

model::Progress ModelSession::progress() const {
  const std::lock_guard lock(mutex_);
  return progress_;
}

std::string ModelSession::loading_path() const {
  const std::lock_guard lock(mutex_);
  const std::optional<Job>& job = current_ ? current_ : pending_;
  return job && job->path ? *job->path : std::string();
}

void ModelSession::pause_worker_for_tests(bool paused) {
  {
    const std::lock_guard lock(mutex_);
    paused_ = paused;
  }
  wake_.notify_all();
}

bool ModelSession::poll() {
  std::optional<Outcome> outcome;
  {
    const std::lock_guard lock(mutex_);
    outcome = std::exchange(finished_, std::nullopt);
  }
  if (!outcome) return false;
  if (outcome->closed || outcome->id < closed_id_) return true;  // work from before close()
  if (outcome->model) {  // a model just opened: its heads as they are, nothing to undo
    model_ = std::move(outcome->model);
    const model::ModelConfig& config = model_->config();
    caption_ = model_caption(model_->path(), config.architecture_name, config.num_layers, config.num_heads);
    edits_ = {};
    undo_.clear();
    redo_.clear();
    if (!outcome->error.empty()) {  // its text was refused: nothing of the last model stays shown
      result_.reset();
      rollout_ = Matrix();
      text_.clear();
      shown_edits_ = {};
      ++generation_;
    }
  }
  text_cut_ = std::move(outcome->text_cut);
  if (!outcome->error.empty()) {
    error_ = outcome->error;
    if (error_ != "cancelled") unreported_failure_ = error_;
    edits_ = shown_edits_;  // the switches show what is on screen
    return true;
  }
  if (!outcome->vulkan_failure.empty()) {
    vulkan_failure_ = outcome->vulkan_failure;
    unreported_backend_notice_ =
        "Vulkan could not compute the model (" + vulkan_failure_ + "); it is computed with Eigen instead.";
  }
  shown_backend_ = outcome->backend;
  result_ = std::move(outcome->result);
  rollout_ = std::move(outcome->rollout);
  text_ = std::move(outcome->text);
  shown_edits_ = std::move(outcome->edits);
  error_.clear();
  ++generation_;
  return true;
}

void ModelSession::wait() {
  std::unique_lock lock(mutex_);
  wake_.wait(lock, [this] { return !pending_ && !current_; });
  lock.unlock();
  poll();
}

std::optional<std::string> ModelSession::take_failure() { return std::exchange(unreported_failure_, std::nullopt); }

void ModelSession::work() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return quit_ || (pending_ && !paused_); });
    if (quit_) {
      release_worker_state();  // the Vulkan device is destroyed on the thread that made it
      return;
    }
    current_ = std::exchange(pending_, std::nullopt);
    stop_ = std::stop_source();
    const std::stop_token stop = stop_.get_token();
    progress_ = {};
    const Job job = *current_;
    lock.unlock();
    Outcome outcome = run(job, stop);
    lock.lock();
    // A job that gave way to a newer one says nothing: the newer one will.
    if (!pending_ || outcome.error != "cancelled") finished_ = std::move(outcome);
    current_.reset();
    wake_.notify_all();
  }
}

ModelSession::Outcome ModelSession::run(const Job& job, std::stop_token stop) {
  Outcome outcome;
  outcome.id = job.id;
  try {
    if (job.close) {
      pass_.reset();
      worker_model_.reset();
      pass_valid_ = false;
      outcome.closed = true;
      return outcome;
    }
    return compute(job, stop);
  } catch (const model::Cancelled&) {
    outcome.error = "cancelled";
  } catch (const std::bad_alloc&) {
    outcome.error = "not enough memory for this model and text";
  } catch (const InputError& error) {
    outcome.error = window_message(error);
    // A pass of the shown model (an opening's refused text is cut in compute(); a model that
    // did not open has nothing to cut for).
    if (worker_model_ && !job.path) outcome.text_cut = text_cut_for(*worker_model_, job.text);
  } catch (const std::exception& error) {
    outcome.error = error.what();
  }
  return outcome;
}

void ModelSession::release_worker_state() {
  pass_.reset();
  worker_model_.reset();
  vulkan_.reset();
  cpu_.reset();
}

Backend& ModelSession::worker_backend(BackendMode backend) {
  if (backend == BackendMode::Cpu) {
    if (!cpu_) cpu_ = make_cpu_backend();
    return *cpu_;
  }
  if (!vulkan_) vulkan_ = make_vulkan_();
  if (!vulkan_) throw std::runtime_error("no Vulkan backend was made");
  return *vulkan_;
}

// Writes the worker device's pipeline cache when the pass built new pipelines.
void ModelSession::save_vulkan_pipelines() {
  const auto* vulkan = dynamic_cast<const gpu::VulkanAttention*>(vulkan_.get());
  if (vulkan != nullptr) pipeline_cache_saver_.save(vulkan->context());
}

void ModelSession::drop_vulkan() {
  if (pass_backend_ != BackendMode::Cpu) {  // the kept pass refers to the Vulkan backend
    pass_.reset();
    pass_valid_ = false;
  }
  vulkan_.reset();
}

// Opens the job's model (when it names one), then runs it on the job's backend; a Vulkan
// failure runs it again on Eigen and says why in the outcome. Cancelling is no failure.
ModelSession::Outcome ModelSession::compute(const Job& job, std::stop_token stop) {
  std::shared_ptr<const model::Model> model = worker_model_;
  if (job.path) {
    model::LoadOptions load;
    load.progress = [this](const model::Progress& progress) {
      const std::lock_guard lock(mutex_);
      progress_ = progress;
    };
    load.stop = stop;
    model = model::Model::open(*job.path, load);
  }
  if (!model) throw std::runtime_error("no model is open");
  if (!job.path) return forward_on_chosen_backend(job, model, stop);
  try {
    return forward_on_chosen_backend(job, model, stop);
  } catch (const InputError& refused) {
    // The model opened and only its text was refused: it stays open, with no result yet, so
    // that the user mends the text rather than open the model again.
    pass_.reset();  // refers to the model being replaced
    pass_valid_ = false;
    worker_model_ = model;
    Outcome outcome;
    outcome.id = job.id;
    outcome.model = model;
    outcome.text = job.text;
    outcome.error = window_message(refused);
    outcome.text_cut = text_cut_for(*model, job.text);
    return outcome;
  }
}

ModelSession::Outcome ModelSession::forward_on_chosen_backend(const Job& job,
                                                              const std::shared_ptr<const model::Model>& model,
                                                              std::stop_token stop) {
  if (job.backend == BackendMode::Cpu) return forward(job, model, BackendMode::Cpu, stop);
  try {
    Outcome outcome = forward(job, model, job.backend, stop);
    save_vulkan_pipelines();
    return outcome;
  } catch (const model::Cancelled&) {
    throw;
  } catch (const std::exception& error) {
    const std::string failure =
        dynamic_cast<const std::bad_alloc*>(&error) != nullptr ? "not enough device memory" : error.what();
    // Eigen again: when it fails too, the text or the model is at fault (its error is the
    // one shown), not Vulkan, which is kept.
    Outcome outcome = forward(job, model, BackendMode::Cpu, stop);
    drop_vulkan();
    outcome.vulkan_failure = failure;
    return outcome;
  }
}

ModelSession::Outcome ModelSession::forward(const Job& job, const std::shared_ptr<const model::Model>& model,
                                            BackendMode backend, std::stop_token stop) {
  const bool new_model = model != worker_model_;
  std::unique_ptr<model::ForwardPass> fresh;
  if (new_model || !pass_ || pass_backend_ != backend) {
    Backend& computes = worker_backend(backend);
    Backend* compare = backend == BackendMode::Both ? &worker_backend(BackendMode::Cpu) : nullptr;
    fresh = std::make_unique<model::ForwardPass>(*model, computes, compare);
  }
  model::ForwardOptions options;
  options.edits = job.edits;
  options.progress = [this](const model::Progress& progress) {
    const std::lock_guard lock(mutex_);
    progress_ = progress;
  };
  options.stop = stop;
  model::ForwardPass& pass = fresh ? *fresh : *pass_;
  const bool rerun = !fresh && pass_valid_ && pass_text_ == job.text;
  if (!fresh) pass_valid_ = false;  // until this run has finished
  const tokenizers::Encoding encoding = model->tokenizer().encode(job.text, "the text");
  if (rerun)
    pass.rerun_from(first_changed_layer(pass_edits_, job.edits, model->config().num_layers), options);
  else
    pass.run(encoding, options);
  Outcome outcome;
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
