#include "core/common/worker.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <exception>
#include <utility>

namespace attnviz {

Worker::Worker(int nice, std::function<void()> at_exit)
    : nice_(nice), at_exit_(std::move(at_exit)), thread_([this](std::stop_token shutdown) { loop(shutdown); }) {}

Worker::~Worker() {
  {
    const std::lock_guard lock(mutex_);
    waiting_.reset();
    paused_ = false;
    running_stop_.request_stop();
  }
  thread_.request_stop();
  changed_.notify_all();
  thread_.join();
}

std::uint64_t Worker::submit(WorkerTask task, int kind, std::string subject) {
  std::uint64_t id = 0;
  {
    const std::lock_guard lock(mutex_);
    id = next_id_++;
    waiting_ = Entry{std::move(task), ActiveTask{id, kind, std::move(subject), false}};
    running_stop_.request_stop();  // the task in flight gives way to this one
  }
  changed_.notify_all();
  return id;
}

CancelOutcome Worker::cancel() {
  const std::lock_guard lock(mutex_);
  CancelOutcome outcome{waiting_.has_value(), running_.has_value()};
  waiting_.reset();
  running_stop_.request_stop();
  return outcome;
}

std::optional<ActiveTask> Worker::active() const {
  const std::lock_guard lock(mutex_);
  if (running_) return running_;
  if (waiting_) return waiting_->about;
  return std::nullopt;
}

bool Worker::idle() const {
  const std::lock_guard lock(mutex_);
  return !running_ && !waiting_;
}

bool Worker::has_waiting() const {
  const std::lock_guard lock(mutex_);
  return waiting_.has_value();
}

void Worker::wait_idle() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return !running_ && !waiting_; });
}

void Worker::set_paused(bool paused) {
  {
    const std::lock_guard lock(mutex_);
    paused_ = paused;
  }
  changed_.notify_all();
}

void Worker::report(WorkProgress progress) {
  const std::lock_guard lock(mutex_);
  progress_ = std::move(progress);
}

WorkProgress Worker::progress() const {
  const std::lock_guard lock(mutex_);
  return progress_;
}

std::optional<std::string> Worker::take_escaped_failure() {
  const std::lock_guard lock(mutex_);
  return std::exchange(escaped_failure_, std::nullopt);
}

void Worker::loop(std::stop_token shutdown) {
  if (nice_ != 0) setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), nice_);
  std::unique_lock lock(mutex_);
  while (changed_.wait(lock, shutdown, [this] { return waiting_.has_value() && !paused_; })) {
    const Entry entry = std::move(*std::exchange(waiting_, std::nullopt));
    running_ = entry.about;
    running_->started = true;
    running_stop_ = std::stop_source();
    const std::stop_token stop = running_stop_.get_token();
    progress_ = {};
    lock.unlock();
    run(entry, stop);
    lock.lock();
    running_.reset();
    changed_.notify_all();
  }
  lock.unlock();
  if (at_exit_) at_exit_();
}

void Worker::run(const Entry& entry, std::stop_token stop) {
  try {
    entry.task(TaskContext{stop, entry.about.id});
  } catch (const std::exception& error) {
    const std::lock_guard lock(mutex_);
    escaped_failure_ = error.what();
  } catch (...) {
    const std::lock_guard lock(mutex_);
    escaped_failure_ = "an unknown error";
  }
}

}  // namespace attnviz
