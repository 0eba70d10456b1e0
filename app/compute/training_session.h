#pragma once
// TrainingSession: the Training view's run (core/train/trainer.h) on a Worker of its own, below
// the window's priority, so that the window keeps its frame rate while a GPT-2 trains. Start runs
// steps until Pause (or the last step), Step takes one, Reset drops the run. Every step's loss is
// kept; every few steps a snapshot (the weights and every head's attention on the run's fixed
// probe, both from core/train) is kept for the view's slider, at most kMaxSnapshots of them: when
// there are more, every other older one goes and snapshots come half as often. A failure (a text
// too short for one batch, a loss that is not finite, a folder that cannot be written) stops the
// run with the reason in the window's words; the snapshots and the losses stay.
//
//   training.start(settings);            // later frames: poll(), state(), losses(), snapshots()
//   training.pause();  training.save(i);   // then open saved() in the Model view

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/common/matrix.h"
#include "core/common/worker.h"

namespace attnviz::train {
class Trainer;
}

namespace attnviz::compute {

enum class TrainingTask { Induction, Sentence, TextFile };

struct TrainingSettings {
  TrainingTask task = TrainingTask::Induction;
  std::string text;                 // Sentence: the scenario's sentence
  std::filesystem::path text_file;  // TextFile
  int layers = 2;
  int heads = 4;
  int d_model = 64;
  int context = 32;
  long steps = 1000;
  int batch = 32;
  float learning_rate = 0.003f;
  std::filesystem::path out;  // where save() writes (a model folder)
  int threads = 0;            // 0: every core but one (the window's)
};

// One kept moment of the run: its weights and every head's attention on the probe.
struct TrainingSnapshot {
  long step = 0;
  std::vector<float> parameters;
  std::vector<Matrix> attention;  // [layer · heads + head], T × T
};

enum class TrainingState { Idle, Running, Paused, Finished, Failed };

// Where a run started now is saved unless the user says otherwise:
// ${XDG_DATA_HOME:-~/.local/share}/attnviz/training/TASK-YYYYMMDD-HHMMSS (the system's temporary
// folder without a home).
std::filesystem::path default_training_folder(const std::string& task);

class TrainingSession {
 public:
  static constexpr std::size_t kMaxSnapshots = 64;

  TrainingSession();
  ~TrainingSession();  // stops the run and waits for the step under way
  TrainingSession(const TrainingSession&) = delete;
  TrainingSession& operator=(const TrainingSession&) = delete;

  // Runs steps until pause() or the last: a new run from `settings` when there is none, else
  // the run goes on (its settings stay those it started with).
  void start(const TrainingSettings& settings);
  // Stops after the step under way.
  void pause();
  // One step (a new run first when there is none).
  void step(const TrainingSettings& settings);
  // Drops the run, its losses and snapshots.
  void reset();
  // Writes snapshot `index` into the run's folder: the last one as `attnviz train` leaves a
  // folder (--resume goes on from it), an earlier one into its checkpoints/step-N. saved()
  // names it when done, error() says why not.
  void save(std::size_t index);

  // The frame loop's: takes what the worker made; true when what is shown changed.
  bool poll();
  // Waits until the worker is idle, then poll()s (tests, closing the window).
  void wait();

  [[nodiscard]] TrainingState state() const { return shown_.state; }
  [[nodiscard]] bool has_run() const { return shown_.has_run; }
  [[nodiscard]] long steps_done() const { return shown_.step; }
  [[nodiscard]] long steps() const { return shown_.steps; }
  [[nodiscard]] const std::vector<float>& losses() const { return shown_.losses; }
  // Induction only: each step's loss on the copyable tokens (empty for text).
  [[nodiscard]] const std::vector<float>& repeat_losses() const { return shown_.repeat_losses; }
  [[nodiscard]] const std::vector<std::shared_ptr<const TrainingSnapshot>>& snapshots() const {
    return shown_.snapshots;
  }
  [[nodiscard]] int layers() const { return shown_.layers; }
  [[nodiscard]] int heads() const { return shown_.heads; }
  // The probe as text (its ids are bytes), cut to whole UTF-8 characters: what the Model view
  // is given with a saved folder.
  [[nodiscard]] const std::string& probe_text() const { return shown_.probe_text; }
  [[nodiscard]] double tokens_per_second() const { return shown_.tokens_per_second; }
  // Why the run stopped or a save failed ("" when nothing failed).
  [[nodiscard]] const std::string& error() const { return shown_.error; }
  // The folder the last save() wrote (empty before).
  [[nodiscard]] const std::filesystem::path& saved() const { return shown_.saved; }
  // Steps taken since the run's folder was last written (closing the window asks about them).
  [[nodiscard]] bool unsaved() const { return shown_.has_run && shown_.step > shown_.saved_step; }
  [[nodiscard]] const std::filesystem::path& folder() const { return shown_.folder; }
  // How many save() calls have finished, written or not (a caller waiting for its own).
  [[nodiscard]] std::uint64_t saves_finished() const { return shown_.saves; }
  // Each run's number: a new one after reset() or a new start (the heatmaps' data version).
  [[nodiscard]] std::uint64_t run_id() const { return shown_.run_id; }

 private:
  struct Shared {
    TrainingState state = TrainingState::Idle;
    bool has_run = false;
    long step = 0;
    long steps = 0;
    long saved_step = 0;
    int layers = 0;
    int heads = 0;
    std::vector<float> losses;
    std::vector<float> repeat_losses;
    std::vector<std::shared_ptr<const TrainingSnapshot>> snapshots;
    std::string probe_text;
    double tokens_per_second = 0.0;
    std::string error;
    std::filesystem::path saved;
    std::filesystem::path folder;
    std::uint64_t run_id = 0;
    std::uint64_t saves = 0;  // save() calls finished, written or not
    std::uint64_t version = 0;
  };

  // The worker's.
  bool ensure_run(const TrainingSettings& settings);
  void take_steps(long count, const std::stop_token& stop);
  void keep_snapshot();
  void fail(const std::string& message);
  // Empties what the view shows, as a new run or Reset does (mutex_ held).
  void clear_shown();

  std::unique_ptr<train::Trainer> trainer_;  // the worker's (and the window's once it is idle)
  long snapshot_every_ = 1;
  mutable std::mutex mutex_;
  Shared shared_;  // under mutex_
  Shared shown_;   // the window's copy
  std::uint64_t next_run_id_ = 1;
  Worker worker_{10};  // last: stopped and joined before the rest goes
};

}  // namespace attnviz::compute
