#pragma once
// Frame-time statistics for --stats (the README's measured frame times): every frame's time
// from one frame's start to the next, and every recompute's time, summarised on exit.

#include <iosfwd>
#include <optional>
#include <vector>

#include "app/window/glfw_window.h"

namespace attnviz::compute {
class ComputeSession;
}

namespace attnviz::desktop {

struct Summary {
  int count = 0;
  double median = 0.0;
  double p90 = 0.0;
  double max = 0.0;
};

// Median, 90th percentile and maximum of `values` after dropping the first `warm_up` (the
// first frames build pipelines and upload fonts). Empty: count 0.
Summary summarise(std::vector<double> values, std::size_t warm_up);

// Milliseconds since this process started (the kernel's start time, so the dynamic loader and
// everything before main count too), to 10 ms; nothing where /proc cannot say.
std::optional<double> ms_since_process_start();

class FrameTimes {
 public:
  void add_frame(double ms) { frames_.push_back(ms); }
  void add_recompute(double ms) { recomputes_.push_back(ms); }
  // A whole frame that recomputed (an edit, a change of shape): what the user waits for.
  void add_recompute_frame(double ms) { recompute_frames_.push_back(ms); }
  void add_ui(double ms) { ui_.push_back(ms); }          // building the UI (CPU)
  void add_render(double ms) { render_.push_back(ms); }  // recording, submitting, presenting
  // When the first frame was presented, from process start ("first frame: N ms" in --stats).
  void set_first_frame(std::optional<double> ms) { first_frame_ms_ = ms; }
  // Allocations (heatmap renderer + compute) after the warm-up frames and at the end.
  void set_allocations(std::uint64_t after_warm_up, std::uint64_t at_end) {
    allocations_warm_ = after_warm_up;
    allocations_end_ = at_end;
  }
  static constexpr std::size_t kWarmUpFrames = 5;
  // The median of the last 30 frames (the status bar), 0 before there are 3.
  [[nodiscard]] double recent_median() const;
  void print(std::ostream& out, window::Extent size, const compute::ComputeSession& session) const;

 private:
  std::vector<double> frames_;
  std::vector<double> recomputes_;
  std::vector<double> recompute_frames_;
  std::vector<double> ui_;
  std::vector<double> render_;
  std::optional<double> first_frame_ms_;
  std::uint64_t allocations_warm_ = 0;
  std::uint64_t allocations_end_ = 0;
};

}  // namespace attnviz::desktop
