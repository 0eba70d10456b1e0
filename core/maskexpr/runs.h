#pragma once
// The keys of one row that a mask expression shows, as runs [begin, end) found by bisection:
// the expression is evaluated on a whole interval of keys at once (evaluate_keys); a definite
// answer settles the interval, an unknown one splits it in two, down to single keys at most.
// The cost follows the number of runs' edges (about 2 · edges · log2(keys) evaluations), not
// the number of keys; with the runs of the row before as a hint (scan_near), about four
// evaluations a run where the rows' runs differ by a key's shift.

#include <algorithm>
#include <cstddef>

#include "core/maskexpr/evaluate.h"

namespace attnviz::maskexpr {

// Finds the runs of keys in [begin, end) the expression shows to query q of head h.
class RowScanner {
 public:
  RowScanner(const Expression& expression, const Environment& environment)
      : expression_(expression), environment_(environment) {}
  // It keeps references: never to a temporary.
  RowScanner(Expression&&, const Environment&) = delete;
  RowScanner(const Expression&, Environment&&) = delete;

  // Appends the runs to `out` (a vector of anything with int members begin and end),
  // ascending; the first merges into out.back() when that ends at `begin` and out holds more
  // than `keep` runs (the runs before `keep` belong to someone else: another row).
  template <class Runs>
  void scan(int q, int h, int begin, int end, Runs& out, std::size_t keep = 0) const {
    if (end > begin) settle(q, h, begin, end - 1, out, keep);
  }

  // The same, guided by a neighbouring row's runs (`hint`, ascending, not in `out`): each hint
  // run's edges and the keys just after them cut [begin, end) into pieces, each settled as
  // scan does. Where this row's runs are the hint's moved by 0 or 1 key (a causal edge, a
  // window, a stride, as from one query to the next), every piece is definite at once: about
  // four evaluations a run instead of 2 · log2(keys). Any hint gives the exact runs; a poor one
  // only costs more (each piece bisected on its own).
  template <class Runs, class Hint>
  void scan_near(int q, int h, int begin, int end, const Hint& hint, Runs& out, std::size_t keep = 0) const {
    int from = begin;
    auto cut = [&](int at) {
      if (at <= from || at >= end) return;
      settle(q, h, from, at - 1, out, keep);
      from = at;
    };
    // The hint's runs that reach [begin, end) with an edge or the key after one.
    auto run = std::partition_point(hint.begin(), hint.end(), [begin](const auto& r) { return r.end + 1 <= begin; });
    for (; run != hint.end() && run->begin < end; ++run) {
      cut(run->begin);
      cut(run->begin + 1);
      cut(run->end);
      cut(run->end + 1);
    }
    scan(q, h, from, end, out, keep);
  }

 private:
  // Keys [lo, hi] by bisection: a definite answer settles an interval, an unknown one splits it.
  template <class Runs>
  void settle(int q, int h, int lo, int hi, Runs& out, std::size_t keep) const {
    // Intervals still to settle, the leftmost on top, so runs come out in order.
    struct Pending {
      int lo, hi;  // keys [lo, hi], inclusive
    };
    Pending stack[40];  // bisection of at most 2^31 keys: one pending right half per level
    int top = 0;
    stack[0] = {lo, hi};
    while (top >= 0) {
      const Pending p = stack[top--];
      // A single key is always definite; evaluating it as a cell keeps that true by construction.
      const Truth truth = p.lo == p.hi ? (evaluate(expression_, environment_, q, p.lo, h) ? Truth::True : Truth::False)
                                       : evaluate_keys(expression_, environment_, q, {p.lo, p.hi}, h);
      if (truth == Truth::False) continue;
      if (truth == Truth::True) {
        if (out.size() > keep && out.back().end == p.lo) {
          out.back().end = p.hi + 1;
        } else {
          out.push_back({p.lo, p.hi + 1});
        }
        continue;
      }
      const int mid = p.lo + (p.hi - p.lo) / 2;
      stack[++top] = {mid + 1, p.hi};
      stack[++top] = {p.lo, mid};
    }
  }

  const Expression& expression_;
  const Environment& environment_;
};

}  // namespace attnviz::maskexpr
