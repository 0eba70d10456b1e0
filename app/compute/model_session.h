#pragma once
// ModelSession: the window's pretrained model (core/model). Opening a model and every forward
// pass run on a worker thread of its own, so the frames go on with a progress bar; Cancel
// stops the work at the core's next check (between tensors while loading, between layers while
// computing). The window keeps showing what it showed before until new work has finished: a
// model that fails to open, a text the model refuses or a cancelled pass leave the last model
// and result on screen, with the reason.
//
// The text, the head switches (a head off or scaled: ModelEdits::head_factors) and their undo
// live here. A head switch recomputes from the first layer it changes (ForwardPass::rerun_from:
// the layers before it are reused), then every later layer, the next tokens and the rollout.
// Attention goes through the Eigen backend: the window's Vulkan device belongs to its frames.
//
//   session.open("gpt2/", "The cat sat");       // later frames: poll(), progress(), result()
//   session.set_head_factor(3, 1, 0.0f);        // head 1 of layer 3 off; undo() switches it on

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "core/attention/backend.h"
#include "core/model/forward.h"
#include "core/model/model.h"

namespace attnviz::compute {

enum class ModelActivity { Idle, Loading, Computing };

// The first layer whose output differs between two sets of edits (num_layers when none does).
int first_changed_layer(const model::ModelEdits& a, const model::ModelEdits& b, int num_layers);

// "Layer 3 head 1 off", "Layer 3 head 1 × 0.5", "Layer 3 head 1 on": an undo step's label.
std::string head_switch_label(int layer, int head, std::optional<float> factor);

class ModelSession {
 public:
  ModelSession();
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
  // The same model, shared: for work on another thread that must keep it alive (the Decode
  // view's generation, app/compute/model_generation.h).
  [[nodiscard]] std::shared_ptr<const model::Model> shared_model() const { return model_; }
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
  };
  struct Outcome {
    std::uint64_t id = 0;
    bool closed = false;
    std::shared_ptr<const model::Model> model;  // set when the job opened one
    std::shared_ptr<const model::ForwardResult> result;
    Matrix rollout;
    std::string text;
    model::ModelEdits edits;
    std::string error;  // "" on success; "cancelled"
  };
  std::uint64_t submit(Job job);  // its id
  void apply_edits(model::ModelEdits next, std::string label);
  void work();
  Outcome run(const Job& job, std::stop_token stop);
  Outcome compute(const Job& job, std::stop_token stop);

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

  // The worker's own: the model it runs and its forward pass (kept for rerun_from), which
  // refers to both (declared after them, so destroyed first).
  std::unique_ptr<Backend> backend_;
  std::shared_ptr<const model::Model> worker_model_;
  std::unique_ptr<model::ForwardPass> pass_;
  std::string pass_text_;
  model::ModelEdits pass_edits_;
  bool pass_valid_ = false;

  // The window's (UI thread).
  std::shared_ptr<const model::Model> model_;
  std::shared_ptr<const model::ForwardResult> result_;
  Matrix rollout_;
  std::string text_;
  model::ModelEdits shown_edits_;
  model::ModelEdits edits_;
  std::string requested_text_;
  struct Step {
    model::ModelEdits before;
    std::string label;
  };
  std::vector<Step> undo_;
  std::vector<Step> redo_;
  std::string error_;
  std::optional<std::string> unreported_failure_;
  std::uint64_t generation_ = 0;
  std::uint64_t closed_id_ = 0;  // the last close(): outcomes of jobs before it are dropped
  std::thread worker_;  // last: started once everything above exists
};

}  // namespace attnviz::compute
