#pragma once
// Internal to core/lesson: builds the text and matrices of one step page. One function per
// step (step_pages.cpp); StepModel::page() dispatches here.

#include <algorithm>
#include <string>
#include <vector>

#include "core/common/number_text.h"
#include "core/common/wording.h"
#include "core/lesson/steps.h"

namespace attnviz::lesson {

class PageBuilder {
 public:
  PageBuilder(const StepModel& model, const PageFocus& focus, const Wording& wording);
  [[nodiscard]] StepPage build(StepKind kind) const;

 private:
  [[nodiscard]] StepPage embeddings() const;
  [[nodiscard]] StepPage projections() const;
  [[nodiscard]] StepPage positions() const;  // position_page.cpp
  [[nodiscard]] StepPage mistakes() const;   // mistakes_page.cpp
  [[nodiscard]] StepPage scores() const;
  [[nodiscard]] StepPage scaling() const;
  [[nodiscard]] StepPage masking() const;
  [[nodiscard]] StepPage softmax() const;
  [[nodiscard]] StepPage context() const;
  [[nodiscard]] StepPage concat() const;
  [[nodiscard]] StepPage output() const;

  [[nodiscard]] std::string num(double value) const;
  [[nodiscard]] std::string shape(int rows, int cols) const;
  // The followed query's and a key's token as the pages write them: cut to a few dozen
  // characters (a text without spaces can make one token of megabytes).
  [[nodiscard]] std::string query_label() const;
  [[nodiscard]] std::string key_label(int key) const;
  [[nodiscard]] ShownMatrix owned(std::string name, Matrix values, bool query_rows, bool key_cols) const;
  [[nodiscard]] ShownMatrix borrowed(std::string name, const Matrix& values, bool query_rows, bool key_cols) const;
  // Rows for keys 0 … M−1 (cut at focus.max_trace_keys), each made by `row(j)`.
  template <typename RowOfKey>
  void fill_table(TraceTable& table, std::vector<std::string> header, RowOfKey row) const;
  void fill_pairs(TraceTable& table, const std::vector<double>& frequencies) const;

  const StepModel& model_;
  const Problem& problem_;
  const Result& result_;
  PageFocus focus_;
  const Wording& w_;  // the caller's language for every sentence (numbers and formulas stay)
  std::string h_;     // the head's subscript, "₀"
  std::string g_;     // its key/value head's subscript
  std::vector<std::string> dims_k_, dims_v_, dims_model_;
};

template <typename RowOfKey>
inline void PageBuilder::fill_table(TraceTable& table, std::vector<std::string> header, RowOfKey row) const {
  table.header = std::move(header);
  const int keys = problem_.m();
  const int shown = std::min(keys, std::max(focus_.max_trace_keys, 1));
  for (int j = 0; j < shown; ++j) table.rows.push_back(row(j));
  if (focus_.key < shown) table.highlight_row = focus_.key;
  if (keys > shown) {
    const int more = keys - shown;
    table.more = w_.trn("\u2026 %1$s more key", "\u2026 %1$s more keys", static_cast<unsigned long>(more),
                        {format_grouped(more)});
  }
}

}  // namespace attnviz::lesson
