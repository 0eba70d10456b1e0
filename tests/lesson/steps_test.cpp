// The eleven step pages: in pipeline order, each showing the core Result's numbers (the
// matrices it borrows are the Result's, the ones it computes agree with it), with shapes and
// the followed query's trace.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/cpu/cpu_backend.h"
#include "core/common/number_text.h"
#include "core/lesson/steps.h"
#include "tests/attention/random_problem.h"
#include "tests/lesson/lesson_support.h"

namespace attnviz {
namespace {

using lesson::StepKind;

const lesson::ShownMatrix& find_matrix(const lesson::StepPage& page, const std::string& name) {
  for (const lesson::ShownMatrix& m : page.matrices)
    if (m.name == name) return m;
  throw std::runtime_error("page " + page.title + " has no matrix " + name);
}

// Any trace line, before or after the table, containing `text`.
bool contains_line(const lesson::StepPage& page, const std::string& text) {
  const auto has = [&](const std::string& line) { return line.find(text) != std::string::npos; };
  return std::any_of(page.trace.begin(), page.trace.end(), has) ||
         std::any_of(page.trace_after.begin(), page.trace_after.end(), has);
}

bool has_row(const lesson::StepPage& page, const std::vector<std::string>& row) {
  return std::find(page.table.rows.begin(), page.table.rows.end(), row) != page.table.rows.end();
}

struct Korean {
  nlohmann::json fixture;
  Problem problem;
  Result result;
  explicit Korean(const std::string& file)
      : fixture(testing::read_fixture(file)),
        problem(testing::fixture_problem(fixture)),
        result(make_cpu_backend()->compute(problem)) {}
};

TEST(StepModel, ElevenPagesInPipelineOrder) {
  const Korean k("korean-full.json");
  const lesson::StepModel model(k.problem, k.result);
  const std::vector<lesson::StepPage> pages = model.pages({.head = 0, .query = 2});
  ASSERT_EQ(pages.size(), static_cast<std::size_t>(lesson::kStepCount));
  const StepKind order[] = {StepKind::Embeddings, StepKind::Projections, StepKind::Positions, StepKind::Scores,
                            StepKind::Scaling,    StepKind::Masking,     StepKind::Softmax,   StepKind::Context,
                            StepKind::Concat,     StepKind::Output,      StepKind::Mistakes};
  for (std::size_t i = 0; i < pages.size(); ++i) {
    EXPECT_EQ(pages[i].kind, order[i]);
    EXPECT_EQ(pages[i].number, static_cast<int>(i) + 1);
    EXPECT_FALSE(pages[i].formula.empty()) << i;
    EXPECT_FALSE(pages[i].matrices.empty()) << i;
    EXPECT_TRUE(!pages[i].trace.empty() || !pages[i].table.empty()) << i;
    EXPECT_EQ(pages[i].trace_heading, "Following 배 (query 2, head 0)");
  }
  EXPECT_EQ(lesson::step_at(-1), StepKind::Embeddings);
  EXPECT_EQ(lesson::step_at(99), StepKind::Mistakes);
  EXPECT_EQ(pages[3].title.substr(0, 3), "4. ") << "titles are numbered by their place";
}

TEST(StepModel, PagesShowTheResultsNumbers) {
  const Korean k("korean-2heads-causal.json");
  const lesson::StepModel model(k.problem, k.result);
  for (int head = 0; head < 2; ++head) {
    const lesson::PageFocus focus{.head = head, .query = 2};
    const std::string h = lesson::subscript(head);
    const HeadResult& r = k.result.heads[static_cast<std::size_t>(head)];
    EXPECT_EQ(*find_matrix(model.page(StepKind::Scores, focus), "S" + h).values, r.scores);
    EXPECT_EQ(*find_matrix(model.page(StepKind::Softmax, focus), "A" + h).values, r.weights);
    EXPECT_EQ(*find_matrix(model.page(StepKind::Context, focus), "C" + h).values, r.context);

    const lesson::StepPage scaling = model.page(StepKind::Scaling, focus);
    const lesson::StepPage masking = model.page(StepKind::Masking, focus);
    const Matrix& scaled = *find_matrix(scaling, "S'" + h).values;
    const Matrix& masked = *find_matrix(masking, "masked S'" + h).values;
    const Matrix& mask = *find_matrix(masking, "mask (hatched = hidden)").values;
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) {
        EXPECT_NEAR(scaled.at(i, j), r.scores.at(i, j) / std::sqrt(2.0), 1e-7);
        EXPECT_EQ(mask.at(i, j), j <= i ? 1.0f : 0.0f);  // causal
        if (j <= i)
          EXPECT_EQ(masked.at(i, j), scaled.at(i, j));
        else
          EXPECT_TRUE(std::isinf(masked.at(i, j)) && masked.at(i, j) < 0);
      }
  }
  // No W_O: the concatenation is the output, and both equal the Result's output.
  const lesson::PageFocus focus{.head = 0, .query = 5};
  EXPECT_EQ(*find_matrix(model.page(StepKind::Concat, focus), "concat").values, k.result.output);
  EXPECT_EQ(*find_matrix(model.page(StepKind::Output, focus), "output").values, k.result.output);
}

TEST(StepModel, ShapesAndLabels) {
  const Korean k("korean-2heads-causal.json");
  const lesson::StepModel model(k.problem, k.result);
  const lesson::StepPage qkv = model.page(StepKind::Projections, {.head = 1, .query = 0});
  EXPECT_EQ(find_matrix(qkv, "Q\u2081").shape_text(), "8 \u00d7 2");
  EXPECT_EQ(find_matrix(qkv, "V\u2081").shape_text(), "8 \u00d7 2");
  EXPECT_NE(qkv.formula.find("(8 \u00d7 4)\u00b7(4 \u00d7 2) = (8 \u00d7 2)"), std::string::npos) << qkv.formula;
  const lesson::StepPage scores = model.page(StepKind::Scores, {.head = 1, .query = 3});
  const lesson::ShownMatrix& s = find_matrix(scores, "S\u2081");
  EXPECT_EQ(s.row_labels, k.problem.tokens);
  EXPECT_EQ(s.col_labels, k.problem.tokens);
  EXPECT_TRUE(s.query_rows) << "the view outlines the followed query's row";
  EXPECT_TRUE(s.key_cols);
  EXPECT_FALSE(find_matrix(qkv, "K\u2081").query_rows) << "K's rows are keys";
  const lesson::StepPage concat = model.page(StepKind::Concat, {.head = 0, .query = 0});
  EXPECT_EQ(find_matrix(concat, "concat").shape_text(), "8 \u00d7 4");
  EXPECT_NE(concat.formula.find("2 heads"), std::string::npos) << concat.formula;
}

TEST(StepModel, TraceLinesFollowBae) {
  const Korean k("korean-full.json");
  const lesson::StepModel model(k.problem, k.result);
  const lesson::PageFocus focus{.head = 0, .query = 2, .key = 2, .decimals = 4};
  EXPECT_TRUE(contains_line(model.page(StepKind::Embeddings, focus), "x[배] = (0.5000, 0.3000, 0.2000, 0.1000)"));
  EXPECT_TRUE(
      contains_line(model.page(StepKind::Projections, focus), "q[배] = x[배]·W_Q₀ = (0.3600, 0.2500, 0.2300, 0.2600)"));
  const lesson::StepPage scores = model.page(StepKind::Scores, focus);
  EXPECT_TRUE(has_row(scores, {"배", "0.3247"}));  // the fixture's S[2][2]
  EXPECT_EQ(scores.table.highlight_row, 2);        // the selected cell's key
  EXPECT_TRUE(contains_line(scores, "= 0.3247")) << "arithmetic check of cell (배, 배)";
  EXPECT_TRUE(has_row(model.page(StepKind::Scaling, focus), {"배", "0.3247", "0.1624"}));
  EXPECT_TRUE(contains_line(model.page(StepKind::Masking, focus), "배 sees 8 of 8 keys"));
  const lesson::StepPage softmax = model.page(StepKind::Softmax, focus);
  EXPECT_TRUE(contains_line(softmax, "m = max of the visible scores = 0.1624"));
  // The weight written for 배→배 is the fixture's (float64, independent) value to 4 decimals.
  const double expected_weight = k.fixture["expected"]["heads"][0]["weights"][2][2].get<double>();
  ASSERT_EQ(softmax.table.header.size(), 4u);
  EXPECT_EQ(softmax.table.rows.at(2).at(3), format_number(expected_weight, 4)) << expected_weight;
  EXPECT_TRUE(contains_line(softmax, "\u03a3 exp = "));
  const std::vector<double> context = testing::json_row(k.fixture["expected"]["heads"][0]["context"], 2);
  EXPECT_TRUE(contains_line(model.page(StepKind::Context, focus),
                            "c[배] = \u03a3 weight \u00d7 v = " + format_vector(context, 4)));
  EXPECT_TRUE(contains_line(model.page(StepKind::Output, focus), "output[배] = " + format_vector(context, 4)));
}

TEST(StepModel, TextOnlyPagesSkipTheBigMatricesButSayTheSame) {
  const Korean k("korean-2heads-causal.json");
  const lesson::StepModel model(k.problem, k.result);
  for (int i = 0; i < lesson::kStepCount; ++i) {
    const lesson::PageFocus full{.head = 1, .query = 4};
    lesson::PageFocus text = full;
    text.include_matrices = false;
    const lesson::StepPage a = model.page(lesson::step_at(i), full);
    const lesson::StepPage b = model.page(lesson::step_at(i), text);
    EXPECT_EQ(a.formula, b.formula);
    EXPECT_EQ(a.trace, b.trace) << a.title;
    EXPECT_EQ(a.table.rows, b.table.rows) << a.title;
    EXPECT_EQ(a.trace_after, b.trace_after) << a.title;
    EXPECT_FALSE(a.matrices.empty());
  }
  lesson::PageFocus text{.head = 0, .query = 0};
  text.include_matrices = false;
  EXPECT_TRUE(model.page(StepKind::Masking, text).matrices.empty());
  EXPECT_TRUE(model.page(StepKind::Concat, text).matrices.empty());
}

TEST(StepModel, CausalMaskTraceSaysHidden) {
  const Korean k("korean-causal.json");
  const lesson::StepModel model(k.problem, k.result);
  const lesson::StepPage mask = model.page(StepKind::Masking, {.head = 0, .query = 2});
  EXPECT_TRUE(contains_line(mask, "배 sees 3 of 8 keys"));
  EXPECT_TRUE(has_row(mask, {"먹었다", "hidden", "\u2212\u221e"}));
  EXPECT_NE(mask.formula.find("causal"), std::string::npos);
  EXPECT_TRUE(has_row(model.page(StepKind::Softmax, {.head = 0, .query = 2}), {"먹었다", "\u2212\u221e", "0", "0"}));
}

TEST(StepModel, OutputPageWithWo) {
  testing::TestRandom random(9);
  testing::ProblemShape shape;
  shape.with_wo = true;
  shape.d_out = 3;
  const Problem problem = testing::random_problem(random, shape);
  const Result result = make_cpu_backend()->compute(problem);
  const lesson::StepModel model(problem, result);
  const lesson::StepPage out = model.page(StepKind::Output, {});
  EXPECT_EQ(find_matrix(out, "W_O").shape_text(), "4 \u00d7 3");
  EXPECT_EQ(*find_matrix(out, "output").values, result.output);
  EXPECT_NE(out.formula.find("concat\u00b7W_O"), std::string::npos);
  // concat · W_O recomputed in float64 from the page's own concat equals the output.
  const Matrix concat = model.concatenated_contexts();
  for (int i = 0; i < problem.n(); ++i)
    for (int c = 0; c < 3; ++c) {
      double sum = 0.0;
      for (int k = 0; k < concat.cols; ++k) sum += static_cast<double>(concat.at(i, k)) * problem.wo->at(k, c);
      EXPECT_NEAR(result.output.at(i, c), sum, 1e-5);
    }
}

TEST(StepModel, LongRowsAreCutAndBadFocusThrows) {
  testing::TestRandom random(2);
  testing::ProblemShape shape;
  shape.n = 30;
  const Problem problem = testing::random_problem(random, shape);
  const Result result = make_cpu_backend()->compute(problem);
  const lesson::StepModel model(problem, result);
  const lesson::StepPage scores = model.page(StepKind::Scores, {.max_trace_keys = 12});
  EXPECT_EQ(scores.table.rows.size(), 12u);
  EXPECT_EQ(scores.table.more, "\u2026 18 more keys");
  EXPECT_THROW((void)model.page(StepKind::Scores, {.query = 30}), std::out_of_range);
  EXPECT_THROW((void)model.page(StepKind::Scores, {.head = 2}), std::out_of_range);
  EXPECT_THROW((void)model.page(StepKind::Scores, {.key = -1}), std::out_of_range);
}

TEST(StepModel, CrossAttentionLabelsBothSentences) {
  testing::TestRandom random(4);
  testing::ProblemShape shape;
  shape.cross = true;
  shape.n = 3;
  shape.m = 5;
  const Problem problem = testing::random_problem(random, shape);
  const Result result = make_cpu_backend()->compute(problem);
  const lesson::StepModel model(problem, result);
  const lesson::StepPage x = model.page(StepKind::Embeddings, {});
  ASSERT_EQ(x.matrices.size(), 2u);
  EXPECT_EQ(x.matrices[1].row_labels, problem.source_tokens);
  const lesson::StepPage scores = model.page(StepKind::Scores, {});
  const lesson::ShownMatrix& s = find_matrix(scores, "S\u2080");
  EXPECT_EQ(s.row_labels, problem.tokens);
  EXPECT_EQ(s.col_labels, problem.source_tokens);
  EXPECT_EQ(s.shape_text(), "3 \u00d7 5");
}

// The concatenation marks each head's columns; value rows in the weighted-sum table break
// where the view asks (a d_v = 8 row is wider than a projector's column).
TEST(StepModel, ConcatGroupsAndWrappedValueRows) {
  const Korean k("korean-2heads-causal.json");
  const lesson::StepModel model(k.problem, k.result);
  const lesson::ShownMatrix concat = find_matrix(model.page(StepKind::Concat, {}), "concat");
  ASSERT_EQ(concat.column_groups.size(), 2u);
  EXPECT_EQ(concat.column_groups[1].first, 2);
  EXPECT_EQ(concat.column_groups[1].count, 2);
  EXPECT_EQ(concat.column_groups[1].label, "C\u2081");
  lesson::PageFocus focus{.query = 2};
  focus.vector_terms_per_line = 1;
  const lesson::StepPage context = model.page(StepKind::Context, focus);
  EXPECT_NE(context.table.rows.at(0).at(2).find(",\n "), std::string::npos) << context.table.rows.at(0).at(2);
}

TEST(StepModel, TemperatureUsesTheModelPanelsWording) {
  Korean k("korean-full.json");
  k.problem.scale = 20.0f;  // T = 0.05
  const Result result = make_cpu_backend()->compute(k.problem);
  const lesson::StepModel model(k.problem, result);
  const std::string formula = model.page(StepKind::Scaling, {}).formula;
  EXPECT_NE(formula.find("T = 0.05   (scale 1/T = 20;"), std::string::npos) << formula;
}

TEST(StepModel, IndicesAreWrittenAsSubscripts) { EXPECT_EQ(lesson::subscript(12), "\u2081\u2082"); }

}  // namespace
}  // namespace attnviz
