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
  page.title = w_.tr("Classic mistakes: %1$s", {w_.tr(mistake_name(mistake))});
  const auto q = static_cast<std::size_t>(focus_.query);
  // The two sides of each formula: "wrong: A = softmax(S)" (the formulas themselves are notation).
  const std::string wrong = w_.tr("wrong: %1$s");
  const std::string right = w_.tr("right: %1$s");
  std::string wrong_name;
  switch (mistake) {
    case Mistake::SoftmaxOverColumns:
      page.formula =
          fill_arguments(wrong, {"a[i,j] = exp(s'[i,j]) / \u03a3\u1d62 exp(s'[i,j])   " +  // not translated: notation
                                 w_.tr("(softmax(S, dim=0): down each column)")}) +
          "\n" +
          fill_arguments(right, {"a[i,j] = exp(s'[i,j]) / \u03a3\u2096 exp(s'[i,k])   " +  // not translated: notation
                                 w_.tr("(softmax(S, dim=\u22121): along each row)")});
      page.note = w_.tr(
          "Each query must share its attention among the keys, so each row must sum to 1. Normalising down "
          "the columns makes every key hand out 1 instead: the columns sum to 1 and the rows do not.");
      wrong_name = w_.tr("softmax over columns");
      break;
    case Mistake::NoScaling:
      page.formula = fill_arguments(wrong, {"A = softmax(S)"}) + "\n" +      // not translated: notation
                     fill_arguments(right, {"A = softmax(S / \u221ad_k)"});  // not translated: notation
      page.note = w_.tr(
          "Without 1/\u221ad_k the scores grow with d_k and the softmax saturates: one key takes nearly all "
          "the weight. The Scaling page shows every row with and without it.");
      page.links_to_scaling = true;
      wrong_name = w_.tr("no scaling");
      break;
    case Mistake::MaskAfterSoftmax:
      page.formula = fill_arguments(wrong, {w_.tr("A = softmax(S') \u2299 mask   (masked after normalising)")}) + "\n" +
                     fill_arguments(right, {w_.tr("A = softmax(S' + (\u2212\u221e where masked))")});
      page.note = w_.tr(
          "The hidden keys took their share of the softmax before being zeroed, so what is left of each "
          "row sums to less than 1: the weights no longer average the values.");
      wrong_name = w_.tr("masked after softmax");
      break;
    case Mistake::MaskAfterSoftmaxRenormalised:
      page.formula = w_.tr("A = softmax(S') \u2299 mask, then each row \u00f7 its sum") + "\n" +
                     w_.tr("= softmax(S' + (\u2212\u221e where masked))   exactly");
      page.note = w_.tr(
          "Not a mistake after all: dividing by what is left of each row's sum gives exactly the weights of "
          "masking before the softmax (exp(s \u2212 m) / \u03a3 over the visible keys either way). The difference "
          "is 0, up to rounding.");
      wrong_name = w_.tr("masked after, renormalised");
      break;
  }
  if (demo.mask_substituted) page.formula += "\n" + w_.tr("(this scenario has no mask: shown with a causal one)");
  if (demo.sharpness > 1.0) {
    page.formula += "\n" + w_.tr(
                               "(this head's weights are nearly uniform, so the mistake would hardly show: both "
                               "sides use its scores \u00d7 %1$s, a sharper head)",
                               {std::to_string(static_cast<int>(demo.sharpness))});
  }
  if (focus_.include_matrices) {
    ShownMatrix wrong_matrix = owned(wrong_name, demo.mistaken, true, true);
    wrong_matrix.kind = ShownMatrix::Kind::Weights;
    ShownMatrix right_matrix = owned(w_.tr("right"), demo.correct, true, true);
    right_matrix.kind = ShownMatrix::Kind::Weights;
    page.matrices = {std::move(wrong_matrix), std::move(right_matrix)};
    if (mistake == Mistake::MaskAfterSoftmaxRenormalised || mistake == Mistake::MaskAfterSoftmax)
      page.matrices.push_back(owned(w_.tr("difference"), demo.difference, true, true));
    if (demo.mask_substituted)
      for (ShownMatrix& m : page.matrices) m.mask = demo.mask;
  }
  fill_table(page.table, {w_.tr("key"), w_.tr("wrong"), w_.tr("right")}, [&](int j) -> std::vector<std::string> {
    return {key_label(j), num(demo.mistaken.at(focus_.query, j)), num(demo.correct.at(focus_.query, j))};
  });
  page.trace.push_back(w_.tr("row of %1$s: wrong sums to %2$s, right to %3$s",
                             {query_label(), num(demo.mistaken_row_sums[q]), num(demo.correct_row_sums[q])}));
  switch (mistake) {
    case Mistake::SoftmaxOverColumns: {
      std::string columns;
      for (std::size_t j = 0; j < demo.mistaken_col_sums.size() && j < 8; ++j)
        columns += (j == 0 ? "" : ", ") + num(demo.mistaken_col_sums[j]);
      if (demo.mistaken_col_sums.size() > 8) columns += ", \u2026";
      page.trace_after.push_back(w_.tr("wrong: the columns sum to %1$s", {columns}));
      break;
    }
    case Mistake::NoScaling:
    case Mistake::MaskAfterSoftmax: break;
    case Mistake::MaskAfterSoftmaxRenormalised:
      page.trace_after.push_back(w_.tr("largest |wrong \u2212 right| over every row: %1$s (0 up to float64 rounding)",
                                       {scientific(demo.largest_difference)}));
      break;
  }
  if (mistake == Mistake::MaskAfterSoftmax) {
    page.trace_after.push_back(w_.tr("largest |wrong \u2212 right|: %1$s", {num(demo.largest_difference)}));
  }
  return page;
}

}  // namespace attnviz::lesson
