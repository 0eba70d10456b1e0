// Heatmap images as a reader sees them: PNGs decoded with stb_image, SVGs parsed as XML.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/export/export.h"
#include "core/export/png_writer.h"
#include "core/export/svg_writer.h"
#include "tests/export/decode_png.h"
#include "tests/export/export_fixtures.h"

namespace attnviz::exporting {
namespace {

struct Rendered {
  LaidOutFigure laid;
  std::string png;
  testing::DecodedImage image;
};

Rendered render(const HeatmapFigure& figure) {
  Rendered rendered{lay_out(figure, export_fonts()), "", {}};
  rendered.png = encode_png(rasterize(rendered.laid.scene, export_fonts()), figure.dpi);
  rendered.image = testing::decode_png(rendered.png);
  return rendered;
}

class Figures : public ::testing::Test {
 protected:
  void SetUp() override {
    problem_ = testing::hot_cell_problem();
    result_ = testing::compute_cpu(problem_);
    source_ = {&result_, nullptr, nullptr, testing::caption_for(problem_)};
  }

  HeatmapFigure weights_figure(const ExportRequest& request = {}) const {
    return make_figure(request, source_, Quantity::Weights, {0});
  }

  Problem problem_;
  Result result_;
  ExportSource source_;
};

// The colormap entry at a cell, read away from its centre (where a value may be written).
int entry_at_cell(const Rendered& rendered, const ColormapId map, int row, int col) {
  const PanelGeometry& panel = rendered.laid.geometry.panels.front();
  const int cell = rendered.laid.geometry.cell_px;
  const int x = panel.matrix_x + col * cell + cell / 8;
  const int y = panel.matrix_y + row * cell + cell / 8;
  const auto [entry, distance] = testing::nearest_entry(colormap(map), rendered.image.at(x, y));
  EXPECT_LE(distance, 3) << "cell " << row << "," << col << " is not a colormap colour";
  return entry;
}

TEST_F(Figures, PngHasTheLaidOutSizeAndItsDpi) {
  ExportRequest request;
  request.dpi = 150;
  const Rendered rendered = render(weights_figure(request));
  EXPECT_EQ(rendered.image.width, rendered.laid.scene.width);
  EXPECT_EQ(rendered.image.height, rendered.laid.scene.height);
  EXPECT_EQ(testing::phys_pixels_per_metre(rendered.png), 5906);  // 150 / 0.0254, rounded
  // Four tokens at the default 28 pt per cell: 28 · 150/72 ≈ 58 pixels, widened (by a quarter at
  // most) so that 고파서 stands upright with half an em to its neighbours.
  EXPECT_GE(rendered.laid.geometry.cell_px, 58);
  EXPECT_LE(rendered.laid.geometry.cell_px, 73);
  EXPECT_FALSE(rendered.laid.geometry.column_labels_vertical);
  EXPECT_GT(rendered.image.width, 4 * 58);
}

TEST_F(Figures, TheHotCellIsTheHottestInTheImage) {
  for (const ValuesMode values : {ValuesMode::Off, ValuesMode::On}) {
    ExportRequest request;
    request.values = values;
    const Rendered rendered = render(weights_figure(request));
    int hottest = -1;
    std::pair<int, int> where{-1, -1};
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) {
        const int entry = entry_at_cell(rendered, ColormapId::Viridis, r, c);
        if (entry > hottest) {
          hottest = entry;
          where = {r, c};
        }
      }
    }
    EXPECT_EQ(where, std::make_pair(2, 1));
    EXPECT_EQ(hottest, 255);  // the auto range ends at the largest weight
    EXPECT_EQ(rendered.laid.geometry.values_shown, values == ValuesMode::On);
  }
}

std::array<int, 3> eight_bit(Rgb colour) {
  return {static_cast<int>(std::lround(colour.r * 255)), static_cast<int>(std::lround(colour.g * 255)),
          static_cast<int>(std::lround(colour.b * 255))};
}

