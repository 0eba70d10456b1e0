// The size and place a window opens at: the default fitted to the screen, a remembered place
// only where it still lies on a monitor.
#include <gtest/gtest.h>

#include "app/window/glfw_window.h"

namespace attnviz::window {
namespace {

TEST(WindowSize, TheDefaultFitsTheScreenItOpensOn) {
  EXPECT_EQ(fitted_size({1600, 1000}, {1920, 1200}), (Extent{1600, 1000}));
  EXPECT_EQ(fitted_size({1600, 1000}, {1920, 1080}).width, 1600) << "only the height is short there";
  // A 1280 × 720 projector: 1600 × 1000 ran off it.
  const Extent projector = fitted_size({1600, 1000}, {1280, 720});
  EXPECT_LE(projector.width, 1280);
  EXPECT_LE(projector.height + 40, 720) << "room for the title bar";
  EXPECT_GT(projector.width, 1200);
  EXPECT_EQ(fitted_size({1600, 1000}, {0, 0}), (Extent{1600, 1000})) << "no work area known: as asked";
  EXPECT_EQ(fitted_size({1600, 1000}, {200, 100}), (Extent{320, 240})) << "never below the smallest window";
}

TEST(WindowSize, ARememberedPlaceMustLieWhollyOnAMonitor) {
  const std::vector<WindowPlacement> two_monitors = {{0, 0, 1920, 1050}, {1920, 0, 1280, 720}};
  EXPECT_TRUE(placement_fits({100, 80, 1600, 900}, two_monitors));
  EXPECT_TRUE(placement_fits({2000, 50, 1200, 600}, two_monitors)) << "on the second monitor";
  EXPECT_FALSE(placement_fits({2000, 50, 1600, 900}, two_monitors)) << "past the second monitor's edge";
  EXPECT_FALSE(placement_fits({4000, 50, 800, 600}, two_monitors)) << "on a monitor unplugged since";
  EXPECT_FALSE(placement_fits({100, 80, 100, 80}, two_monitors)) << "too small to be a window of ours";
  EXPECT_FALSE(placement_fits({100, 80, 800, 600}, {})) << "no monitor known";
}

}  // namespace
}  // namespace attnviz::window
