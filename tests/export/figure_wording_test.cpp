// Every word an exported figure shows goes through the request's Wording (issue 49: figures in
// the window's language, `attnviz export --lang ko`): made with a Wording that writes every
// message in fullwidth letters, no figure is left with an ASCII word of its own, only tokens,
// numbers and labels made of them (v0, L1, h2), in its fields and in what lay_out() adds.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/export/export.h"
#include "core/export/font.h"
#include "core/export/heads_figures.h"
#include "tests/export/export_fixtures.h"
#include "tests/support/fullwidth_wording.h"

namespace attnviz::exporting {
namespace {

using testing::ascii_words;
using testing::fullwidth_wording;

std::vector<std::string> texts_of(const Scene& scene) {
  std::vector<std::string> texts;
  for (const Shape& shape : scene.shapes) {
    if (const auto* text = std::get_if<TextItem>(&shape)) texts.push_back(text->text);
  }
  return texts;
}

// The figure's own words and, laid out, every line of text it draws.
std::vector<std::string> figure_words(const HeatmapFigure& figure) {
  std::vector<std::string> texts = {figure.subtitle,       figure.row_axis_title, figure.col_axis_title,
                                    figure.colorbar_label, figure.visible_legend, figure.masked_legend};
  texts.insert(texts.end(), figure.notes.begin(), figure.notes.end());
  for (const FigurePanel& panel : figure.panels) texts.push_back(panel.heading);
  const std::vector<std::string> drawn = texts_of(lay_out(figure, export_fonts()).scene);
  texts.insert(texts.end(), drawn.begin(), drawn.end());
  return texts;
}

// The hot-cell problem with every part of the caption in use: a causal window with a global
// token, RoPE, dropout; two query heads sharing a key/value head; Korean title and tokens.
struct WordedSource {
  Result cpu;
  Result vulkan;
  ExportSource source;
};

WordedSource worded_source() {
  Problem problem = testing::hot_cell_problem(true);
  WordedSource made;
  made.cpu = testing::compute_cpu(problem);
  made.cpu.heads.push_back(made.cpu.heads.front());
  made.cpu.masked_rows = {3};  // the note naming queries that see no key
  made.vulkan = made.cpu;
  made.vulkan.device = "장치";
  made.vulkan.heads.front().weights.at(0, 0) += 1e-7f;
  problem.mask.window = 1;
  problem.mask.global = {0};
  problem.positional = PositionalKind::Rope;
  problem.dropout = DropoutSetting{0.1f, 7};
  problem.num_kv_heads = 1;
  Scenario scenario;
  scenario.title = "어제 밤에";
  scenario.d_k = problem.d_k;
  made.source.caption = describe_for_export(scenario, problem, fullwidth_wording());
  made.source.caption.num_kv_heads = 1;
  return made;
}

TEST(FigureWording, EveryQuantitysFigureSpeaksTheRequestsLanguage) {
  WordedSource made = worded_source();
  made.source.result = &made.cpu;
  made.source.cpu = &made.cpu;
  made.source.vulkan = &made.vulkan;
  ExportRequest request;
  request.wording = fullwidth_wording();
  for (const Quantity quantity :
       {Quantity::Scores, Quantity::Scaled, Quantity::Weights, Quantity::Mask, Quantity::Context, Quantity::Diff}) {
    for (const std::vector<int>& heads : {std::vector<int>{0}, std::vector<int>{0, 1}}) {
      const HeatmapFigure figure = make_figure(request, made.source, quantity, heads);
      EXPECT_EQ(ascii_words(figure_words(figure)), std::vector<std::string>{}) << quantity_name(quantity);
    }
  }
}

TEST(FigureWording, TheNotesTheLayoutAddsSpeakItToo) {
  // Values beyond the range (both colorbar notes), a log scale, a window of rows and columns,
  // and labels thinned on 600 tokens named t0, t1, … (one letter: no word).
  const Result many = testing::synthetic_result(600, 2);
  ExportSource source{&many, nullptr, nullptr,
                      describe_for_export({}, testing::hot_cell_problem(), fullwidth_wording())};
  ExportRequest request;
  request.wording = fullwidth_wording();
  request.range = std::pair{0.01f, 0.05f};  // rows 10-18 above (1/11 …), rows past 100 below
  request.scale = ColourScale::Log;
  request.window = CellWindow{0, 590, 10, 580};
  const HeatmapFigure figure = make_figure(request, source, Quantity::Weights, {0, 1});
  const LaidOutFigure laid = lay_out(figure, export_fonts());
  ASSERT_GT(laid.geometry.label_step, 1);
  ASSERT_TRUE(laid.geometry.extends_low && laid.geometry.extends_high);
  EXPECT_EQ(ascii_words(figure_words(figure)), std::vector<std::string>{});
  HeatmapFigure blocks = figure;
  blocks.cells_are_blocks = true;
  EXPECT_EQ(ascii_words(figure_words(blocks)), std::vector<std::string>{});
}

TEST(FigureWording, TheModelViewsFiguresSpeakItToo) {
  const Wording wording = fullwidth_wording();
  const heads::LayerRoles roles = {{heads::HeadScores{0.5, 0.1, 0.2, 0.3, 0.4, 1.0, 2.0}}};
  for (const heads::Role role : heads::kRoles)
    EXPECT_EQ(ascii_words(figure_words(roles_figure(roles, {0}, role, wording)), {"L0"}), std::vector<std::string>{});

  heads::LogitLens lens;
  lens.cells = {{{{}, 0.25, 3}, {}}, {{{}, 0.5, 1}, {}}};
  EXPECT_EQ(ascii_words(figure_words(lens_figure(lens, {"어제", "밤에"}, wording)), {"emb", "L0"}),
            std::vector<std::string>{});

  heads::Attribution attribution;
  attribution.target_token = "밤";
  attribution.parts.push_back({heads::PartKind::Embedding, -1, -1, 0.5});
  for (int layer = 0; layer < 6; ++layer) {
    for (int head = 0; head < 4; ++head) attribution.parts.push_back({heads::PartKind::Head, layer, head, 0.1 * head});
    attribution.parts.push_back({heads::PartKind::AttentionBias, layer, -1, 0.01});
    attribution.parts.push_back({heads::PartKind::Mlp, layer, -1, -0.2});
  }
  attribution.parts.push_back({heads::PartKind::FinalBias, -1, -1, 0.05});
  const HeatmapFigure parts = attribution_figure(attribution, wording);
  ASSERT_FALSE(parts.notes.empty()) << "the smaller parts' note";
  std::vector<std::string> allowed = {};
  for (int layer = 0; layer < 6; ++layer) allowed.push_back("L" + std::to_string(layer));
  EXPECT_EQ(ascii_words(figure_words(parts), {allowed.begin(), allowed.end()}), std::vector<std::string>{});

  heads::Patching patching;
  patching.target_token = "밤";
  patching.patched = {{1.0, 2.0}, {0.5, -1.0}};
  EXPECT_EQ(ascii_words(figure_words(patching_figure(patching, {"어제"}, {"오늘"}, wording)), {"L0", "L1"}),
            std::vector<std::string>{});
}

TEST(FigureWording, EnglishByDefault) {
  const Result result = testing::compute_cpu(testing::hot_cell_problem(true));
  const ExportSource source{&result, nullptr, nullptr, testing::caption_for(testing::hot_cell_problem(true))};
  const HeatmapFigure figure = make_figure({}, source, Quantity::Weights, {0});
  EXPECT_EQ(figure.row_axis_title, "query tokens (attending)");
  EXPECT_EQ(figure.subtitle,
            "attention weights (softmax of each row) · head 0 of 1 · mask: causal · scale 1/√dₖ = 1/√4 ≈ 0.5");
}

}  // namespace
}  // namespace attnviz::exporting