TEST_F(Figures, ColorbarRunsMonotonicallyThroughTheColormap) {
  for (const ColormapId map : {ColormapId::Viridis, ColormapId::Magma, ColormapId::Cividis, ColormapId::RdBu}) {
    ExportRequest request;
    request.colormap = map;
    const Rendered rendered = render(weights_figure(request));
    ASSERT_TRUE(rendered.laid.geometry.colorbar.has_value());
    const ColourRamp& bar = *rendered.laid.geometry.colorbar;
    EXPECT_GE(bar.h, 256);
    int previous = 256;
    std::set<int> seen;
    for (int y = bar.y; y < bar.y + bar.h; ++y) {
      const auto [entry, distance] = testing::nearest_entry(colormap(map), rendered.image.at(bar.x + bar.w / 2, y));
      EXPECT_LE(distance, 3) << colormap(map).name() << " row " << y;
      if (map != ColormapId::RdBu) {
        EXPECT_LE(entry, previous) << colormap(map).name() << " row " << y;  // top = high end
      }
      previous = entry;
      seen.insert(entry);
    }
    const int top = testing::nearest_entry(colormap(map), rendered.image.at(bar.x + bar.w / 2, bar.y)).first;
    const int bottom =
        testing::nearest_entry(colormap(map), rendered.image.at(bar.x + bar.w / 2, bar.y + bar.h - 1)).first;
    EXPECT_EQ(top, 255) << colormap(map).name();
    EXPECT_EQ(bottom, 0) << colormap(map).name();
    // Every entry shows (neighbouring entries that round to the same 8-bit colour count once).
    std::set<int> distinct;
    for (int i = 0; i < Colormap::kEntries; ++i) {
      distinct.insert(
          testing::nearest_entry(colormap(map), eight_bit(colormap(map).table()[static_cast<std::size_t>(i)])).first);
    }
    EXPECT_EQ(seen, distinct) << colormap(map).name();
  }
}

TEST_F(Figures, MaskedCellsAreGreyHatchedNeverTheColormapsLowEnd) {
  problem_ = testing::hot_cell_problem(true);
  result_ = testing::compute_cpu(problem_);
  source_.result = &result_;
  ExportRequest request;
  request.values = ValuesMode::Off;
  const Rendered rendered = render(weights_figure(request));
  const PanelGeometry& panel = rendered.laid.geometry.panels.front();
  const int cell = rendered.laid.geometry.cell_px;
  const std::array<int, 3> low_pixel = eight_bit(colormap(ColormapId::Viridis).at(0.0f));
  // (0, 3) is masked: every pixel grey (r = g = b), light and dark stripes both present.
  std::set<int> greys;
  for (int y = panel.matrix_y; y < panel.matrix_y + cell; ++y) {
    for (int x = panel.matrix_x + 3 * cell; x < panel.matrix_x + 4 * cell; ++x) {
      const auto pixel = rendered.image.at(x, y);
      ASSERT_EQ(pixel[0], pixel[1]);
      ASSERT_EQ(pixel[1], pixel[2]);
      ASSERT_NE(pixel, low_pixel);
      greys.insert(pixel[0]);
    }
  }
  EXPECT_GE(greys.size(), 2u);
  // A visible cell with weight 0.25 is a colormap colour.
  EXPECT_LE(testing::nearest_entry(colormap(ColormapId::Viridis),
                                   rendered.image.at(panel.matrix_x + cell / 8, panel.matrix_y + cell / 8))
                .second,
            3);
}

// Every row label is drawn: dark pixels left of the matrix on each row (Hangul needs a font
// that has it; the labels here are Korean).
TEST_F(Figures, KoreanTokenLabelsAreDrawnOnBothAxes) {
  EXPECT_TRUE(export_fonts().regular->has_glyph(U'어'));
  // The signs of pretrained models' token labels: a space, a line break, a tab.
  for (const char32_t sign : {U'\u2423', U'\u21B5', U'\u21E5'}) EXPECT_TRUE(export_fonts().regular->has_glyph(sign));
  const Rendered rendered = render(weights_figure());
  const PanelGeometry& panel = rendered.laid.geometry.panels.front();
  const int cell = rendered.laid.geometry.cell_px;
  auto dark_pixels = [&](int x0, int x1, int y0, int y1) {
    int count = 0;
    for (int y = y0; y < y1; ++y) {
      for (int x = x0; x < x1; ++x) {
        const auto p = rendered.image.at(x, y);
        if (p[0] + p[1] + p[2] < 200) ++count;
      }
    }
    return count;
  };
  for (int r = 0; r < 4; ++r) {
    EXPECT_GT(dark_pixels(std::max(0, panel.matrix_x - 4 * cell), panel.matrix_x - 2, panel.matrix_y + r * cell,
                          panel.matrix_y + (r + 1) * cell),
              20)
        << "row label " << r;
  }
  for (int c = 0; c < 4; ++c) {
    EXPECT_GT(dark_pixels(panel.matrix_x + c * cell, panel.matrix_x + (c + 1) * cell,
                          std::max(0, panel.matrix_y - 2 * cell), panel.matrix_y - 2),
              20)
        << "column label " << c;
  }
  std::vector<std::string> texts;
  for (const Shape& shape : rendered.laid.scene.shapes) {
    if (const auto* text = std::get_if<TextItem>(&shape)) texts.push_back(text->text);
  }
  EXPECT_EQ(std::count(texts.begin(), texts.end(), "배가"), 2);  // a row label and a column label
}

