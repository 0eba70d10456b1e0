#include "core/lesson/steps.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "core/common/number_text.h"
#include "core/lesson/step_pages.h"
#include "core/scenario/positions.h"

namespace attnviz::lesson {

StepKind step_at(int index) { return static_cast<StepKind>(std::clamp(index, 0, kStepCount - 1)); }

int step_index(StepKind kind) { return static_cast<int>(kind); }

const char* step_name(StepKind kind) {
  switch (kind) {
    case StepKind::Embeddings: return N_("Embeddings");
    case StepKind::Projections: return N_("Q, K, V");
    case StepKind::Positions: return N_("Positions");
    case StepKind::Scores: return N_("Scores");
    case StepKind::Scaling: return N_("Scaling");
    case StepKind::Masking: return N_("Mask");
    case StepKind::Softmax: return N_("Softmax");
    case StepKind::Context: return N_("Weighted sum");
    case StepKind::Concat: return N_("Concatenate");
    case StepKind::Output: return N_("Output");
    case StepKind::Mistakes: return N_("Mistakes");
  }
  return "";
}

std::string ShownMatrix::shape_text() const {
  if (!values) return "";
  return format_grouped(values->rows) + " \u00d7 " + format_grouped(values->cols);
}

StepModel::StepModel(const Problem& problem, const Result& result)
    : problem_(&problem), result_(&result), projections_(compute_projections(problem)) {
  if (result.heads.size() != static_cast<std::size_t>(problem.num_heads) || result.mask.rows != problem.n() ||
      result.mask.cols != problem.m())
    throw std::invalid_argument(
        "lesson: the result does not belong to this problem");  // not translated: a programming error
}

void StepModel::check_focus(const PageFocus& focus) const {
  if (focus.head < 0 || focus.head >= problem_->num_heads)
    throw std::out_of_range("lesson: no such head");  // not translated: a programming error
  if (focus.query < 0 || focus.query >= problem_->n())
    throw std::out_of_range("lesson: no such query token");  // not translated: a programming error
  if (focus.key < 0 || focus.key >= problem_->m())
    throw std::out_of_range("lesson: no such key token");  // not translated: a programming error
}

QueryTrace StepModel::trace(int head_index, int query) const {
  return trace_query(*problem_, *result_, head(head_index), head_index, query);
}

DotProductTerms StepModel::dot_product(int head_index, int query, int key) const {
  return dot_product_terms(*result_, head(head_index), head_index, query, key);
}

Matrix StepModel::scaled_scores(int head_index) const {
  Matrix scaled = result_->heads.at(static_cast<std::size_t>(head_index)).scores;
  const float slope = head_slopes(*problem_).at(static_cast<std::size_t>(head_index));
  for (int i = 0; i < scaled.rows; ++i)
    for (int j = 0; j < scaled.cols; ++j) scaled.at(i, j) = scaled_score(scaled.at(i, j), problem_->scale, slope, i, j);
  return scaled;
}

Matrix StepModel::masked_scores(int head_index) const {
  Matrix masked = scaled_scores(head_index);
  for (std::size_t k = 0; k < masked.size(); ++k)
    if (result_->mask.visible[k] == 0) masked.data[k] = -std::numeric_limits<float>::infinity();
  return masked;
}

Matrix StepModel::concatenated_contexts() const {
  std::vector<const Matrix*> blocks;
  for (const HeadResult& h : result_->heads) blocks.push_back(&h.context);
  return concatenate_columns(blocks);
}

StepPage StepModel::page(StepKind kind, const PageFocus& focus, const Wording& wording) const {
  check_focus(focus);
  const PageBuilder builder(*this, focus, wording);
  StepPage page = builder.build(kind);
  page.kind = kind;
  page.number = step_index(kind) + 1;
  page.title = std::to_string(page.number) + ". " + page.title;
  return page;
}

std::vector<StepPage> StepModel::pages(const PageFocus& focus, const Wording& wording) const {
  std::vector<StepPage> all;
  for (int i = 0; i < kStepCount; ++i) all.push_back(page(step_at(i), focus, wording));
  return all;
}

std::vector<std::string> dot_product_lines(const DotProductTerms& terms, const std::string& query_label,
                                           const std::string& key_label, int decimals, int terms_per_line) {
  std::vector<std::string> lines{"q[" + query_label + "]\u00b7k[" + key_label + "] ="};
  const std::size_t per_line = static_cast<std::size_t>(std::max(terms_per_line, 1));
  for (std::size_t d = 0; d < terms.products.size(); ++d) {
    const std::string term = factor_text(terms.q[d], decimals) + "\u00d7" + factor_text(terms.k[d], decimals);
    if (d % per_line == 0)
      lines.push_back((d == 0 ? "  " : "+ ") + term);
    else
      lines.back() += " + " + term;
  }
  lines.push_back("= " + format_number(terms.total, decimals));
  return lines;
}

std::string subscript(int index) {
  static const char* const kDigits[] = {"\u2080", "\u2081", "\u2082", "\u2083", "\u2084",
                                        "\u2085", "\u2086", "\u2087", "\u2088", "\u2089"};
  const std::string decimal = std::to_string(std::max(index, 0));
  std::string text;
  for (char digit : decimal) text += kDigits[digit - '0'];
  return text;
}

std::string factor_text(double value, int decimals) {
  const std::string text = format_number(value, decimals);
  const bool negative = text.rfind("\u2212", 0) == 0;  // format_number's minus sign
  return negative ? "(" + text + ")" : text;
}

std::string dot_product_text(const DotProductTerms& terms, const std::string& query_label, const std::string& key_label,
                             int decimals) {
  std::string text = "q[" + query_label + "]\u00b7k[" + key_label + "] = ";
  for (std::size_t d = 0; d < terms.products.size(); ++d) {
    if (d > 0) text += " + ";
    text += factor_text(terms.q[d], decimals) + "\u00d7" + factor_text(terms.k[d], decimals);
  }
  return text + " = " + format_number(terms.total, decimals);
}

}  // namespace attnviz::lesson
