// The KV-cache panel's chart: lengths on the x axis, the curves' points in their rectangle, and
// that drawing it into a headless ImGui frame adds the axes and one polyline per curve.
#include <gtest/gtest.h>

#include "app/panels/kv_cache_chart.h"
#include "tests/support/headless_imgui.h"

namespace attnviz::panels {
namespace {

std::vector<decode::SizeCurve> seventy_b_curves(const std::vector<std::uint64_t>& lengths) {
  const decode::KvCachePreset& preset = *decode::find_kv_cache_preset("llama2-70b");
  return decode::size_curves(preset.shape, preset.query_heads, lengths);
}

TEST(KvCacheChart, LengthsRunToTwiceTheChosenOne) {
  EXPECT_EQ(chart_lengths(4096), (std::vector<std::uint64_t>{0, 1024, 2048, 3072, 4096, 5120, 6144, 7168, 8192}));
  EXPECT_EQ(chart_lengths(6).back(), 12u);
  EXPECT_EQ(chart_lengths(6)[4], 6u);
}

TEST(KvCacheChart, PointsSpanTheRectangleWithTheLargestCurveOnTop) {
  const std::vector<std::uint64_t> lengths = chart_lengths(4096);
  const auto lines = chart_points(seventy_b_curves(lengths), lengths, ImVec2(10, 20), ImVec2(110, 220));
  ASSERT_EQ(lines.size(), 3u);                 // MHA, GQA, MQA
  EXPECT_FLOAT_EQ(lines[0].front().x, 10.0f);  // 0 tokens: 0 bytes, bottom left
  EXPECT_FLOAT_EQ(lines[0].front().y, 220.0f);
  EXPECT_FLOAT_EQ(lines[0].back().x, 110.0f);  // MHA at 8192 tokens: the largest, top right
  EXPECT_FLOAT_EQ(lines[0].back().y, 20.0f);
  EXPECT_FLOAT_EQ(lines[1].back().y, 220.0f - 200.0f / 8.0f);   // GQA: 8 of 64 KV heads
  EXPECT_FLOAT_EQ(lines[2].back().y, 220.0f - 200.0f / 64.0f);  // MQA: 1 of 64
  EXPECT_FLOAT_EQ(lines[1][4].x, 60.0f);                        // the chosen length, in the middle
}

TEST(KvCacheChart, DrawsIntoAHeadlessFrame) {
  testing::HeadlessImGui imgui;
  ImGui::NewFrame();
  ImGui::Begin("chart");
  ImDrawList& draw = *ImGui::GetWindowDrawList();
  const int before = draw.VtxBuffer.Size;
  const std::vector<std::uint64_t> lengths = chart_lengths(4096);
  draw_size_chart(draw, seventy_b_curves(lengths), lengths, ImVec2(10, 20), ImVec2(110, 220));
  EXPECT_GT(draw.VtxBuffer.Size, before + 3 * 4);  // three axis lines and three polylines
  ImGui::End();
  ImGui::EndFrame();
}

}  // namespace
}  // namespace attnviz::panels
