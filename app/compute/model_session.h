#pragma once
// ModelSession: the window's pretrained model (core/model). Opening a model and every forward
// pass run on a worker thread of its own, so the frames go on with a progress bar; Cancel
// stops the work at the core's next check (between tensors while loading, between layers while
// computing). The window keeps showing what it showed before until new work has finished: a
// model that fails to open, a text the model refuses or a cancelled pass leave the last model
// and result on screen, with the reason. A model that opens but refuses its first text stays
// open without a result, the reason shown, for the text to be mended.
//
// The text, the head switches (a head off or scaled: ModelEdits::head_factors) and their undo
// live here. A head switch recomputes from the first layer it changes (ForwardPass::rerun_from:
// the layers before it are reused), then every later layer, the next tokens and the rollout.
// Attention goes through the backend the window chose for its scenario (set_backend: automatic,
// Eigen, Vulkan, or Vulkan compared with Eigen layer by layer). Vulkan runs on a device of the
// worker's own (a VkDevice apart from the window's, whose queue belongs to the frames), made
// the first time Vulkan computes and destroyed on the worker; a Vulkan failure computes the
// pass again with Eigen and says so once (take_backend_notice), Eigen staying until the user
// chooses a backend again.
//
// The shown result is the forward pass's own (ForwardPass::share_result), handed over with the
// outcome and swapped in by poll(): the worker never writes it again, so a frame reads it
// while the next pass runs, and the attention is in memory once, not twice.
//
//   session.open("gpt2/", "The cat sat");       // later frames: poll(), progress(), result()
//   session.set_head_factor(3, 1, 0.0f);        // head 1 of layer 3 off; undo() switches it on

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "app/compute/compute_session.h"
#include "core/common/error.h"
#include "core/attention/backend.h"
#include "core/vk/context.h"
#include "core/model/forward.h"
#include "core/model/model.h"
#include "core/model/text_fit.h"

namespace attnviz::compute {

enum class ModelActivity { Idle, Loading, Computing };

// A refused text's error in the window's words: the core writes "<text>: --text: makes 40
// tokens but the model has positions for 32" for the command line; the window says "The text
// makes 40 tokens but the model has positions for 32", its numbers grouped ("180,001 tokens");
// attention too large to keep (model::KeptAttentionTooLarge) is worded from its numbers, without
// the command line's --layers advice (the window keeps every layer). Other errors as they are.
std::string window_message(const InputError& error);

// The first layer whose output differs between two sets of edits (num_layers when none does).
int first_changed_layer(const model::ModelEdits& a, const model::ModelEdits& b, int num_layers);

// The model as the window title, the menu bar and the status bar name it while it is shown:
// its folder's or file's name, architecture and layers × heads,
//   "gpt2  —  GPT2LMHeadModel, 12 layers × 12 heads".
// `path` as it was opened: a folder (with or without a trailing /), a file inside one
// (config.json, model.safetensors: the folder's name) or a .gguf file (its name).
std::string model_caption(const std::string& path, const std::string& architecture, int layers, int heads);

// "Layer 3 head 1 off", "Layer 3 head 1 × 0.5", "Layer 3 head 1 on": an undo step's label.
std::string head_switch_label(int layer, int head, std::optional<float> factor);

// Makes the worker's Vulkan backend (called on the worker thread, the first time Vulkan
// computes); throws when Vulkan cannot compute here.
using VulkanBackendFactory = std::function<std::unique_ptr<Backend>()>;
// The window's: a headless device of the model's own, on `device_index` (--device) when given.
VulkanBackendFactory vulkan_backend_factory(std::optional<int> device_index, bool validation);

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
  // step). Both: Vulkan computes what is shown and Eigen each layer's attention again, for
  // the per-layer differences (ForwardResult's LayerAttention::differences). Choosing again
  // after a Vulkan failure tries Vulkan again.
  void set_backend(BackendMode mode, const AutomaticChoice& automatic);
  // What computes the model's next pass: Vulkan, Cpu or Both (Automatic resolved; Cpu after a
  // Vulkan failure).
  [[nodiscard]] BackendMode effective_backend() const;
  // The shown result's backend and why, short for the status bar: "model: Eigen, automatic
  // (CPU driver)", "model: Vulkan, as chosen", "model: Eigen (Vulkan failed)".
  [[nodiscard]] std::string backend_summary() const;
  // The same at length, for the Backend panel (the automatic choice's reason, the failure).
  [[nodiscard]] std::string backend_explanation() const;
  // Why Vulkan could not compute the model ("" when it could or was not asked to).
  [[nodiscard]] const std::string& vulkan_failure() const { return vulkan_failure_; }
  // A Vulkan failure not yet reported (the window posts it as a notice once).
  std::optional<std::string> take_backend_notice();

  // Stops the work in flight: what was shown stays.
  void cancel();
  // Forgets the model (the window shows its scenario again).
  void close();

  [[nodiscard]] bool can_undo() const { return !undo_.empty(); }
  [[nodiscard]] bool can_redo() const { return !redo_.empty(); }
  [[nodiscard]] const std::string& undo_label() const;
  [[nodiscard]] const std::string& redo_label() const;
  void undo();
  void redo();

