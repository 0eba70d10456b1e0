#include "app/compute/model_session.h"

#include <tuple>
#include <utility>

#include "app/i18n/language.h"
#include "app/i18n/translate.h"
#include "core/common/number_text.h"

namespace attnviz::compute {

ModelSession::ModelSession(VulkanBackendFactory make_vulkan) : runner_(std::move(make_vulkan)) {}

ModelSession::~ModelSession() = default;

std::uint64_t ModelSession::submit(ModelJob job) {
  const JobKind kind = job.close ? JobKind::Closing : job.path ? JobKind::Loading : JobKind::Computing;
  std::string subject = job.path.value_or("");
  // The job in flight gives way to this one.
  auto task = [this, job = std::move(job)](const TaskContext& context) mutable {
    job.id = context.id;
    const auto report = [this](const model::Progress& progress) {
      worker_.report({progress.stage, progress.fraction});
    };
    finish(runner_.run(job, context.stop, report));
  };
  return worker_.submit(std::move(task), static_cast<int>(kind), std::move(subject));
}

// A job that gave way to a newer one says nothing: the newer one will.
void ModelSession::finish(ModelOutcome outcome) {
  if (outcome.error == "cancelled" && worker_.has_waiting()) return;
  const std::lock_guard lock(mutex_);
  finished_ = std::move(outcome);
}

ModelJob ModelSession::pass_job(std::string text) const {
  ModelJob job;
  job.text = std::move(text);
  job.edits = edits_;
  job.backend = effective_backend();
  return job;
}

void ModelSession::open(const std::string& path, const std::string& text) {
  requested_text_ = text;
  ModelJob job = pass_job(text);
  job.path = path;
  opening_ = true;
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
  history_.record(edits_, std::nullopt, std::move(label));
  edits_ = std::move(next);
  submit(pass_job(requested_text_));
}

void ModelSession::keep_text_start() {
  if (!text_cut_ || !model_ || activity() == ModelActivity::Loading) return;
  history_.record(edits_, requested_text_,
                  i18n::format(i18n::trn("Keep the first %s token", "Keep the first %s tokens",
                                         static_cast<unsigned long>(text_cut_->tokens)),
                               format_grouped(text_cut_->tokens).c_str()));
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
  apply_edits(std::move(next), i18n::tr("Every head on"));
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

void ModelSession::undo() {
  if (!model_ || !history_.undo(edits_, requested_text_)) return;
  submit(pass_job(requested_text_));
}

void ModelSession::redo() {
  if (!model_ || !history_.redo(edits_, requested_text_)) return;
  submit(pass_job(requested_text_));
}

void ModelSession::set_backend(BackendMode mode, const AutomaticChoice& automatic) {
  if (!backend_.choose(mode, automatic)) return;
  if (const std::string path = loading_path(); !path.empty()) {
    open(path, requested_text_);  // the opening starts again, to compute on the backend chosen
  } else if (model_) {
    submit(pass_job(requested_text_));
  }
}

void ModelSession::cancel() {
  const CancelOutcome cancelled = worker_.cancel();
  // A job that had not started says nothing; one that had says "cancelled" when it stops.
  if (cancelled.dropped_waiting && !cancelled.stopping_running) {
    opening_ = false;
    error_ = "cancelled";
    edits_ = shown_edits_;
  }
}

void ModelSession::forget_shown() {
  result_.reset();
  rollout_ = Matrix();
  text_.clear();
  shown_edits_ = {};
  ++generation_;
}

void ModelSession::close() {
  cancel();
  ModelJob job;
  job.close = true;
  closed_id_ = submit(std::move(job));
  opening_ = false;
  model_.reset();
  caption_.clear();
  edits_ = {};
  history_.clear();
  error_.clear();
  forget_shown();
}

ModelActivity ModelSession::activity() const {
  const std::optional<ActiveTask> job = worker_.active();
  if (!job) return ModelActivity::Idle;
  switch (static_cast<JobKind>(job->kind)) {
    case JobKind::Loading: return ModelActivity::Loading;
    case JobKind::Computing: return ModelActivity::Computing;
    case JobKind::Closing: return ModelActivity::Idle;
  }
  return ModelActivity::Idle;
}

model::Progress ModelSession::progress() const {
  const WorkProgress progress = worker_.progress();
  return {progress.stage, progress.fraction};
}

std::string ModelSession::loading_path() const {
  const std::optional<ActiveTask> job = worker_.active();
  return job && static_cast<JobKind>(job->kind) == JobKind::Loading ? job->subject : std::string();
}

bool ModelSession::poll() {
  std::optional<ModelOutcome> outcome;
  {
    const std::lock_guard lock(mutex_);
    outcome = std::exchange(finished_, std::nullopt);
  }
  if (!outcome) return false;
  if (outcome->closed || outcome->id < closed_id_) return true;  // work from before close()
  if (outcome->opening) opening_ = false;
  if (outcome->model) {  // a model just opened: its heads as they are, nothing to undo
    model_ = std::move(outcome->model);
    caption_.clear();  // made by caption(), in the language shown then
    edits_ = {};
    history_.clear();
    if (!outcome->error.empty()) forget_shown();  // its text was refused: nothing of the last model stays
  }
  text_cut_ = std::move(outcome->text_cut);
  if (!outcome->error.empty()) {
    error_ = outcome->failure ? window_message_of(outcome->failure) : outcome->error;
    if (error_ != "cancelled") unreported_failure_ = error_;
    edits_ = shown_edits_;  // the switches show what is on screen
    return true;
  }
  // A fixed failure of the worker's ("not enough device memory") in the window's language.
  backend_.shown(outcome->backend, outcome->vulkan_failure.empty() ? "" : i18n::tr(outcome->vulkan_failure.c_str()));
  result_ = std::move(outcome->result);
  rollout_ = std::move(outcome->rollout);
  text_ = std::move(outcome->text);
  shown_edits_ = std::move(outcome->edits);
  error_.clear();
  ++generation_;
  return true;
}

void ModelSession::wait() {
  worker_.wait_idle();
  poll();
}

const std::string& ModelSession::caption() const {
  if (!model_) {
    caption_.clear();
    return caption_;
  }
  // Made again when the language changed (View > Language): the title says "12 layers" or "12개 레이어".
  const i18n::Language language = i18n::shown_language();
  if (caption_.empty() || caption_language_ != language) {
    const model::ModelConfig& config = model_->config();
    caption_ = model_caption(model_->path(), config.architecture_name, config.num_layers, config.num_heads);
    caption_language_ = language;
  }
  return caption_;
}

std::optional<std::string> ModelSession::take_failure() { return std::exchange(unreported_failure_, std::nullopt); }

}  // namespace attnviz::compute
