#include "app/desktop/frame_times.h"

#include <gtest/gtest.h>

#include <optional>

namespace attnviz::desktop {
namespace {

TEST(Summarise, DropsTheWarmUpThenMedianPercentileMax) {
  std::vector<double> times = {500.0, 400.0};  // warm-up: pipelines, fonts
  for (int i = 1; i <= 10; ++i) times.push_back(static_cast<double>(i));
  const Summary s = summarise(times, 2);
  EXPECT_EQ(s.count, 10);
  EXPECT_DOUBLE_EQ(s.median, 5.0);  // nearest rank: the 5th of 1..10
  EXPECT_DOUBLE_EQ(s.p90, 9.0);
  EXPECT_DOUBLE_EQ(s.max, 10.0);
  EXPECT_EQ(summarise({1.0, 2.0}, 2).count, 0);
}

TEST(FrameTimes, RecentMedianNeedsThreeFrames) {
  FrameTimes times;
  times.add_frame(10.0);
  times.add_frame(30.0);
  EXPECT_EQ(times.recent_median(), 0.0);
  times.add_frame(20.0);
  EXPECT_EQ(times.recent_median(), 20.0);
}

// --stats's "first frame: N ms" counts from the process's start as the kernel recorded it: this
// test binary started before the test ran, and not hours ago.
TEST(FrameTimes, TimeSinceTheProcessStarted) {
  const std::optional<double> first = ms_since_process_start();
  ASSERT_TRUE(first.has_value());
  EXPECT_GE(*first, 0.0);
  EXPECT_LT(*first, 600'000.0);
  const std::optional<double> second = ms_since_process_start();
  ASSERT_TRUE(second.has_value());
  EXPECT_GE(*second, *first);
}

}  // namespace
}  // namespace attnviz::desktop
