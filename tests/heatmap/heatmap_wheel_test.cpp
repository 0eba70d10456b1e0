// The mouse wheel over a heatmap: it zooms a heatmap that has a zoom, and scrolls the window
// around any other (a classroom page, the Mask panel) as it does everywhere else. Dear ImGui
// runs here without a window or GPU (its font atlas built, nothing rendered); the heatmap's
// mouse target is the widget's own (heatmap_item).
#include <gtest/gtest.h>
#include <imgui.h>

#include "app/heatmap/heatmap_widget.h"
#include "tests/support/headless_imgui.h"

namespace attnviz::heatmap {
namespace {

class WheelPage {
 public:
  // One frame of a 300 × 200 window whose content (a 200 × 120 heatmap at the top, then 1000
  // pixels more) scrolls, the mouse over the heatmap and the wheel turned by `wheel`.
  // Returns the window's scroll after the frame.
  float frame(const HeatmapSpec& spec, float wheel) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(60.0f, 60.0f);
    io.MouseWheel = wheel;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
    ImGui::SetNextWindowSize(ImVec2(300.0f, 200.0f));
    ImGui::Begin("page", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoSavedSettings);
    heatmap_item(spec, 200.0f, 120.0f);
    ImGui::Dummy(ImVec2(10.0f, 1000.0f));
    const float scroll = ImGui::GetScrollY();
    ImGui::End();
    ImGui::Render();
    return scroll;
  }

  // Settles hovering (ImGui decides who owns the wheel from the frame before), turns the wheel
  // down one notch, and returns the scroll once it has been applied.
  float scroll_after_wheel(const HeatmapSpec& spec) {
    for (int i = 0; i < 3; ++i) frame(spec, 0.0f);
    frame(spec, -1.0f);
    return frame(spec, 0.0f);
  }

 private:
  testing::HeadlessImGui imgui_;
};

TEST(HeatmapWheel, WithoutAZoomTheWheelScrollsTheWindow) {
  WheelPage imgui;
  HeatmapSpec spec;  // spec.zoom == nullptr: a classroom page's heatmap
  EXPECT_GT(imgui.scroll_after_wheel(spec), 0.0f);
}

TEST(HeatmapWheel, AZoomableHeatmapKeepsTheWheelForZooming) {
  WheelPage imgui;
  CellWindow zoom{0.0f, 0.0f, 0.0f, 0.0f};
  HeatmapSpec spec;
  spec.zoom = &zoom;
  EXPECT_EQ(imgui.scroll_after_wheel(spec), 0.0f);
}

}  // namespace
}  // namespace attnviz::heatmap
