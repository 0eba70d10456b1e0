#pragma once
// One query's exact weights (or scores) over every key of a long text ("which of the 65,536
// tokens does token 40,000 attend to?"): the overview of the 1 × M window with a pixel per
// key, so no value is pooled and each is the dense matrix's own cell. About 2 · M · d_k
// multiply-adds and the head's key projection: milliseconds at 65,536 tokens.

#include <cstdint>
#include <vector>

#include "core/overview/overview.h"

namespace attnviz::overview {

struct QueryRow {
  int head = 0;
  int query = 0;
  Quantity quantity = Quantity::Weights;
  std::vector<float> values;         // M: the weight (0 where hidden) or the score of each key
  std::vector<std::uint8_t> hidden;  // M: 1 where the mask hides the key from this query

  [[nodiscard]] int keys() const { return static_cast<int>(values.size()); }
  // Up to `count` visible keys, the largest value first (the earlier key first among equals).
  [[nodiscard]] std::vector<int> top_keys(int count) const;
  [[nodiscard]] int visible_count() const;
};

// Throws std::invalid_argument for a query or head outside the problem (and whatever
// runner.run throws: Cancelled when `progress` asked it to stop).
QueryRow query_row(OverviewRunner& runner, const Problem& problem, int head, int query,
                   Quantity quantity = Quantity::Weights, Progress* progress = nullptr);

}  // namespace attnviz::overview
