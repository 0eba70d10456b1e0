// The overview's figure (core/overview/overview_export.cpp): how large the pooled map is drawn
// and what its subtitle says.

#include "core/overview/overview_export.h"

#include <gtest/gtest.h>

#include "core/export/font.h"
#include "core/overview/overview.h"
#include "tests/attention/random_problem.h"
#include "tests/support/fullwidth_wording.h"

namespace attnviz::testing {
namespace {

overview::Overview pooled(int tokens, int pixels, PositionalKind positional = PositionalKind::None) {
  ProblemShape shape;
  shape.n = shape.m = tokens;
  shape.d_model = 4;
  shape.d_k = 2;
  shape.heads = 1;
  TestRandom random(3);
  Problem p = random_problem(random, shape);
  p.positional = positional;
  overview::OverviewRequest request;
  request.max_pixel_rows = request.max_pixel_cols = pixels;
  return overview::make_cpu_overview()->run(p, request);
}

TEST(OverviewFigure, TheMapIsAtLeastThreeInchesInWholePixelsPerBlock) {
  // 64 blocks: each 15 image pixels, 960 at 300 dpi (the map was 200 pixels under a title
  // several times as wide); 1000 blocks: one pixel each.
  overview::OverviewExportOptions options;
  const exporting::HeatmapFigure small = overview::overview_figure(pooled(640, 64), 0, {}, options);
  ASSERT_TRUE(small.cell_px.has_value());
  EXPECT_EQ(*small.cell_px, 15);
  const exporting::HeatmapFigure large = overview::overview_figure(pooled(2000, 1000), 0, {}, options);
  EXPECT_EQ(large.cell_px, 1);
  options.dpi = 100;  // three inches are 300 pixels
  EXPECT_EQ(overview::overview_figure(pooled(640, 64), 0, {}, options).cell_px, 5);
}

TEST(OverviewFigure, TheSubtitleNamesThePositions) {
  exporting::ExportCaption caption;
  caption.positions = "ALiBi";
  const exporting::HeatmapFigure figure =
      overview::overview_figure(pooled(300, 30, PositionalKind::Alibi), 0, caption, {});
  EXPECT_NE(figure.subtitle.find(" · ALiBi"), std::string::npos) << figure.subtitle;
}

// Issue 49: an overview exported from a Korean window speaks Korean. With a Wording that writes
// every message in fullwidth letters, no ASCII word is left in the figure or in what its layout
// adds (the blocks' note), pooled or cell by cell, weights or scores.
TEST(OverviewFigure, EveryWordGoesThroughTheWording) {
  overview::OverviewExportOptions options;
  options.wording = fullwidth_wording();
  Problem problem;
  problem.d_k = 4;
  problem.scale = 0.5f;
  problem.mask.causal = true;
  problem.positional = PositionalKind::Rope;
  const exporting::ExportCaption caption = exporting::describe_for_export({}, problem, options.wording);
  for (const int pixels : {64, 640}) {
    const exporting::HeatmapFigure figure = overview::overview_figure(pooled(640, pixels), 0, caption, options);
    std::vector<std::string> texts = {figure.subtitle, figure.row_axis_title, figure.col_axis_title,
                                      figure.colorbar_label, figure.masked_legend};
    texts.insert(texts.end(), figure.notes.begin(), figure.notes.end());
    for (const exporting::Shape& shape : exporting::lay_out(figure, exporting::export_fonts()).scene.shapes) {
      if (const auto* text = std::get_if<exporting::TextItem>(&shape)) texts.push_back(text->text);
    }
    EXPECT_EQ(ascii_words(texts), std::vector<std::string>{}) << pixels << " pixels";
  }
}

}  // namespace
}  // namespace attnviz::testing