TEST_F(Figures, ValuesInCellsUpTo24TokensAndOnlyWhenTheyFit) {
  for (const int n : {4, 24, 25, 60}) {
    const Result result = testing::synthetic_result(n, 1);
    const ExportSource source{&result, nullptr, nullptr, testing::caption_for(testing::hot_cell_problem())};
    const LaidOutFigure laid = lay_out(make_figure({}, source, Quantity::Weights, {0}), export_fonts());
    EXPECT_EQ(laid.geometry.values_shown, n <= 24) << n << " tokens";
  }
  ExportRequest tiny;
  tiny.cell_px = 6;
  tiny.values = ValuesMode::On;
  EXPECT_FALSE(lay_out(weights_figure(tiny), export_fonts()).geometry.values_shown);  // 6 px: no room
}

TEST_F(Figures, LongColumnLabelsStandUpAndManyTokensThinTheLabels) {
  Result result = testing::synthetic_result(6, 1);
  for (std::string& token : result.source_tokens) token = "a-rather-long-" + token;
  const ExportSource source{&result, nullptr, nullptr, testing::caption_for(testing::hot_cell_problem())};
  EXPECT_TRUE(lay_out(make_figure({}, source, Quantity::Weights, {0}), export_fonts()).geometry.column_labels_vertical);
  EXPECT_FALSE(lay_out(weights_figure(), export_fonts()).geometry.column_labels_vertical);

  const Result long_result = testing::synthetic_result(300, 1);
  const ExportSource long_source{&long_result, nullptr, nullptr, testing::caption_for(testing::hot_cell_problem())};
  ExportRequest request;
  request.dpi = 72;
  const LaidOutFigure laid = lay_out(make_figure(request, long_source, Quantity::Weights, {0}), export_fonts());
  EXPECT_GT(laid.geometry.label_step, 1);
  EXPECT_TRUE(laid.geometry.column_labels_vertical);
}

TEST_F(Figures, GridShowsEveryHeadWithOneSharedColorbar) {
  const Result result = testing::synthetic_result(5, 4);
  const ExportSource source{&result, nullptr, nullptr, testing::caption_for(testing::hot_cell_problem())};
  ExportRequest request;
  request.grid = true;
  const HeatmapFigure figure = make_figure(request, source, Quantity::Scores, {0, 1, 2, 3});
  EXPECT_EQ(figure.grid_columns, 2);
  const LaidOutFigure laid = lay_out(figure, export_fonts());
  ASSERT_EQ(laid.geometry.panels.size(), 4u);
  const long ramps = std::count_if(laid.scene.shapes.begin(), laid.scene.shapes.end(),
                                   [](const Shape& s) { return std::holds_alternative<ColourRamp>(s); });
  EXPECT_EQ(ramps, 1);
  // Shared range: the largest |score| over all heads (head 3: 3 + 2 = 5).
  EXPECT_FLOAT_EQ(figure.range_high, 5.0f);
  EXPECT_FLOAT_EQ(figure.range_low, -5.0f);
  // Panels do not overlap.
  EXPECT_LT(laid.geometry.panels[0].matrix_x + 5 * laid.geometry.cell_px, laid.geometry.panels[1].matrix_x);
  EXPECT_LT(laid.geometry.panels[0].matrix_y + 5 * laid.geometry.cell_px, laid.geometry.panels[2].matrix_y);
}

TEST_F(Figures, SameInputSameBytes) {
  const Rendered first = render(weights_figure());
  const Rendered second = render(weights_figure());
  EXPECT_EQ(first.png, second.png);
  EXPECT_EQ(scene_to_svg(first.laid.scene), scene_to_svg(second.laid.scene));
}

TEST_F(Figures, SvgIsWellFormedXmlWithTheLabelsAsText) {
  problem_.tokens = problem_.source_tokens = {"R&D", "<s>", "\"quoted\"", "배가"};
  result_ = testing::compute_cpu(problem_);
  source_.result = &result_;
  const auto dir = std::filesystem::temp_directory_path() / ("attnviz-svg-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  testing::write_file(dir / "w.svg", scene_to_svg(lay_out(weights_figure(), export_fonts()).scene));
  const auto [status, output] = testing::run_shell(
      "python3 -c \"import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); "
      "print('|'.join(t.firstChild.data for t in d.getElementsByTagName('text')))\" '" +
          (dir / "w.svg").string() + "'",
      dir);
  ASSERT_EQ(status, 0) << output;
  for (const char* label : {"|R&D|", "|<s>|", "|\"quoted\"|", "|배가|"})
    EXPECT_NE(output.find(label), std::string::npos) << label << " in " << output;
  std::filesystem::remove_all(dir);
}

TEST(Svg, EscapesMarkupAndDropsForbiddenCharacters) {
  EXPECT_EQ(xml_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(xml_escape(std::string("x\x01y", 3)), "xy");
  EXPECT_EQ(xml_escape("어제"), "어제");
}

}  // namespace
}  // namespace attnviz::exporting
