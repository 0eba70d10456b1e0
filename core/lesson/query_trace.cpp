#include "core/lesson/query_trace.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/scenario/dropout.h"
#include "core/scenario/positions.h"

namespace attnviz::lesson {
namespace {

void check_cell(const Result& result, int head, int query, int key) {
  if (head < 0 || static_cast<std::size_t>(head) >= result.heads.size())
    throw std::out_of_range("lesson: no such head");
  const Matrix& scores = result.heads[static_cast<std::size_t>(head)].scores;
  if (query < 0 || query >= scores.rows) throw std::out_of_range("lesson: no such query token");
  if (key < 0 || key >= scores.cols) throw std::out_of_range("lesson: no such key token");
}

std::vector<float> row_of(const Matrix& matrix, int row) {
  return std::vector<float>(matrix.row(row), matrix.row(row) + matrix.cols);
}

}  // namespace

int QueryTrace::visible_count() const {
  int count = 0;
  for (std::uint8_t v : visible) count += v != 0 ? 1 : 0;
  return count;
}

QueryTrace trace_query(const Problem& problem, const Result& result, const HeadProjections& head_matrices, int head,
                       int query) {
  check_cell(result, head, query, 0);
  const Matrix& scores = result.heads[static_cast<std::size_t>(head)].scores;
  const int keys = scores.cols;
  const double minus_infinity = -std::numeric_limits<double>::infinity();

  QueryTrace trace;
  trace.head = head;
  trace.kv_head = problem.kv_head_of(head);
  trace.query = query;
  trace.q_row = row_of(head_matrices.q, query);
  trace.scores = row_of(scores, query);
  trace.scale = problem.scale;
  trace.row_max = minus_infinity;
  trace.slope = head_slopes(problem)[static_cast<std::size_t>(head)];
  for (int j = 0; j < keys; ++j) {
    trace.bias.push_back(alibi_bias(trace.slope, query, j));
    const float scaled = scaled_score(trace.scores[static_cast<std::size_t>(j)], problem.scale, trace.slope, query, j);
    const bool seen = result.mask.at(query, j);
    trace.scaled.push_back(scaled);
    trace.visible.push_back(seen ? 1 : 0);
    trace.masked.push_back(seen ? scaled : -std::numeric_limits<float>::infinity());
    if (seen) trace.row_max = std::fmax(trace.row_max, static_cast<double>(scaled));
  }
  for (int j = 0; j < keys; ++j) {
    const auto uj = static_cast<std::size_t>(j);
    const double e = trace.visible[uj] != 0 ? std::exp(static_cast<double>(trace.scaled[uj]) - trace.row_max) : 0.0;
    trace.exponentials.push_back(e);
    trace.exponential_sum += e;
  }
  trace.context.assign(static_cast<std::size_t>(head_matrices.v.cols), 0.0);
  const DropoutRule dropout = dropout_rule(problem.dropout);
  trace.dropout = dropout.active;
  for (int j = 0; j < keys; ++j) {
    const auto uj = static_cast<std::size_t>(j);
    const double w = trace.exponential_sum > 0.0 ? trace.exponentials[uj] / trace.exponential_sum : 0.0;
    trace.weights.push_back(w);
    double used = w;
    if (dropout.active) {
      const bool keep = dropout.keeps(head, query, j);
      trace.kept.push_back(keep ? 1 : 0);
      used = keep ? w * static_cast<double>(dropout.keep_scale) : 0.0;
      trace.dropped_out.push_back(used);
    }
    for (int d = 0; d < head_matrices.v.cols; ++d)
      trace.context[static_cast<std::size_t>(d)] += used * static_cast<double>(head_matrices.v.at(j, d));
  }
  return trace;
}

DotProductTerms dot_product_terms(const Result& result, const HeadProjections& head_matrices, int head, int query,
                                  int key) {
  check_cell(result, head, query, key);
  DotProductTerms terms;
  terms.head = head;
  terms.query = query;
  terms.key = key;
  for (int d = 0; d < head_matrices.q.cols; ++d) {
    const double q = head_matrices.q.at(query, d);
    const double k = head_matrices.k.at(key, d);
    terms.q.push_back(q);
    terms.k.push_back(k);
    terms.products.push_back(q * k);
    terms.total += q * k;
  }
  terms.result_score = result.heads[static_cast<std::size_t>(head)].scores.at(query, key);
  return terms;
}

}  // namespace attnviz::lesson
