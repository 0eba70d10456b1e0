// The Mistakes page: one classic mistake (PageFocus::mistake) computed beside the right way
// (mistakes.h), with the followed query's row written out and the sums that give it away.

#include <cstdio>
#include <string>

#include "core/common/number_text.h"
#include "core/lesson/step_pages.h"

namespace attnviz::lesson {
namespace {

// "4.2e-17": a tiny difference without pretending it is exactly 0.
std::string scientific(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1e", value);
  return text;
}

}  // namespace

StepPage PageBuilder::mistakes() const {
  const Mistake mistake = focus_.mistake;
  const MistakeDemo demo = demonstrate(problem_, result_, focus_.head, mistake);
  StepPage page;
  page.mistake = mistake;
  page.title = std::string("Classic mistakes: ") + mistake_name(mistake);
  const auto q = static_cast<std::size_t>(focus_.query);
  std::string wrong_name = "mistake";
  switch (mistake) {
    case Mistake::SoftmaxOverColumns:
      page.formula =
          "wrong: a[i,j] = exp(s'[i,j]) / \u03a3\u1d62 exp(s'[i,j])   (softmax(S, dim=0): down each column)\n"
          "right: a[i,j] = exp(s'[i,j]) / \u03a3\u2096 exp(s'[i,k])   (softmax(S, dim=\u22121): along each row)";
      page.note =
          "Each query must share its attention among the keys, so each row must sum to 1. Normalising down "
          "the columns makes every key hand out 1 instead: the columns sum to 1 and the rows do not.";
      wrong_name = "softmax over columns";
      break;
    case Mistake::NoScaling:
      page.formula = "wrong: A = softmax(S)\nright: A = softmax(S / \u221ad_k)";
      page.note =
          "Without 1/\u221ad_k the scores grow with d_k and the softmax saturates: one key takes nearly all "
          "the weight. The Scaling page shows every row with and without it.";
      page.links_to_scaling = true;
      wrong_name = "no scaling";
      break;
    case Mistake::MaskAfterSoftmax:
      page.formula =
          "wrong: A = softmax(S') \u2299 mask   (masked after normalising)\n"
          "right: A = softmax(S' + (\u2212\u221e where masked))";
      page.note =
          "The hidden keys took their share of the softmax before being zeroed, so what is left of each "
          "row sums to less than 1: the weights no longer average the values.";
      wrong_name = "masked after softmax";
      break;
    case Mistake::MaskAfterSoftmaxRenormalised:
      page.formula =
          "A = softmax(S') \u2299 mask, then each row \u00f7 its sum\n"
          "= softmax(S' + (\u2212\u221e where masked))   exactly";
      page.note =
          "Not a mistake after all: dividing by what is left of each row's sum gives exactly the weights of "
          "masking before the softmax (exp(s \u2212 m) / \u03a3 over the visible keys either way). The difference "
          "is 0, up to rounding.";
      wrong_name = "masked after, renormalised";
      break;
  }
  if (demo.mask_substituted) page.formula += "\n(this scenario has no mask: shown with a causal one)";
  if (demo.sharpness > 1.0) {
    page.formula +=
        "\n(this head's weights are nearly uniform, so the mistake would hardly show: both sides use its "
        "scores \u00d7 " +
        std::to_string(static_cast<int>(demo.sharpness)) + ", a sharper head)";
  }
  if (focus_.include_matrices) {
    ShownMatrix wrong = owned(wrong_name, demo.mistaken, true, true);
    wrong.kind = ShownMatrix::Kind::Weights;
    ShownMatrix right = owned("right", demo.correct, true, true);
    right.kind = ShownMatrix::Kind::Weights;
    page.matrices = {std::move(wrong), std::move(right)};
    if (mistake == Mistake::MaskAfterSoftmaxRenormalised || mistake == Mistake::MaskAfterSoftmax)
      page.matrices.push_back(owned("difference", demo.difference, true, true));
    if (demo.mask_substituted)
      for (ShownMatrix& m : page.matrices) m.mask = demo.mask;
  }
  fill_table(page.table, {"key", "wrong", "right"}, [&](int j) -> std::vector<std::string> {
    return {key_label(j), num(demo.mistaken.at(focus_.query, j)), num(demo.correct.at(focus_.query, j))};
  });
  page.trace.push_back("row of " + query_label() + ": wrong sums to " + num(demo.mistaken_row_sums[q]) + ", right to " +
                       num(demo.correct_row_sums[q]));
  switch (mistake) {
    case Mistake::SoftmaxOverColumns: {
      std::string columns;
      for (std::size_t j = 0; j < demo.mistaken_col_sums.size() && j < 8; ++j)
        columns += (j == 0 ? "" : ", ") + num(demo.mistaken_col_sums[j]);
      if (demo.mistaken_col_sums.size() > 8) columns += ", \u2026";
      page.trace_after.push_back("wrong: the columns sum to " + columns);
      break;
    }
    case Mistake::NoScaling:
    case Mistake::MaskAfterSoftmax: break;
    case Mistake::MaskAfterSoftmaxRenormalised:
      page.trace_after.push_back("largest |wrong \u2212 right| over every row: " + scientific(demo.largest_difference) +
                                 " (0 up to float64 rounding)");
      break;
  }
  if (mistake == Mistake::MaskAfterSoftmax) {
    page.trace_after.push_back("largest |wrong \u2212 right|: " + num(demo.largest_difference));
  }
  return page;
}

}  // namespace attnviz::lesson
