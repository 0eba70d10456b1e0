// The runners' shared checks, names and the progress counter.

#include "core/overview/overview.h"

#include <algorithm>
#include <string>

namespace attnviz::overview {

const char* quantity_name(Quantity quantity) {
  switch (quantity) {
    case Quantity::Weights: return "weights";
    case Quantity::RawScores: return "scores";
    case Quantity::ScaledScores: return "scaled";
  }
  return "weights";
}

std::optional<Quantity> quantity_from_name(const std::string& name) {
  for (const Quantity q : {Quantity::Weights, Quantity::RawScores, Quantity::ScaledScores}) {
    if (name == quantity_name(q)) return q;
  }
  return std::nullopt;
}

const char* pooling_name(Pooling pooling) { return pooling == Pooling::Max ? "max" : "mean"; }

std::optional<Pooling> pooling_from_name(const std::string& name) {
  if (name == "max") return Pooling::Max;
  if (name == "mean") return Pooling::Mean;
  return std::nullopt;
}

bool RowStats::covers(int head, int first, int end) const {
  return head >= 0 && static_cast<std::size_t>(head) < m.size() && !m[static_cast<std::size_t>(head)].empty() &&
         first >= row_begin && end <= row_end;
}

double Progress::fraction() const {
  const std::int64_t total = total_.load();
  if (total <= 0) return 0.0;
  return std::clamp(static_cast<double>(done_.load()) / static_cast<double>(total), 0.0, 1.0);
}

void Progress::start(std::int64_t total) {
  done_.store(0);
  total_.store(total);
}

CheckedRequest check_request(const Problem& problem, const OverviewRequest& request) {
  const int n = problem.n();
  const int m = problem.m();
  if (std::max(n, m) > kMaxOverviewTokens) {
    throw std::invalid_argument("an overview takes at most " + std::to_string(kMaxOverviewTokens) +
                                " tokens; this text has " + std::to_string(std::max(n, m)));
  }
  // Positions enter as in the materialised path (sinusoidal in X, RoPE on the projected rows,
  // ALiBi's bias on each tile's scores); dropout's kept set is not drawn by the overview's
  // kernels, so it is refused by name rather than shown as if it were absent.
  if (problem.dropout) {
    throw std::invalid_argument(
        "the overview of a long text is computed without dropout: remove \"dropout\" "
        "(dropout is shown up to 4096 tokens)");
  }
  const CellWindow window = request.window.value_or(whole(n, m));
  if (window.row_begin < 0 || window.col_begin < 0 || window.row_end > n || window.col_end > m) {
    throw std::invalid_argument("the overview's window rows [" + std::to_string(window.row_begin) + ", " +
                                std::to_string(window.row_end) + ") x columns [" + std::to_string(window.col_begin) +
                                ", " + std::to_string(window.col_end) + ") is outside the " + std::to_string(n) +
                                " x " + std::to_string(m) + " matrix");
  }
  CheckedRequest checked{PixelGrid::fit(window, request.max_pixel_rows, request.max_pixel_cols), request.heads};
  if (checked.heads.empty()) {
    for (int h = 0; h < problem.num_heads; ++h) checked.heads.push_back(h);
  }
  for (const int h : checked.heads) {
    if (h < 0 || h >= problem.num_heads) {
      throw std::invalid_argument("head " + std::to_string(h) + " does not exist: the problem has " +
                                  std::to_string(problem.num_heads) + " heads");
    }
  }
  return checked;
}

}  // namespace attnviz::overview
