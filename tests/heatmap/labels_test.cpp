// How the heatmap widget makes room for labels, with ImGui's built-in font (ProggyClean:
// 13 px, every character 7 px wide), so the widths are known without a window.
#include <gtest/gtest.h>
#include <imgui.h>

#include "app/heatmap/heatmap_widget.h"

namespace attnviz::heatmap {
namespace {

class Labels : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(800, 600);
    io.Fonts->AddFontDefault();
    unsigned char* pixels = nullptr;
    int width = 0;
    int height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    ImGui::NewFrame();
    ASSERT_FLOAT_EQ(ImGui::GetFontSize(), 13.0f);
    ASSERT_FLOAT_EQ(ImGui::CalcTextSize("abcd").x, 28.0f);
  }
  void TearDown() override {
    ImGui::EndFrame();
    ImGui::DestroyContext();
  }
};

TEST_F(Labels, ColumnLabelsAreHorizontalThenStaggeredThenTurned) {
  const std::vector<std::string> labels = {"ab", "cdef"};  // widest 28 px
  const float pad = 4.0f;
  EXPECT_FLOAT_EQ(HeatmapWidget::col_label_height(labels, 40.0f, 100.0f), 13.0f + 2 * pad);      // fits a cell
  EXPECT_FLOAT_EQ(HeatmapWidget::col_label_height(labels, 20.0f, 100.0f), 2 * 13.0f + 2 * pad);  // fits two
  // Turned, at the size labels over 10 px cells are drawn: the cell less a gap (a quarter of
  // 13 px) is below the smallest size, 0.62 of 13 px, so that (and every other label shown).
  const float smallest = 0.62f * 13.0f;
  EXPECT_FLOAT_EQ(HeatmapWidget::col_label_height(labels, 10.0f, 100.0f), 28.0f * smallest / 13.0f + 2 * pad);
  EXPECT_FLOAT_EQ(HeatmapWidget::col_label_height(labels, 10.0f, 15.0f), 15.0f + 2 * pad);  // capped
}

TEST_F(Labels, RowLabelsMakeRoomForTheWidestAndForIndicesWhenThinned) {
  EXPECT_FLOAT_EQ(HeatmapWidget::row_label_width({"a", "abcdef"}, 200.0f), 42.0f + 8.0f);
  EXPECT_FLOAT_EQ(HeatmapWidget::row_label_width({"a", "abcdef"}, 20.0f), 20.0f + 8.0f);
  // 30 tokens may be thinned, and thinned labels read "12 abcdef": room for "30 " too.
  const std::vector<std::string> many(30, "abcdef");
  EXPECT_FLOAT_EQ(HeatmapWidget::row_label_width(many, 200.0f), 42.0f + 21.0f + 8.0f);
}

TEST_F(Labels, EllipsizeKeepsWholeCodePoints) {
  ImFont* font = ImGui::GetFont();
  EXPECT_EQ(ellipsize(font, 13.0f, "short", 100.0f), "short");
  const std::string cut = ellipsize(font, 13.0f, "abcdefghij", 40.0f);
  EXPECT_EQ(cut.rfind("…"), cut.size() - std::string("…").size());
  EXPECT_LE(ImGui::CalcTextSize(cut.c_str()).x, 40.0f);
  // Hangul syllables are 3 bytes each: never cut in the middle of one.
  const std::string korean = ellipsize(font, 13.0f, "치킨을 시켜서 먹었다", 30.0f);
  const std::string body = korean.substr(0, korean.size() - std::string("…").size());
  EXPECT_EQ(body.size() % 3, 0u) << korean;
}

}  // namespace
}  // namespace attnviz::heatmap
