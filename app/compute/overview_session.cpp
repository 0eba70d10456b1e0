#include "app/compute/overview_session.h"

#include <exception>
#include <stdexcept>
#include <stop_token>

#include "core/common/error.h"
#include "core/overview/long_text.h"

namespace attnviz::compute {

OverviewSession::OverviewSession() : runner_(overview::make_cpu_overview()) {}

OverviewSession::~OverviewSession() = default;

void OverviewSession::request(const Scenario& scenario, std::uint64_t revision, const OverviewAsk& ask) {
  std::lock_guard lock(mutex_);
  if (have_last_ && last_revision_ == revision && last_ask_ == ask) return;
  if (failed_revision_ == revision) return;
  have_last_ = true;
  last_revision_ = revision;
  last_ask_ = ask;
  // The newer request replaces the one in flight (its stop reaches the overview's Progress).
  worker_.submit([this, job = Job{scenario, revision, ask}](const TaskContext& task) { start(job, task); });
}

void OverviewSession::cancel() {
  std::lock_guard lock(mutex_);
  if (const std::optional<ActiveTask> active = worker_.active(); active && active->started) abandoned_id_ = active->id;
  (void)worker_.cancel();
  error_ = "cancelled";
}

void OverviewSession::request_again() {
  std::lock_guard lock(mutex_);
  have_last_ = false;
  failed_revision_.reset();
  error_.clear();
}

bool OverviewSession::running() const {
  std::lock_guard lock(mutex_);
  const std::optional<ActiveTask> active = worker_.active();
  return active && active->id != abandoned_id_;
}

bool OverviewSession::idle() const { return worker_.idle(); }

void OverviewSession::wait_idle() { worker_.wait_idle(); }

std::shared_ptr<const overview::Overview> OverviewSession::shown() const {
  std::lock_guard lock(mutex_);
  return shown_;
}

OverviewAsk OverviewSession::shown_ask() const {
  std::lock_guard lock(mutex_);
  return shown_ask_;
}

std::shared_ptr<const Problem> OverviewSession::shown_problem() const {
  std::lock_guard lock(mutex_);
  return shown_problem_;
}

std::uint64_t OverviewSession::generation() const {
  std::lock_guard lock(mutex_);
  return generation_;
}

int OverviewSession::rows() const {
  std::lock_guard lock(mutex_);
  return rows_;
}

int OverviewSession::cols() const {
  std::lock_guard lock(mutex_);
  return cols_;
}

int OverviewSession::heads() const {
  std::lock_guard lock(mutex_);
  return heads_;
}

std::string OverviewSession::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

void OverviewSession::start(const Job& job, const TaskContext& task) {
  auto progress = std::make_shared<overview::Progress>();
  {
    std::lock_guard lock(mutex_);
    progress_ = progress;
    if (abandoned_id_ != task.id) error_.clear();
  }
  const std::stop_callback stop_overview(task.stop, [progress] { progress->request_stop(); });
  run(job, task.id);
}

void OverviewSession::run(const Job& job, std::uint64_t id) {
  try {
    if (!problem_ || problem_revision_ != job.revision) {
      problem_ = std::make_shared<const Problem>(overview::build_overview_problem(job.scenario, "<gui>"));
      problem_revision_ = job.revision;
      stats_.reset();
      std::lock_guard lock(mutex_);
      rows_ = problem_->n();
      cols_ = problem_->m();
      heads_ = problem_->num_heads;
    }
    overview::OverviewRequest request;
    const overview::CellWindow& w = job.ask.window;
    if (w.rows() > 0 && w.cols() > 0) request.window = w;
    request.max_pixel_rows = job.ask.pixel_rows;
    request.max_pixel_cols = job.ask.pixel_cols;
    request.quantity = job.ask.quantity;
    request.pooling = job.ask.pooling;
    request.heads = {std::min(job.ask.head, problem_->num_heads - 1)};
    request.known_stats = stats_;
    std::shared_ptr<overview::Progress> progress;
    {
      std::lock_guard lock(mutex_);
      progress = progress_;
    }
    auto result = std::make_shared<overview::Overview>(runner_->run(*problem_, request, progress.get()));
    // Statistics of every row are worth keeping: any window's rows are among them.
    if (result->stats && result->stats->row_begin == 0 && result->stats->row_end == problem_->n()) {
      auto merged =
          std::make_shared<overview::RowStats>(stats_ ? *stats_ : overview::RowStats{0, problem_->n(), {}, {}});
      merged->m.resize(static_cast<std::size_t>(problem_->num_heads));
      merged->l.resize(static_cast<std::size_t>(problem_->num_heads));
      for (const overview::PooledImage& image : result->heads) {
        merged->m[static_cast<std::size_t>(image.head)] = result->stats->m[static_cast<std::size_t>(image.head)];
        merged->l[static_cast<std::size_t>(image.head)] = result->stats->l[static_cast<std::size_t>(image.head)];
      }
      stats_ = std::move(merged);
    }
    std::lock_guard lock(mutex_);
    if (id == abandoned_id_) return;  // cancelled while it could not stop
    shown_ = std::move(result);
    shown_ask_ = job.ask;
    shown_problem_ = problem_;
    ++generation_;
  } catch (const overview::Cancelled&) {
    // Stopped by cancel() (which said so) or replaced by a newer request: nothing to show.
  } catch (const InputError& e) {
    // The window's own input, and the mask's errors ("<mask>": what the user typed too), say
    // where without an origin.
    std::lock_guard lock(mutex_);
    error_ = e.message_for(e.origin() == "<mask>" ? "<mask>" : "<gui>");
    failed_revision_ = job.revision;
  } catch (const std::invalid_argument& e) {
    // What the overview refuses of this revision's problem (dropout): the same for every ask.
    std::lock_guard lock(mutex_);
    error_ = e.what();
    failed_revision_ = job.revision;
  } catch (const std::exception& e) {
    std::lock_guard lock(mutex_);
    error_ = e.what();
  }
}

}  // namespace attnviz::compute
