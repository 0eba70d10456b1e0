#pragma once
// ModelSession: the window's pretrained model (core/model), its text and its edits. Opening a
// model and every forward pass run on the session's Worker (app/compute/model_runner.h does the
// work), so the frames go on with a progress bar; Cancel stops the work at the core's next
// check (between tensors while loading, between layers while computing). The window keeps
// showing what it showed before until new work has finished: a model that fails to open, a text
// the model refuses or a cancelled pass leave the last model and result on screen, with the
// reason. A model that opens but refuses its first text stays open without a result, the reason
// shown, for the text to be mended.
//
// The head switches (a head off or scaled: ModelEdits::head_factors) and edited weights
// recompute from the first layer they change. The backend policy (model_backend_policy.h) says
// what computes; the edit history (model_edit_history.h) holds the undo steps. The shown result
// is the forward pass's own (ForwardPass::share_result), swapped in by poll(): the worker never
// writes it again, so a frame reads it while the next pass runs.
//
//   session.open("gpt2/", "The cat sat");       // later frames: poll(), progress(), result()
//   session.set_head_factor(3, 1, 0.0f);        // head 1 of layer 3 off; undo() switches it on

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "app/compute/compute_session.h"
#include "app/compute/model_backend_policy.h"
#include "app/compute/model_edit_history.h"
#include "app/compute/model_messages.h"
#include "app/compute/model_runner.h"
#include "app/i18n/language.h"
#include "core/common/worker.h"
#include "core/model/forward.h"
#include "core/model/model.h"
#include "core/model/text_fit.h"

namespace attnviz::compute {

enum class ModelActivity { Idle, Loading, Computing };

class ModelSession {
 public:
  // `make_vulkan` empty: Vulkan on the preferred device (vulkan_backend_factory({}, false)).
  explicit ModelSession(VulkanBackendFactory make_vulkan = {});
  ~ModelSession();  // stops the work in flight and waits for it
  ModelSession(const ModelSession&) = delete;
  ModelSession& operator=(const ModelSession&) = delete;

  // Opens the model at `path` (a folder or a .gguf file) and runs it on `text`; the head
  // switches and their undo start empty once it has opened.
  void open(const std::string& path, const std::string& text);
  // Runs the shown model on `text` (with the current head switches).
  void set_text(const std::string& text);
  // Head `head` of `layer`: its context × factor (0 off), or nullopt for the model as it is.
  // One undo step.
  void set_head_factor(int layer, int head, std::optional<float> factor);
  // Every head back on (one undo step; nothing when none is switched).
  void reset_heads();
  // Head `head`'s W_Q, W_K or W_V in `layer` (d_model × head_dim, as Model::head_weight gives
  // it): `weights` in its place, or the model's own again with nullopt. One undo step, `label`.
  // A key or value slice is its key/value group's, shared by the group's query heads.
  void set_head_weight(int layer, int head, model::Projection which, std::optional<Matrix> weights, std::string label);
  // The edited slice asked for, or null when that head's matrix is the model's.
  [[nodiscard]] const Matrix* edited_weight(int layer, int head, model::Projection which) const;
  // The backend the window chose (every frame; a change recomputes the shown model, no undo
  // step). Both: Vulkan computes what is shown and Eigen each layer's attention again.
  void set_backend(BackendMode mode, const AutomaticChoice& automatic);
  // The policy's answers (ModelBackendPolicy); summary and explanation are "" without a model.
  [[nodiscard]] BackendMode effective_backend() const { return backend_.effective(); }
  [[nodiscard]] std::string backend_summary() const { return model_ ? backend_.summary() : ""; }
  [[nodiscard]] std::string backend_explanation() const { return model_ ? backend_.explanation() : ""; }
  [[nodiscard]] const std::string& vulkan_failure() const { return backend_.vulkan_failure(); }
  std::optional<std::string> take_backend_notice() { return backend_.take_notice(); }

  // Stops the work in flight: what was shown stays.
  void cancel();
  // Forgets the model (the window shows its scenario again).
  void close();

  [[nodiscard]] bool can_undo() const { return history_.can_undo(); }
  [[nodiscard]] bool can_redo() const { return history_.can_redo(); }
  [[nodiscard]] const std::string& undo_label() const { return history_.undo_label(); }
  [[nodiscard]] const std::string& redo_label() const { return history_.redo_label(); }
  void undo();
  void redo();
  // The window's one undo timeline: steps recorded so far, and forgetting the redo steps when
  // the user acts elsewhere.
  [[nodiscard]] std::uint64_t recorded_steps() const { return history_.recorded(); }
  void discard_redo() { history_.discard_redo(); }

  // The frame loop's: takes finished work from the worker; true when what is shown changed (a
  // result, a failure or the end of a cancelled job).
  bool poll();
  // Waits until the worker is idle, then poll()s (screenshots and tests).
  void wait();
  // A failure not yet reported (the window posts it as a notice once).
  std::optional<std::string> take_failure();

