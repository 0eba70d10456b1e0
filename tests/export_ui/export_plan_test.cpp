// The window's export requests from its view state: the selected head, each heatmap's colormap
// and colour range, the zoom as whole cells, the dialog's choices. Results are built by hand
// with known extremes, so the expected ranges are read off the numbers below.
#include "app/export_ui/export_plan.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/common/error.h"

namespace attnviz::export_ui {
namespace {

using exporting::CellWindow;

// n query tokens, m key tokens, two heads, d_v = 3, scale 0.5; scores 0.1, weights 0.05,
// context 0.5 except (from 6 × 6 on): head 0's largest weight 0.7, largest visible |score| 3, a
// masked score of 10 at (0, m−1); head 1's largest weight 0.9, |score| 5, |context| 4.
struct Fixture {
  Problem problem;
  Result result;
  ui::ViewState view;

  explicit Fixture(int n = 10, int m = 12) {
    problem.x = Matrix(n, 2);
    problem.xs = Matrix(m, 2);
    problem.num_heads = 2;
    problem.d_v = 3;
    problem.scale = 0.5f;
    for (int i = 0; i < n; ++i) problem.tokens.push_back("q" + std::to_string(i));
    for (int j = 0; j < m; ++j) problem.source_tokens.push_back("k" + std::to_string(j));
    result.tokens = problem.tokens;
    result.source_tokens = problem.source_tokens;
    result.mask = MaskMatrix{n, m, std::vector<std::uint8_t>(static_cast<std::size_t>(n * m), 1)};
    result.mask.visible[static_cast<std::size_t>(m - 1)] = 0;  // (0, m−1) hidden
    for (int h = 0; h < 2; ++h) {
      HeadResult head{Matrix(n, m, 0.1f), Matrix(n, m, 0.05f), Matrix(n, 3, 0.5f), {}, {}};
      result.heads.push_back(head);
    }
    if (n < 6 || m < 6) return;  // too small for the marked cells below
    result.heads[0].weights.at(1, 1) = 0.7f;
    result.heads[0].scores.at(2, 3) = -3.0f;
    result.heads[0].scores.at(0, m - 1) = 10.0f;  // masked: only the raw scores show it
    result.heads[0].context.at(4, 2) = -2.0f;
    result.heads[1].weights.at(3, 2) = 0.9f;
    result.heads[1].scores.at(5, 5) = 5.0f;
    result.heads[1].context.at(0, 0) = 4.0f;
  }

