#include "app/desktop/frame_times.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <ostream>
#include <sstream>
#include <string>

#include "app/compute/compute_session.h"

namespace attnviz::desktop {
namespace {

// The value below which a fraction q of the sorted values lie (nearest rank).
double quantile(const std::vector<double>& sorted, double q) {
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

void print_summary(std::ostream& out, const char* what, const Summary& s) {
  out << what << ": " << s.count << ", median " << s.median << " ms, 90th percentile " << s.p90 << " ms, max " << s.max
      << " ms\n";
}

}  // namespace

std::optional<double> ms_since_process_start() {
  // Field 22 of /proc/self/stat, after the command name in parentheses (which may hold spaces
  // and parentheses itself): the start in clock ticks since boot.
  std::ifstream in("/proc/self/stat");
  const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t name_end = stat.rfind(')');
  if (name_end == std::string::npos) return std::nullopt;
  std::istringstream fields(stat.substr(name_end + 1));
  std::string field;
  int number = 2;  // the command name's
  while (number < 22 && fields >> field) ++number;
  const long ticks_per_second = sysconf(_SC_CLK_TCK);
  timespec now{};
  if (number != 22 || ticks_per_second <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) != 0) return std::nullopt;
  const double started_s = std::stod(field) / static_cast<double>(ticks_per_second);
  const double now_s = static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
  return (now_s - started_s) * 1000.0;
}

Summary summarise(std::vector<double> values, std::size_t warm_up) {
  Summary summary;
  if (values.size() <= warm_up) return summary;
  values.erase(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(warm_up));
  std::sort(values.begin(), values.end());
  summary.count = static_cast<int>(values.size());
  summary.median = quantile(values, 0.5);
  summary.p90 = quantile(values, 0.9);
  summary.max = values.back();
  return summary;
}

double FrameTimes::recent_median() const {
  constexpr std::size_t kRecent = 30;
  if (frames_.size() < 3) return 0.0;
  const std::size_t first = frames_.size() > kRecent ? frames_.size() - kRecent : 0;
  std::vector<double> recent(frames_.begin() + static_cast<std::ptrdiff_t>(first), frames_.end());
  std::nth_element(recent.begin(), recent.begin() + static_cast<std::ptrdiff_t>(recent.size() / 2), recent.end());
  return recent[recent.size() / 2];
}

void FrameTimes::print(std::ostream& out, window::Extent size, const compute::ComputeSession& session) const {
  out << std::fixed << std::setprecision(2);
  out << "window " << size.width << "x" << size.height;
  if (session.has_result()) {
    const Problem& p = session.problem();
    out << ", " << p.n() << " tokens, " << p.num_heads << " heads, d_k " << p.d_k;
  }
  out << ", computed by " << session.shown_backend() << " ("
      << (session.vulkan_status().ran ? session.vulkan_status().device : session.cpu_status().device) << ")\n";
  if (first_frame_ms_) out << "first frame: " << std::lround(*first_frame_ms_) << " ms (from process start)\n";
  print_summary(out, "frames (after 5 warm-up frames)", summarise(frames_, FrameTimes::kWarmUpFrames));
  print_summary(out, "  of which building the UI", summarise(ui_, kWarmUpFrames));
  print_summary(out, "  of which drawing and presenting", summarise(render_, kWarmUpFrames));
  print_summary(out, "recomputes", summarise(recomputes_, 0));
  // The first is the start's (nothing on screen yet): left out like the warm-up frames.
  print_summary(out, "frames that recomputed (after the first)", summarise(recompute_frames_, 1));
  out << "allocations after the warm-up frames: " << allocations_end_ - allocations_warm_ << "\n";
  out << std::defaultfloat;
}

}  // namespace attnviz::desktop
