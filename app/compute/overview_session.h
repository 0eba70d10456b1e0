#pragma once
// OverviewSession: the window's overview of a text past the materialised path's 4,096 tokens
// (core/overview). The Problem is built and every overview computed on a Worker of its own,
// so the frames go on; a new request stops the one in flight (Progress::request_stop, a
// fraction of a second at most) and the window shows a progress bar with a Cancel button
// meanwhile. Row statistics are kept per problem, so zooming and panning skip pass 1.

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/common/worker.h"
#include "core/overview/overview.h"
#include "core/scenario/scenario.h"

namespace attnviz::compute {

struct OverviewAsk {
  overview::CellWindow window;  // empty (0 × 0): the whole matrix
  int pixel_rows = 512;
  int pixel_cols = 512;
  overview::Quantity quantity = overview::Quantity::Weights;
  overview::Pooling pooling = overview::Pooling::Max;
  int head = 0;
  friend bool operator==(const OverviewAsk&, const OverviewAsk&) = default;
};

class OverviewSession {
 public:
  OverviewSession();
  ~OverviewSession();
  OverviewSession(const OverviewSession&) = delete;
  OverviewSession& operator=(const OverviewSession&) = delete;

  // Computes `ask` for the scenario at `revision` (the problem is rebuilt when it changed).
  // Nothing happens when that is what is shown or being computed already, or when this
  // revision's input was refused (error() says why).
  void request(const Scenario& scenario, std::uint64_t revision, const OverviewAsk& ask);
  // Stops the computation in flight; what was shown stays, and the same request is not
  // computed again until request_again() (the Cancelled notice's button) or another request.
  void cancel();
  void request_again();

  [[nodiscard]] bool running() const;
  // Nothing pending or being computed, not even a cancelled job that is still finishing (a
  // problem being built): the session can be destroyed without waiting.
  [[nodiscard]] bool idle() const;
  // Blocks until nothing is pending or being computed: a picture or a measuring run
  // (--screenshot, --stats --frames) shows the overview, not its progress bar.
  void wait_idle();
  [[nodiscard]] double progress() const { return progress_ ? progress_->fraction() : 0.0; }
  [[nodiscard]] bool started() const { return progress_ && progress_->started(); }
  // The latest finished overview and what was asked for it (null before the first).
  [[nodiscard]] std::shared_ptr<const overview::Overview> shown() const;
  [[nodiscard]] OverviewAsk shown_ask() const;
  // The problem the shown overview was computed from (its tokens and settings, for export).
  [[nodiscard]] std::shared_ptr<const Problem> shown_problem() const;
  // Moves on with every finished overview (the heatmap uploads its image once per value).
  [[nodiscard]] std::uint64_t generation() const;
  // The problem's query and key counts (0 before it is built), and its tokens' texts.
  [[nodiscard]] int rows() const;
  [[nodiscard]] int cols() const;
  [[nodiscard]] int heads() const;
  // Why the last request failed ("" when it did not); "cancelled" after cancel().
  [[nodiscard]] std::string error() const;

 private:
  struct Job {
    Scenario scenario;
    std::uint64_t revision = 0;
    OverviewAsk ask;
  };
  void start(const Job& job, const TaskContext& task);
  void run(const Job& job, std::uint64_t id);

  mutable std::mutex mutex_;
  // A cancelled job: the window shows it as stopped at once; whatever it still finishes (a
  // problem being built cannot be interrupted) is dropped.
  std::uint64_t abandoned_id_ = 0;
  std::uint64_t last_revision_ = 0;
  // The revision whose scenario, text or mask was refused (InputError, or the overview's own
  // std::invalid_argument: dropout): another ask of it (a new pixel count as the error's lines
  // move the image) would fail the same way, so none is computed; an edit (a new revision) or
  // request_again() tries again.
  std::optional<std::uint64_t> failed_revision_;
  OverviewAsk last_ask_;
  bool have_last_ = false;
  std::shared_ptr<overview::Progress> progress_;
  // The worker's: the problem and row statistics of last_revision_.
  std::uint64_t problem_revision_ = 0;
  std::shared_ptr<const Problem> problem_;
  std::shared_ptr<const overview::RowStats> stats_;
  // Shown.
  std::shared_ptr<const overview::Overview> shown_;
  OverviewAsk shown_ask_;
  std::shared_ptr<const Problem> shown_problem_;
  std::uint64_t generation_ = 0;
  int rows_ = 0, cols_ = 0, heads_ = 0;
  std::string error_;
  std::unique_ptr<overview::OverviewRunner> runner_;
  // Below the window's own thread: on a machine of two cores the frames keep their pace while
  // the overview takes what is left. Last: stopped and joined before the rest goes.
  Worker worker_{10};
};

}  // namespace attnviz::compute