  [[nodiscard]] ShownState shown() const {
    return ShownState{view, result, problem, false, view.selected_head, view.head_zoom};
  }
};

ExportRequest only_request(const ExportChoices& choices, const ShownState& shown) {
  const ExportPlan plan = plan_export(choices, shown);
  EXPECT_EQ(plan.requests.size(), 1u);
  return plan.requests.front();
}

TEST(ExportPlan, AHeatmapsButtonExportsItsMatrixOfTheSelectedHeadAsShown) {
  Fixture f;
  f.view.selected_head = 1;
  const ExportRequest request = only_request(choices_for_heatmap(Quantity::Weights, f.shown()), f.shown());
  EXPECT_EQ(request.what, std::vector<Quantity>{Quantity::Weights});
  ASSERT_TRUE(request.heads.has_value());
  EXPECT_EQ(*request.heads, std::vector<int>{1});
  EXPECT_EQ(request.format, ExportFormat::Png);
  EXPECT_EQ(request.colormap, ColormapId::Viridis);
  // Up to 40 tokens the window draws weights from 0 to 1 (WeightsRange::Automatic).
  ASSERT_TRUE(request.range.has_value());
  EXPECT_EQ(*request.range, (std::pair{0.0f, 1.0f}));
  EXPECT_EQ(request.values, ValuesMode::Auto);
  EXPECT_EQ(request.dpi, 300);
  EXPECT_FALSE(request.cell_px.has_value());
  EXPECT_FALSE(request.title.has_value());
  EXPECT_FALSE(request.grid);
  EXPECT_FALSE(request.window.has_value());  // not zoomed
}

TEST(ExportPlan, ColormapsFollowTheViewAndTheMaskKeepsExportsDefault) {
  Fixture f;
  f.view.weights_colormap = heatmap::Colormap::Magma;
  f.view.scores_colormap = heatmap::Colormap::Cividis;
  f.view.difference_colormap = heatmap::Colormap::Viridis;
  EXPECT_EQ(shown_colormap(Quantity::Weights, f.view), ColormapId::Magma);
  EXPECT_EQ(shown_colormap(Quantity::Scores, f.view), ColormapId::Cividis);
  EXPECT_EQ(shown_colormap(Quantity::Scaled, f.view), ColormapId::Cividis);
  EXPECT_EQ(shown_colormap(Quantity::Context, f.view), ColormapId::Cividis);
  EXPECT_EQ(shown_colormap(Quantity::Diff, f.view), ColormapId::Viridis);
  EXPECT_EQ(shown_colormap(Quantity::Mask, f.view), std::nullopt);  // drawn in Blues, which export lacks
  ExportChoices choices = choices_for_heatmap(Quantity::Scores, f.shown());
  choices.colormap = ColormapId::RdBu;  // the dialog's choice wins
  EXPECT_EQ(only_request(choices, f.shown()).colormap, ColormapId::RdBu);
}

TEST(ExportPlan, RangesAreTheHeatmapsOwn) {
  Fixture f;
  const ShownState shown = f.shown();
  using Range = std::optional<std::pair<float, float>>;
  EXPECT_EQ(shown_range(Quantity::Scores, shown, {0}), (Range{{-10.0f, 10.0f}}));  // raw: masked cells too
  EXPECT_EQ(shown_range(Quantity::Scaled, shown, {0}), (Range{{-1.5f, 1.5f}}));    // 0.5 · 3, visible only
  EXPECT_EQ(shown_range(Quantity::Context, shown, {0}), (Range{{-2.0f, 2.0f}}));
  EXPECT_EQ(shown_range(Quantity::Context, shown, {1}), (Range{{-4.0f, 4.0f}}));
  // Several heads share the widest scale.
  EXPECT_EQ(shown_range(Quantity::Scaled, shown, {0, 1}), (Range{{-2.5f, 2.5f}}));
  EXPECT_EQ(shown_range(Quantity::Mask, shown, {0}), std::nullopt);
}

TEST(ExportPlan, WeightsFollowTheWeightsScaleSetting) {
  Fixture f;
  using Range = std::optional<std::pair<float, float>>;
  f.view.weights_range = ui::WeightsRange::ZeroToOne;
  EXPECT_EQ(shown_range(Quantity::Weights, f.shown(), {0}), (Range{{0.0f, 1.0f}}));
  f.view.weights_range = ui::WeightsRange::Auto;  // 0 to the largest weight
  EXPECT_EQ(shown_range(Quantity::Weights, f.shown(), {0}), (Range{{0.0f, 0.7f}}));
  EXPECT_EQ(shown_range(Quantity::Weights, f.shown(), {0, 1}), (Range{{0.0f, 0.9f}}));
  EXPECT_EQ(shown_scale(Quantity::Weights, f.shown()), exporting::ColourScale::Linear);
  f.view.weights_range = ui::WeightsRange::Log;  // exported as shown: log10, 0.0001 to 1
  EXPECT_EQ(shown_range(Quantity::Weights, f.shown(), {0}), (Range{{1e-4f, 1.0f}}));
  EXPECT_EQ(shown_scale(Quantity::Weights, f.shown()), exporting::ColourScale::Log);
  EXPECT_EQ(shown_scale(Quantity::Scores, f.shown()), exporting::ColourScale::Linear);
  const ExportPlan plan = plan_export(choices_for_heatmap(Quantity::Weights, f.shown()), f.shown());
  EXPECT_TRUE(plan.notes.empty());
  EXPECT_EQ(plan.requests.front().scale, exporting::ColourScale::Log);
}

TEST(ExportPlan, AutomaticWeightsScaleTurnsLogBeyondFortyTokens) {
  Fixture f(41, 41);
  const ExportPlan plan = plan_export(choices_for_heatmap(Quantity::Weights, f.shown()), f.shown());
  EXPECT_TRUE(plan.notes.empty());
  EXPECT_EQ(plan.requests.front().range, (std::optional{std::pair{1e-4f, 1.0f}}));
  EXPECT_EQ(plan.requests.front().scale, exporting::ColourScale::Log);
  // The command line's default for the same matrix is the same scale and range.
  const exporting::ExportSource source{&f.result, nullptr, nullptr, {}};
  const exporting::HeatmapFigure cli = exporting::make_figure({}, source, Quantity::Weights, {0});
  const exporting::HeatmapFigure window = exporting::make_figure(plan.requests.front(), source, Quantity::Weights, {0});
  EXPECT_TRUE(cli.log_scale && window.log_scale);
  EXPECT_EQ(cli.range_low, window.range_low);
  EXPECT_EQ(cli.range_high, window.range_high);
}

TEST(ExportPlan, TheZoomBecomesWholeCells) {
  Fixture f;                                    // 10 × 12
  f.view.head_zoom = {2.0f, 3.5f, 4.0f, 4.0f};  // rows 2..6, columns 3.5..7.5: cell 7 shows in part
  const std::optional<CellWindow> window = shown_window(Quantity::Weights, f.shown());
  ASSERT_TRUE(window.has_value());
  EXPECT_EQ(window->row_begin, 2);
  EXPECT_EQ(window->row_end, 6);
  EXPECT_EQ(window->col_begin, 3);
  EXPECT_EQ(window->col_end, 8);
  // The context heatmap follows the rows only: its columns are d_v dimensions.
  const std::optional<CellWindow> context = shown_window(Quantity::Context, f.shown());
  ASSERT_TRUE(context.has_value());
  EXPECT_EQ(context->row_begin, 2);
  EXPECT_EQ(context->row_end, 6);
  EXPECT_EQ(context->col_begin, 0);
  EXPECT_EQ(context->col_end, CellWindow::kToEnd);
}

TEST(ExportPlan, AZoomReachingTheEndOrCoveringEverything) {
  Fixture f;
  f.view.head_zoom = {6.0f, 0.0f, 4.0f, 12.0f};  // the last four rows, every column
  std::optional<CellWindow> window = shown_window(Quantity::Weights, f.shown());
  ASSERT_TRUE(window.has_value());
  EXPECT_EQ(window->row_begin, 6);
  EXPECT_EQ(window->row_end, CellWindow::kToEnd);
  EXPECT_EQ(window->col_begin, 0);
  EXPECT_EQ(window->col_end, CellWindow::kToEnd);
  f.view.head_zoom = {0.0f, 0.0f, 10.0f, 12.0f};  // after a double click: everything
  EXPECT_FALSE(shown_window(Quantity::Weights, f.shown()).has_value());
  f.view.head_zoom = {0.0f, 0.0f, 0.0f, 0.0f};  // never zoomed
  EXPECT_FALSE(shown_window(Quantity::Weights, f.shown()).has_value());
  // A ShownState that names no zoom (a model's layer, whose heatmaps are not zoomed through the
  // scenario's zoom) exports every cell.
  EXPECT_FALSE(shown_window(Quantity::Weights, ShownState{f.view, f.result, f.problem, false, 1}).has_value());
  f.view.head_zoom = {-3.0f, 20.0f, 2.0f, 2.0f};  // stale (an earlier, larger scenario): clamped
  window = shown_window(Quantity::Weights, f.shown());
  ASSERT_TRUE(window.has_value());
  EXPECT_EQ(window->row_begin, 0);
  EXPECT_EQ(window->row_end, 4);  // at least 4 cells, as the widget shows
  EXPECT_EQ(window->col_begin, 8);
  EXPECT_EQ(window->col_end, CellWindow::kToEnd);
}

// The zoom is kept per axis (axis_math.h: kept_window): zooming into a few rows of a short
// sentence leaves the columns as "all of them" (count 0). Exporting that view exports exactly
// those rows, every column (it used to export the whole matrix: a 0 axis read as no zoom).
TEST(ExportPlan, ARowOnlyZoomExportsExactlyThoseRows) {
  Fixture f;                                    // 10 × 12, head 0 weights 0.05 except (1, 1) = 0.7
  f.view.head_zoom = {1.0f, 0.0f, 4.0f, 0.0f};  // rows 1–4, all columns
  const std::optional<CellWindow> window = shown_window(Quantity::Weights, f.shown());
  ASSERT_TRUE(window.has_value());
  EXPECT_EQ(window->row_begin, 1);
  EXPECT_EQ(window->row_end, 5);
  EXPECT_EQ(window->col_begin, 0);
  EXPECT_EQ(window->col_end, CellWindow::kToEnd);
  const ExportRequest request = only_request(choices_for_heatmap(Quantity::Weights, f.shown()), f.shown());
  ASSERT_TRUE(request.window.has_value());
  EXPECT_EQ(request.window->row_begin, 1);
  EXPECT_EQ(request.window->row_end, 5);

  exporting::ExportSource source;
  source.result = &f.result;
  std::string row;  // twelve columns of 0.05
  for (int j = 0; j < 12; ++j) row += ",0.05";
  row += "\r\n";
  EXPECT_EQ(csv_as_shown(Quantity::Weights, f.shown(), source),
            "query \\ key,k0,k1,k2,k3,k4,k5,k6,k7,k8,k9,k10,k11\r\n"
            "q1,0.05,0.7,0.05,0.05,0.05,0.05,0.05,0.05,0.05,0.05,0.05,0.05\r\n"
            "q2" +
                row + "q3" + row + "q4" + row);
}

TEST(ExportPlan, AColumnOnlyZoomExportsThoseColumnsOfEveryRow) {
  Fixture f;                                    // 10 × 12
  f.view.head_zoom = {0.0f, 8.0f, 0.0f, 4.0f};  // all rows, columns 8–11
  const std::optional<CellWindow> window = shown_window(Quantity::Scores, f.shown());
  ASSERT_TRUE(window.has_value());
  EXPECT_EQ(window->row_begin, 0);
  EXPECT_EQ(window->row_end, CellWindow::kToEnd);
  EXPECT_EQ(window->col_begin, 8);
  EXPECT_EQ(window->col_end, CellWindow::kToEnd);
  // The context's columns are d_v dimensions: with only the key columns zoomed it is whole.
  EXPECT_FALSE(shown_window(Quantity::Context, f.shown()).has_value());
}

TEST(ExportPlan, TheWholeMatrixWhenAskedDespiteTheZoom) {
  Fixture f;
  f.view.head_zoom = {2.0f, 3.0f, 4.0f, 4.0f};
  ExportChoices choices = choices_for_heatmap(Quantity::Scores, f.shown());
  EXPECT_TRUE(only_request(choices, f.shown()).window.has_value());
  choices.zoom_as_shown = false;
  EXPECT_FALSE(only_request(choices, f.shown()).window.has_value());
}

TEST(ExportPlan, ExportAllIsOneRequestPerMatrixEachWithItsColours) {
  Fixture f;
  const ExportChoices choices = choices_for_all(f.shown());
  EXPECT_EQ(choices.what, (std::vector<Quantity>{Quantity::Scores, Quantity::Scaled, Quantity::Weights, Quantity::Mask,
                                                 Quantity::Context}));
  const ExportPlan plan = plan_export(choices, f.shown());
  ASSERT_EQ(plan.requests.size(), 5u);
  EXPECT_EQ(plan.requests[0].colormap, ColormapId::RdBu);
  EXPECT_EQ(plan.requests[2].colormap, ColormapId::Viridis);
  EXPECT_EQ(plan.requests[2].range, (std::optional{std::pair{0.0f, 1.0f}}));
  EXPECT_EQ(plan.requests[4].range, (std::optional{std::pair{-2.0f, 2.0f}}));  // head 0's context
  ShownState compared = f.shown();
  compared.has_difference = true;
  EXPECT_EQ(choices_for_all(compared).what.back(), Quantity::Diff);
}

TEST(ExportPlan, TheDialogsChoicesReachTheRequest) {
  Fixture f;
  ExportChoices choices = choices_for_heatmap(Quantity::Weights, f.shown());
  choices.heads = HeadsChoice::All;
  choices.format = ExportFormat::Svg;
  choices.range = RangeChoice::Custom;
  choices.range_low = -1.0f;
  choices.range_high = 2.0f;
  choices.cell_px = 40;
  choices.dpi = 150;
  choices.values = ValuesMode::On;
  choices.title = "Slide 3";
  choices.grid = true;
  ExportRequest request = only_request(choices, f.shown());
  EXPECT_FALSE(request.heads.has_value());  // all: NPY writes one heads × N × M array
  EXPECT_EQ(request.format, ExportFormat::Svg);
  EXPECT_EQ(request.range, (std::optional{std::pair{-1.0f, 2.0f}}));
  EXPECT_EQ(request.cell_px, 40);
  EXPECT_EQ(request.dpi, 150);
  EXPECT_EQ(request.values, ValuesMode::On);
  EXPECT_EQ(request.title, "Slide 3");
  EXPECT_TRUE(request.grid);
  choices.range = RangeChoice::Auto;
  choices.format = ExportFormat::Csv;  // no grid for numbers
  request = only_request(choices, f.shown());
  EXPECT_FALSE(request.range.has_value());
  EXPECT_FALSE(request.grid);
}

TEST(ExportPlan, HiddenNumbersAreNotExportedEither) {
  Fixture f;
  f.view.show_numbers = false;
  EXPECT_EQ(only_request(choices_for_heatmap(Quantity::Weights, f.shown()), f.shown()).values, ValuesMode::Off);
}

TEST(ExportPlan, AHeadListIsParsedOrRefusedByName) {
  Fixture f;
  ExportChoices choices = choices_for_heatmap(Quantity::Weights, f.shown());
  choices.heads = HeadsChoice::List;
  choices.head_list = "1, 0";
  EXPECT_EQ(*only_request(choices, f.shown()).heads, (std::vector<int>{1, 0}));
  for (const char* bad : {"", "one", "0,,1", "-1", "2x"}) {
    choices.head_list = bad;
    try {
      plan_export(choices, f.shown());
      ADD_FAILURE() << "accepted \"" << bad << "\"";
    } catch (const InputError& error) {
      EXPECT_EQ(error.pointer(), "heads") << bad;
    }
  }
}

TEST(ExportPlan, StepsOfTheHeatmapsPanelNameTheirMatrix) {
  EXPECT_EQ(quantity_for(ui::HeadView::RawScores), Quantity::Scores);
  EXPECT_EQ(quantity_for(ui::HeadView::ScaledScores), Quantity::Scaled);
  EXPECT_EQ(quantity_for(ui::HeadView::Weights), Quantity::Weights);
}

// Copy as CSV: a 2 × 2 weights matrix with hand-written expected text (RFC 4180, CRLF).
TEST(ExportPlan, CopyAsCsvIsTheShownMatrixAsText) {
  Fixture f(2, 2);
  f.result.heads[1].weights = Matrix(2, 2);
  f.result.heads[1].weights.data = {0.25f, 0.75f, 1.0f, 0.0f};
  f.result.mask.visible = {1, 1, 1, 0};
  f.result.tokens = {"밤에", "a,b"};
  f.result.source_tokens = {"x", "y"};
  f.view.selected_head = 1;
  exporting::ExportSource source;
  source.result = &f.result;
  EXPECT_EQ(csv_as_shown(Quantity::Weights, f.shown(), source),
            "query \\ key,x,y\r\n밤에,0.25,0.75\r\n\"a,b\",1,0\r\n");
}

TEST(ExportPlan, CopyAsCsvOfAZoomedHeatmapIsTheZoomedCells) {
  Fixture f;                                    // 10 × 12, head 0 weights 0.05 except (1, 1) = 0.7
  f.view.head_zoom = {0.0f, 0.0f, 4.0f, 4.0f};  // rows 0–3, columns 0–3
  exporting::ExportSource source;
  source.result = &f.result;
  EXPECT_EQ(csv_as_shown(Quantity::Weights, f.shown(), source),
            "query \\ key,k0,k1,k2,k3\r\n"
            "q0,0.05,0.05,0.05,0.05\r\n"
            "q1,0.05,0.7,0.05,0.05\r\n"
            "q2,0.05,0.05,0.05,0.05\r\n"
            "q3,0.05,0.05,0.05,0.05\r\n");
}

}  // namespace
}  // namespace attnviz::export_ui
