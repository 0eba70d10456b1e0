#include "app/compute/query_row_session.h"

#include <exception>

namespace attnviz::compute {

QueryRowSession::QueryRowSession() : runner_(overview::make_cpu_overview()) {}

QueryRowSession::~QueryRowSession() = default;

void QueryRowSession::request(std::shared_ptr<const Problem> problem, int head, int query) {
  Ask ask{std::move(problem), head, query};
  {
    const std::lock_guard lock(mutex_);
    if (asked_ && asked_->same(ask)) return;
    asked_ = ask;
    done_ = false;
    row_.reset();
    error_.clear();
  }
  // A row cannot stop part way: one in flight finishes and is dropped by compute().
  worker_.submit([this, ask = std::move(ask)](const TaskContext&) mutable { compute(std::move(ask)); });
}

void QueryRowSession::clear() {
  worker_.cancel();
  const std::lock_guard lock(mutex_);
  asked_.reset();
  row_.reset();
  done_ = false;
  error_.clear();
}

std::shared_ptr<const overview::QueryRow> QueryRowSession::row() const {
  const std::lock_guard lock(mutex_);
  return done_ ? row_ : nullptr;
}

bool QueryRowSession::running() const {
  const std::lock_guard lock(mutex_);
  return asked_ && !done_ && !worker_.idle();
}

std::string QueryRowSession::error() const {
  const std::lock_guard lock(mutex_);
  return error_;
}

void QueryRowSession::compute(Ask ask) {
  std::shared_ptr<const overview::QueryRow> row;
  std::string error;
  try {
    row = std::make_shared<const overview::QueryRow>(overview::query_row(*runner_, *ask.problem, ask.head, ask.query));
  } catch (const std::exception& e) {
    error = e.what();
  }
  // Let go of the problem before the row is seen: whoever asked may be the last to hold it.
  const Problem* computed = ask.problem.get();
  ask.problem.reset();
  const std::lock_guard lock(mutex_);
  // Asked for another meanwhile (a newer ask waits in the worker, so `computed` cannot be a
  // newer problem at the same address).
  const bool current =
      asked_ && asked_->problem.get() == computed && asked_->head == ask.head && asked_->query == ask.query;
  if (!current || worker_.has_waiting()) return;
  row_ = std::move(row);
  error_ = std::move(error);
  done_ = true;
}

}  // namespace attnviz::compute