  // The frame loop's: takes finished work from the worker; true when what is shown changed (a
  // result, a failure or the end of a cancelled job).
  bool poll();
  // Waits until the worker is idle, then poll()s (screenshots and tests).
  void wait();
  // A failure not yet reported (the window posts it as a notice once).
  std::optional<std::string> take_failure();

  [[nodiscard]] ModelActivity activity() const;
  [[nodiscard]] bool busy() const { return activity() != ModelActivity::Idle; }
  // The worker's stage ("weights", "layer 3 of 12") and fraction done, 0..1.
  [[nodiscard]] model::Progress progress() const;
  // What is being loaded ("" when nothing).
  [[nodiscard]] std::string loading_path() const;

  [[nodiscard]] bool has_model() const { return model_ != nullptr; }
  [[nodiscard]] const model::Model* model() const { return model_.get(); }
  // The shown model's model_caption, made once when it opened ("" when none is open).
  [[nodiscard]] const std::string& caption() const { return caption_; }
  // The same model, shared: for work on another thread that must keep it alive (the Decode
  // view's generation, app/compute/model_generation.h).
  [[nodiscard]] std::shared_ptr<const model::Model> shared_model() const { return model_; }
  // The shown result (the forward pass's own, never written while shown), or null.
  [[nodiscard]] const model::ForwardResult* result() const { return result_.get(); }
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
  void pause_worker_for_tests(bool paused);

 private:
  struct Job {
    std::optional<std::string> path;  // open this model first
    bool close = false;
    std::string text;
    model::ModelEdits edits;
    std::uint64_t id = 0;
    BackendMode backend = BackendMode::Cpu;  // Vulkan, Cpu or Both
  };
  struct Outcome {
    std::uint64_t id = 0;
    bool closed = false;
    std::shared_ptr<const model::Model> model;  // set when the job opened one
    std::shared_ptr<const model::ForwardResult> result;
    Matrix rollout;
    std::string text;
    model::ModelEdits edits;
    BackendMode backend = BackendMode::Cpu;  // what computed it
    std::string vulkan_failure;              // why Vulkan did not, when it was asked to
    std::string error;                       // "" on success; "cancelled"
    std::optional<model::TextCut> text_cut;  // the text refused for its length: the start that fits
  };
  std::uint64_t submit(Job job);         // its id
  Job pass_job(std::string text) const;  // a forward pass of the shown model with the current backend
  void apply_edits(model::ModelEdits next, std::string label);
  struct Step;
  Step swap_in(Step step);
  void work();
  Outcome run(const Job& job, std::stop_token stop);
  Outcome compute(const Job& job, std::stop_token stop);
  Outcome forward_on_chosen_backend(const Job& job, const std::shared_ptr<const model::Model>& model,
                                    std::stop_token stop);
  Outcome forward(const Job& job, const std::shared_ptr<const model::Model>& model, BackendMode backend,
                  std::stop_token stop);
  Backend& worker_backend(BackendMode backend);
  void drop_vulkan();
  void save_vulkan_pipelines();
  void release_worker_state();

  // Shared with the worker, under mutex_.
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Job> pending_;
  std::optional<Job> current_;
  std::optional<Outcome> finished_;
  std::stop_source stop_;
  model::Progress progress_;
  std::uint64_t next_id_ = 1;
  bool paused_ = false;
  bool quit_ = false;

  // The worker's own, made and destroyed on the worker thread: the backends, the model it runs
  // and its forward pass (kept for rerun_from), which refers to them (declared after them, so
  // destroyed first).
  VulkanBackendFactory make_vulkan_;
  std::unique_ptr<Backend> cpu_;
  std::unique_ptr<Backend> vulkan_;
  vk::PipelineCacheSaver pipeline_cache_saver_{"model's"};  // worker thread only
  std::shared_ptr<const model::Model> worker_model_;
  std::unique_ptr<model::ForwardPass> pass_;
  BackendMode pass_backend_ = BackendMode::Cpu;
  std::string pass_text_;
  model::ModelEdits pass_edits_;
  bool pass_valid_ = false;

  // The window's (UI thread).
  std::shared_ptr<const model::Model> model_;
  std::string caption_;  // model_caption of model_
  std::shared_ptr<const model::ForwardResult> result_;
  Matrix rollout_;
  std::string text_;
  model::ModelEdits shown_edits_;
  model::ModelEdits edits_;
  std::string requested_text_;
  BackendMode backend_mode_ = BackendMode::Automatic;
  AutomaticChoice automatic_;
  BackendMode shown_backend_ = BackendMode::Cpu;  // what computed the shown result
  std::string vulkan_failure_;
  std::optional<std::string> unreported_backend_notice_;
  struct Step {
    model::ModelEdits before;
    std::optional<std::string> text;  // the text asked for before, for a step that changed it
    std::string label;
  };
  std::vector<Step> undo_;
  std::vector<Step> redo_;
  std::string error_;
  std::optional<model::TextCut> text_cut_;
  std::optional<std::string> unreported_failure_;
  std::uint64_t generation_ = 0;
  std::uint64_t closed_id_ = 0;  // the last close(): outcomes of jobs before it are dropped
  std::thread worker_;           // last: started once everything above exists
};

}  // namespace attnviz::compute