  [[nodiscard]] ModelActivity activity() const;
  // A model asked to open whose outcome the window has not taken yet (poll()): loading, or
  // loaded a moment ago, so that a view deciding on the first frames sees it either way.
  [[nodiscard]] bool opening() const { return opening_ || activity() == ModelActivity::Loading; }
  [[nodiscard]] bool busy() const { return activity() != ModelActivity::Idle; }
  // The worker's stage ("weights", "layer 3 of 12") and fraction done, 0..1.
  [[nodiscard]] model::Progress progress() const;
  // What is being loaded ("" when nothing).
  [[nodiscard]] std::string loading_path() const;

  [[nodiscard]] bool has_model() const { return model_ != nullptr; }
  [[nodiscard]] const model::Model* model() const { return model_.get(); }
  // The shown model's model_caption ("" when none is open), made again only when it opened or
  // the window's language changed.
  [[nodiscard]] const std::string& caption() const;
  // The same model, shared: for work on another thread that must keep it alive (the Decode
  // view's generation, app/compute/model_generation.h).
  [[nodiscard]] std::shared_ptr<const model::Model> shared_model() const { return model_; }
  // The shown result (the forward pass's own, never written while shown), or null.
  [[nodiscard]] const model::ForwardResult* result() const { return result_.get(); }
  // The same, shared: for work on another thread that reads it while a newer one is shown (the
  // Model view's head roles, app/compute/head_roles_session.h).
  [[nodiscard]] std::shared_ptr<const model::ForwardResult> shared_result() const { return result_; }
  // Attention rollout through every layer (N × N; empty when it could not be computed).
  [[nodiscard]] const Matrix& rollout() const { return rollout_; }
  // The text and the edits of the shown result.
  [[nodiscard]] const std::string& text() const { return text_; }
  // The text asked for last (ahead of text() while computing, or after a text was refused).
  [[nodiscard]] const std::string& requested_text() const { return requested_text_; }
  [[nodiscard]] const model::ModelEdits& shown_edits() const { return shown_edits_; }
  // The edits asked for (what the switches show; ahead of shown_edits() while computing).
  [[nodiscard]] const model::ModelEdits& edits() const { return edits_; }
  [[nodiscard]] std::optional<float> head_factor(int layer, int head) const;
  // Why the last request failed ("" when it did not); "cancelled" after cancel().
  [[nodiscard]] const std::string& error() const { return error_; }
  void dismiss_error() { error_.clear(); }
  // When the last text was refused for its length: its longest start the model takes (cut
  // before a word), else null.
  [[nodiscard]] const model::TextCut* text_cut() const { return text_cut_ ? &*text_cut_ : nullptr; }
  // Runs the model on that start: one undo step ("Keep the first 31 tokens"), which brings the
  // whole text back.
  void keep_text_start();
  // Moves on with every new result shown (caches key on it).
  [[nodiscard]] std::uint64_t generation() const { return generation_; }

  // Tests: while paused the worker starts no job (so that cancel() before it starts is certain).
  void pause_worker_for_tests(bool paused) { worker_.set_paused(paused); }

 private:
  enum class JobKind { Loading, Computing, Closing };  // the worker's task kinds
  std::uint64_t submit(ModelJob job);                  // its id
  void finish(ModelOutcome outcome);
  ModelJob pass_job(std::string text) const;  // a forward pass of the shown model with the current backend
  void apply_edits(model::ModelEdits next, std::string label);
  void forget_shown();

  mutable std::mutex mutex_;
  std::optional<ModelOutcome> finished_;  // shared with the worker, under mutex_

  ModelRunner runner_;  // the worker's own
  ModelBackendPolicy backend_;
  ModelEditHistory history_;
  // The window's (UI thread).
  std::shared_ptr<const model::Model> model_;
  mutable std::string caption_;  // model_caption of model_, in caption_language_
  mutable i18n::Language caption_language_ = i18n::Language::English;
  std::shared_ptr<const model::ForwardResult> result_;
  Matrix rollout_;
  std::string text_;
  model::ModelEdits shown_edits_;
  model::ModelEdits edits_;
  std::string requested_text_;
  std::string error_;
  std::optional<model::TextCut> text_cut_;
  std::optional<std::string> unreported_failure_;
  std::uint64_t generation_ = 0;
  bool opening_ = false;         // open() asked, its outcome not yet polled
  std::uint64_t closed_id_ = 0;  // the last close(): outcomes of jobs before it are dropped
  // Last: stopped and joined before the rest goes; the runner's Vulkan device is destroyed on
  // the thread that made it.
  Worker worker_{0, [this] { runner_.release(); }};
};

}  // namespace attnviz::compute
