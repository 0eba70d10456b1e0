// The Model view's analyses as files (core/export/heads_figures.h): the CSV holds the core's
// numbers, the SVG names the figure's title, axes and labels, and the PNG decodes at the laid-out
// figure's size.

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "core/export/font.h"
#include "core/export/heads_figures.h"
#include "decode_png.h"

namespace attnviz::exporting {
namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

heads::Patching patching() {
  heads::Patching p;
  p.position = 2;
  p.target = 7;
  p.target_token = " Paris";
  p.clean_logit = 5.0;
  p.corrupted_logit = 1.5;
  p.patched = {{5.0, 4.25, 6.5}, {2.0, 5.0, 5.125}};
  return p;
}

// The figure as SVG and as PNG: the SVG's text, and the PNG's size against the layout's.
void expect_drawn(const HeatmapFigure& figure, const std::vector<std::string>& labels) {
  const std::string svg = render_heads_figure(figure, ExportFormat::Svg, nullptr);
  EXPECT_TRUE(svg.starts_with("<?xml") || svg.starts_with("<svg")) << svg.substr(0, 80);
  for (const std::string& label : labels) EXPECT_NE(svg.find(label), std::string::npos) << label;
  const std::string png = render_heads_figure(figure, ExportFormat::Png, nullptr);
  const testing::DecodedImage image = testing::decode_png(png);
  const LaidOutFigure laid = lay_out(figure, export_fonts());
  EXPECT_EQ(image.width, laid.scene.width);
  EXPECT_EQ(image.height, laid.scene.height);
  EXPECT_GT(image.width, 100);
}

TEST(HeadsFigures, PatchingCsvHoldsEveryHeadsLogitAndEffect) {
  const std::vector<std::string> rows = lines(patching_csv(patching()));
  ASSERT_EQ(rows.size(), 7u);
  EXPECT_EQ(rows[0], "layer,head,patched_logit,effect");
  EXPECT_EQ(rows[2], "0,1,4.25,-0.75");
  EXPECT_EQ(rows[4], "1,0,2,-3");
  EXPECT_EQ(rows[6], "1,2,5.125,0.125");
}

TEST(HeadsFigures, PatchingFigureIsLayersByHeadsCentredAtZeroAndLabelled) {
  const HeatmapFigure figure = patching_figure(patching(), {"The", "\u2423Eiffel"}, {"The", "\u2423Colos"});
  ASSERT_EQ(figure.panels.size(), 1u);
  EXPECT_EQ(figure.panels[0].values.rows, 2);
  EXPECT_EQ(figure.panels[0].values.cols, 3);
  EXPECT_FLOAT_EQ(figure.panels[0].values.at(1, 0), -3.0f);
  EXPECT_FLOAT_EQ(figure.range_low, -3.0f);
  EXPECT_FLOAT_EQ(figure.range_high, 3.0f);
  EXPECT_EQ(figure.colormap, ColormapId::RdBu);
  expect_drawn(figure, {"Activation patching", "Paris", "The Eiffel", "L1", "h2", "layer", "head", "effect"});
}

TEST(HeadsFigures, RolesAsCsvAndAsAGridOfOneRole) {
  heads::HeadScores a;
  a.previous_token = 0.75;
  a.entropy = 1.5;
  heads::HeadScores b;
  b.previous_token = 0.25;
  b.induction = 0.5;
  const heads::LayerRoles roles = {{a, b}};
  const std::vector<std::string> rows = lines(roles_csv(roles, {3}));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], "layer,head,previous_token,first_token,self,induction,duplicate,entropy,mean_distance");
  EXPECT_EQ(rows[1], "3,0,0.75,0,0,,,1.5,0");
  EXPECT_EQ(rows[2], "3,1,0.25,0,0,0.5,,0,0");
  const HeatmapFigure figure = roles_figure(roles, {3}, heads::Role::PreviousToken);
  EXPECT_FLOAT_EQ(figure.panels[0].values.at(0, 0), 0.75f);
  expect_drawn(figure, {"previous token", "L3", "h1"});
}

TEST(HeadsFigures, LensAsCsvAndAsLayersByPositions) {
  heads::LogitLens lens;
  heads::LensCell first;
  first.top = {{4, "b", 0.5}};
  first.p_next = 0.25;
  first.rank_next = 1;
  heads::LensCell last;
  last.top = {{5, "c", 0.75}};
  lens.cells = {{first, last}, {first, last}};
  const std::vector<std::string> rows = lines(lens_csv(lens, {"a", "b,c"}));
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0], "layer,position,token,top_token,top_p,p_next,rank_next");
  EXPECT_EQ(rows[1], "0,0,a,b,0.5,0.25,1");
  EXPECT_EQ(rows[2], "0,1,\"b,c\",c,0.75,,");
  const HeatmapFigure figure = lens_figure(lens, {"a", "bc"});
  EXPECT_EQ(figure.row_labels, (std::vector<std::string>{"emb", "L0"}));
  expect_drawn(figure, {"Logit lens", "emb", "L0", "bc", "p(next token)"});
}

TEST(HeadsFigures, AttributionAsCsvInThePassesOrderAndAsAColumnLargestFirst) {
  heads::Attribution a;
  a.position = 1;
  a.target_token = "x";
  a.logit = 2.0;
  heads::AttributionPart embedding;
  embedding.value = 0.5;
  heads::AttributionPart head;
  head.kind = heads::PartKind::Head;
  head.layer = 0;
  head.head = 1;
  head.value = -1.5;
  heads::AttributionPart bias;
  bias.kind = heads::PartKind::FinalBias;
  bias.value = 3.0;
  a.parts = {embedding, head, bias};
  const std::vector<std::string> rows = lines(attribution_csv(a));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0], "kind,layer,head,value");
  EXPECT_EQ(rows[1], "embedding,,,0.5");
  EXPECT_EQ(rows[2], "head,0,1,-1.5");
  EXPECT_EQ(rows[3], "final_bias,,,3");
  const HeatmapFigure figure = attribution_figure(a);
  EXPECT_EQ(figure.row_labels, (std::vector<std::string>{"final bias", "L0 H1", "embeddings"}));
  expect_drawn(figure, {"Direct logit attribution", "final bias", "L0 H1", "embeddings"});
}

}  // namespace
}  // namespace attnviz::exporting
