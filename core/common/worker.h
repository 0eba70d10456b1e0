#pragma once
// Worker: one thread that runs background jobs, the newest first. Every background job of the
// window (a model's forward pass, an overview, the pinned query's row, generation, reading a
// scenario file, a training run) is one of its tasks, so cancelling, superseding, shutting down
// while busy, a task that throws and progress are written and tested once, here.
//
// At most one task runs and one waits. A submitted task replaces the waiting one (which never
// runs) and asks the running one to stop (its stop_token): the latest request wins. A task
// checks its token where it can stop; one that cannot simply finishes, and its owner drops
// what it made (TaskContext::id tells which request it was).
//
//   Worker worker(10);
//   worker.submit([&](const TaskContext& task) { compute(task.stop); }, kComputing);
//   // later frames: worker.idle(), worker.progress(); a newer submit() stops this one

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>

namespace attnviz {

struct TaskContext {
  std::stop_token stop;  // asked to stop: a newer task, cancel() or shutdown
  std::uint64_t id = 0;  // submit()'s answer for this task
};

using WorkerTask = std::function<void(const TaskContext&)>;

// The task in flight, else the one waiting.
struct ActiveTask {
  std::uint64_t id = 0;
  int kind = 0;
  std::string subject;
  bool started = false;
};

struct WorkProgress {
  std::string stage;  // "weights", "layer 3 of 12"
  double fraction = 0.0;
};

// What cancel() found.
struct CancelOutcome {
  bool dropped_waiting = false;   // a task that had not started and now never will
  bool stopping_running = false;  // a task in flight, asked to stop
};

class Worker {
 public:
  // `nice`: added to the thread's nice value: a worker below the window's thread leaves the
  // frames their pace on two cores (threads it starts, OpenMP's included, inherit it).
  // `at_exit`: runs on the worker's thread as it ends, so state made there (a Vulkan device)
  // is destroyed on the thread that made it.
  explicit Worker(int nice = 0, std::function<void()> at_exit = {});
  // Drops the waiting task, asks the running one to stop, waits for it, then runs at_exit.
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Runs `task` next (see above); its id, counting from 1. `kind` and `subject` are the owner's
  // own description, read back through active(): what kind of work, on what (ModelSession:
  // loading "gpt2/", computing, closing).
  std::uint64_t submit(WorkerTask task, int kind = 0, std::string subject = {});
  // Drops the waiting task and asks the running one to stop; returns at once.
  CancelOutcome cancel();

  [[nodiscard]] std::optional<ActiveTask> active() const;
  [[nodiscard]] bool idle() const;
  [[nodiscard]] bool has_waiting() const;
  // Blocks until no task runs or waits (tests, screenshots).
  void wait_idle();
  // Tests: while paused, a waiting task does not start.
  void set_paused(bool paused);

  // The running task's: where it is (reset to {} as each task starts).
  void report(WorkProgress progress);
  [[nodiscard]] WorkProgress progress() const;

  // What escaped a task (its exception's what()), once: the worker goes on with the next.
  std::optional<std::string> take_escaped_failure();

 private:
  struct Entry {
    WorkerTask task;
    ActiveTask about;
  };
  void loop(std::stop_token shutdown);
  void run(const Entry& entry, std::stop_token stop);

  int nice_;
  std::function<void()> at_exit_;
  mutable std::mutex mutex_;
  std::condition_variable_any changed_;
  std::optional<Entry> waiting_;
  std::optional<ActiveTask> running_;
  std::stop_source running_stop_;
  std::uint64_t next_id_ = 1;
  bool paused_ = false;
  WorkProgress progress_;
  std::optional<std::string> escaped_failure_;
  std::jthread thread_;  // last: started once everything above exists, joined first
};

}  // namespace attnviz
