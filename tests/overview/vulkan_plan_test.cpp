// The Vulkan overview's arithmetic: dispatch key ranges and the partial slots of pass 2.

#include <gtest/gtest.h>

#include <cmath>

#include "core/overview/vulkan_plan.h"

namespace attnviz::overview::vulkan {
namespace {

TEST(OverviewVulkanPlan, KeyRangesEndOnPixelColumnsAndCoverEveryKey) {
  const std::vector<KeyRange> ranges = key_ranges(10, 1000, 256, 64, 66);
  ASSERT_FALSE(ranges.empty());
  EXPECT_EQ(ranges.front().begin, 10);
  EXPECT_EQ(ranges.back().end, 1000);
  for (std::size_t r = 0; r + 1 < ranges.size(); ++r) {
    EXPECT_EQ(ranges[r].end, ranges[r + 1].begin);
    EXPECT_EQ((ranges[r].end - 10) % 66, 0) << "a range ends inside a pixel column";
    EXPECT_LE(ranges[r].end - ranges[r].begin, 256);
  }
  // A pixel column wider than a dispatch: ranges of whole tiles (the shader carries the column).
  const std::vector<KeyRange> wide = key_ranges(0, 5000, 1024, 64, 4096);
  EXPECT_EQ(wide.size(), 5u);
  EXPECT_EQ(wide[0].end, 1024);
}

TEST(OverviewVulkanPlan, CpuDevicesKeepEveryLoopUnderLlvmpipesBound) {
  for (const int dk4 : {1, 4, 16, 64}) {
    for (const int block_rows : {1, 2, 66, 1000}) {
      for (const int block_cols : {1, 3, 66, 5000}) {
        const int keys = cpu_device_keys(dk4, 64, block_rows, block_cols, 64);
        EXPECT_EQ(keys % 64, 0);
        EXPECT_LE(static_cast<long long>(keys) * std::max(dk4, 8), 16384 + 64 * 64);
        const int pixel_rows = block_rows > 1 ? (64 + block_rows - 1) / block_rows + 1 : 1;
        if (block_rows > 1) {
          EXPECT_LE((keys / block_cols + 1) * pixel_rows, 16384 + 64 * pixel_rows);
        }
      }
    }
  }
}

TEST(OverviewVulkanPlan, PartialsFoldIntoTheirPixels) {
  // 10 rows in blocks of 3 (4 pixel rows), workgroups of 4 rows: w0 rows 0-3 (pixel rows 0, 1),
  // w1 rows 4-7 (1, 2), w2 rows 8-9 (2, 3). Slots: w + pixel row.
  const PixelGrid grid = PixelGrid::fit({0, 10, 0, 2}, 4, 2);
  ASSERT_EQ(grid.block_rows, 3);
  ASSERT_EQ(partial_slots(grid, 4), 3 + 4);
  std::vector<float> partials(7 * 2, -1.0f);
  auto set = [&](int slot, float a, float b) {
    partials[static_cast<std::size_t>(slot) * 2] = a;
    partials[static_cast<std::size_t>(slot) * 2 + 1] = b;
  };
  set(0, 1, 2);    // w0, pixel row 0
  set(1, 3, 4);    // w0, pixel row 1
  set(2, 5, 6);    // w1, pixel row 1
  set(3, 7, 8);    // w1, pixel row 2
  set(4, 9, 10);   // w2, pixel row 2
  set(5, 11, 12);  // w2, pixel row 3
  std::vector<double> sums;
  fold_partials(grid, 4, false, partials, sums);
  EXPECT_EQ(sums, (std::vector<double>{1, 2, 8, 10, 16, 18, 11, 12}));
  std::vector<double> maxima;
  fold_partials(grid, 4, true, partials, maxima);
  EXPECT_EQ(maxima, (std::vector<double>{1, 2, 5, 6, 9, 10, 11, 12}));
}

}  // namespace
}  // namespace attnviz::overview::vulkan
