#include "core/overview/query_row.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace attnviz::overview {

std::vector<int> QueryRow::top_keys(int count) const {
  std::vector<int> visible;
  visible.reserve(values.size());
  for (int j = 0; j < keys(); ++j) {
    if (hidden[static_cast<std::size_t>(j)] == 0) visible.push_back(j);
  }
  const auto larger = [this](int a, int b) {
    const float va = values[static_cast<std::size_t>(a)];
    const float vb = values[static_cast<std::size_t>(b)];
    return va != vb ? va > vb : a < b;
  };
  const auto kept = static_cast<std::size_t>(std::clamp(count, 0, static_cast<int>(visible.size())));
  std::partial_sort(visible.begin(), visible.begin() + static_cast<std::ptrdiff_t>(kept), visible.end(), larger);
  visible.resize(kept);
  return visible;
}

int QueryRow::visible_count() const {
  return static_cast<int>(std::count(hidden.begin(), hidden.end(), std::uint8_t{0}));
}

QueryRow query_row(OverviewRunner& runner, const Problem& problem, int head, int query, Quantity quantity,
                   Progress* progress) {
  if (query < 0 || query >= problem.n()) {
    throw std::invalid_argument("query " + std::to_string(query) + " does not exist: the text has " +
                                std::to_string(problem.n()) + " query tokens");
  }
  OverviewRequest request;
  request.window = CellWindow{query, query + 1, 0, problem.m()};
  request.max_pixel_rows = 1;
  request.max_pixel_cols = problem.m();  // a pixel per key: exact values
  request.quantity = quantity;
  request.heads = {head};
  Overview row = runner.run(problem, request, progress);
  QueryRow out;
  out.head = head;
  out.query = query;
  out.quantity = quantity;
  out.values = std::move(row.heads.front().values);
  out.hidden = std::move(row.heads.front().hidden);
  return out;
}

}  // namespace attnviz::overview
