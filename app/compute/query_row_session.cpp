#include "app/compute/query_row_session.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <exception>

namespace attnviz::compute {

QueryRowSession::QueryRowSession() : runner_(overview::make_cpu_overview()), worker_([this] { work(); }) {}

QueryRowSession::~QueryRowSession() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
    pending_.reset();
  }
  wake_.notify_all();
  worker_.join();
}

void QueryRowSession::request(std::shared_ptr<const Problem> problem, int head, int query) {
  Ask ask{std::move(problem), head, query};
  std::lock_guard lock(mutex_);
  if (asked_ && asked_->same(ask)) return;
  asked_ = ask;
  pending_ = std::move(ask);
  done_ = false;
  row_.reset();
  error_.clear();
  wake_.notify_all();
}

void QueryRowSession::clear() {
  std::lock_guard lock(mutex_);
  asked_.reset();
  pending_.reset();
  row_.reset();
  done_ = false;
  error_.clear();
}

std::shared_ptr<const overview::QueryRow> QueryRowSession::row() const {
  std::lock_guard lock(mutex_);
  return done_ ? row_ : nullptr;
}

bool QueryRowSession::running() const {
  std::lock_guard lock(mutex_);
  return pending_.has_value() || (busy_ && !done_);
}

std::string QueryRowSession::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

void QueryRowSession::work() {
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);  // as the overview's worker
  while (true) {
    Ask ask;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return quit_ || pending_.has_value(); });
      if (quit_) return;
      ask = std::move(*pending_);
      pending_.reset();
      busy_ = true;
    }
    std::shared_ptr<const overview::QueryRow> row;
    std::string error;
    try {
      row =
          std::make_shared<const overview::QueryRow>(overview::query_row(*runner_, *ask.problem, ask.head, ask.query));
    } catch (const std::exception& e) {
      error = e.what();
    }
    // Let go of the problem before the row is seen: whoever asked may be the last to hold it.
    const Problem* computed = ask.problem.get();
    ask.problem.reset();
    std::lock_guard lock(mutex_);
    busy_ = false;
    // Asked for another meanwhile (a newer ask waits in pending_, so `computed` cannot be a
    // newer problem at the same address).
    const bool current =
        asked_ && asked_->problem.get() == computed && asked_->head == ask.head && asked_->query == ask.query;
    if (!current || pending_) continue;
    row_ = std::move(row);
    error_ = std::move(error);
    done_ = true;
  }
}

}  // namespace attnviz::compute
