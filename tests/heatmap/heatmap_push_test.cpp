// HeatmapPush (app/heatmap/heatmap_pipeline.h) against the block heatmap.vert and heatmap.frag
// were compiled with, its mask member laid out as the mask's own MaskParams.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "app/heatmap/heatmap_pipeline.h"
#include "attnviz_display_shaders.h"
#include "tests/gpu/spirv_layout.h"

namespace attnviz::heatmap {
namespace {

using Offsets = std::vector<std::uint32_t>;

TEST(HeatmapPush, MatchesTheShadersBlock) {
  const Offsets members = {
      offsetof(HeatmapPush, rect),        offsetof(HeatmapPush, view),      offsetof(HeatmapPush, framebuffer),
      offsetof(HeatmapPush, range_min),   offsetof(HeatmapPush, range_max), offsetof(HeatmapPush, rows),
      offsetof(HeatmapPush, cols),        offsetof(HeatmapPush, row_pitch), offsetof(HeatmapPush, first),
      offsetof(HeatmapPush, value_scale), offsetof(HeatmapPush, colormap),  offsetof(HeatmapPush, flags),
      offsetof(HeatmapPush, hatch),       offsetof(HeatmapPush, mask),      offsetof(HeatmapPush, distance_bias),
      offsetof(HeatmapPush, kept_first)};
  const Offsets mask = {offsetof(MaskParams, rows),        offsetof(MaskParams, cols),
                        offsetof(MaskParams, causal),      offsetof(MaskParams, window),
                        offsetof(MaskParams, has_globals), offsetof(MaskParams, list_offset),
                        offsetof(MaskParams, list_count),  offsetof(MaskParams, runs_offset),
                        offsetof(MaskParams, head_stride), offsetof(MaskParams, head)};
  for (const auto spirv : {shaders::heatmap_vert(), shaders::heatmap_frag()}) {
    const testing::PushLayout layout = testing::push_constant_layout(spirv);
    EXPECT_EQ(layout.offsets, members);
    ASSERT_EQ(layout.nested.size(), members.size());
    EXPECT_EQ(layout.nested[13], mask);
    EXPECT_LE(sizeof(HeatmapPush), 128u) << "Vulkan guarantees 128 bytes of push constants";
  }
}

}  // namespace
}  // namespace attnviz::heatmap
