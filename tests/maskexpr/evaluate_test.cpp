// Interval evaluation and the rows' runs: a definite answer on an interval of keys holds for
// every key in it, and the runs found by bisection are exactly the keys the expression shows,
// for the named patterns of the Mask panel and for awkward arithmetic (division, modulo and
// products with negative and zero operands, saturation).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/maskexpr/evaluate.h"
#include "core/maskexpr/expression.h"
#include "core/maskexpr/runs.h"

namespace attnviz::maskexpr {
namespace {

struct Span {
  int begin = 0;
  int end = 0;
};

Environment environment(int n, int m) {
  Environment e;
  e.n = n;
  e.m = m;
  e.documents = {0, 5, 6, 13};
  e.globals = {0, 7, 8};
  return e;
}

const char* const kExpressions[] = {
    "k <= q",
    "abs(q - k) <= 2",
    "abs(q - k) <= 2 || global(q) || global(k)",
    "k <= q && (q - k < 3 || (q - k) % 3 == 0)",
    "k <= q && (k < 2 || q - k <= 3)",
    "k < 4 || k <= q",
    "q / 4 == k / 4",
    "abs(q - k) <= 6 && (q - k) % 2 == 0",
    "doc(q) == doc(k)",
    "doc(q) == doc(k) && k <= q",
    "(k - q) / (h - 1) > 1 || (q - 7) % (k - 5) < 0",
    "k * (k - 9) * h > q * 3 - 20",
    "min(k, 12 - k) > max(q % 5, h) && !(k == 6)",
    "(k - 9) * 9223372036854775807 < -q",
    "(q - k) % (h - 2) == 0",
    "k % 0 == k && k / 0 == 0 && global(k - 1) != global(k + 1)",
    "(k % (q - 6)) * (k / (q - 6)) >= -3",
};

TEST(MaskExpressionIntervals, DefiniteAnswersHoldForEveryKey) {
  const Environment e = environment(15, 17);
  for (const char* text : kExpressions) {
    const Expression expression = Expression::parse(text);
    for (int h = 0; h < 3; ++h) {
      for (int q = 0; q < e.n; ++q) {
        for (int lo = 0; lo < e.m; ++lo) {
          for (int hi = lo; hi < e.m; ++hi) {
            const Truth truth = evaluate_keys(expression, e, q, {lo, hi}, h);
            bool any = false;
            bool all = true;
            for (int k = lo; k <= hi; ++k) {
              const bool cell = evaluate(expression, e, q, k, h);
              any = any || cell;
              all = all && cell;
            }
            if (truth == Truth::True) {
              ASSERT_TRUE(all) << text << " q=" << q << " h=" << h << " [" << lo << ", " << hi << "]";
            }
            if (truth == Truth::False) {
              ASSERT_FALSE(any) << text << " q=" << q << " h=" << h << " [" << lo << ", " << hi << "]";
            }
            if (lo == hi) {
              ASSERT_NE(truth, Truth::Unknown) << text;
            }
          }
        }
      }
    }
  }
}

// The keys the runs cover, as '1's in a string of m '.'s; the runs must be ascending, apart
// (merged where they touch) and non-empty.
std::string covered(const std::vector<Span>& runs, int m) {
  std::string got(static_cast<std::size_t>(m), '.');
  for (std::size_t r = 0; r < runs.size(); ++r) {
    EXPECT_LT(runs[r].begin, runs[r].end);
    if (r > 0) {
      EXPECT_LT(runs[r - 1].end, runs[r].begin) << "runs touch: not merged";
    }
    for (int k = runs[r].begin; k < runs[r].end; ++k) got[static_cast<std::size_t>(k)] = '1';
  }
  return got;
}

// The keys of [begin, end) the expression shows, cell by cell.
std::string visible(const Expression& expression, const Environment& e, int q, int h, Span range) {
  std::string want(static_cast<std::size_t>(e.m), '.');
  for (int k = range.begin; k < range.end; ++k) {
    if (evaluate(expression, e, q, k, h)) want[static_cast<std::size_t>(k)] = '1';
  }
  return want;
}

TEST(MaskExpressionRuns, RunsAreExactlyTheVisibleKeys) {
  const Environment e = environment(15, 17);
  for (const char* text : kExpressions) {
    const Expression expression = Expression::parse(text);
    const RowScanner scanner(expression, e);
    for (int h = 0; h < 3; ++h) {
      for (int q = 0; q < e.n; ++q) {
        // The whole row, and a part of it (as inside a named field's span).
        for (const Span range : {Span{0, 17}, Span{3, 11}}) {
          std::vector<Span> runs;
          scanner.scan(q, h, range.begin, range.end, runs);
          ASSERT_EQ(covered(runs, static_cast<int>(e.m)), visible(expression, e, q, h, range))
              << text << " q=" << q << " h=" << h;
        }
      }
    }
  }
}

TEST(MaskExpressionRuns, AnyHintGivesTheExactRuns) {
  // The hint only says where to cut first: the row before's runs (the Mask's use), the row
  // after's, another head's, and runs unrelated to the expression all give the exact runs.
  const Environment e = environment(15, 17);
  const std::vector<Span> unrelated = {{0, 1}, {2, 5}, {6, 7}, {9, 17}};
  for (const char* text : kExpressions) {
    const Expression expression = Expression::parse(text);
    const RowScanner scanner(expression, e);
    for (int h = 0; h < 3; ++h) {
      for (int q = 0; q < e.n; ++q) {
        std::vector<std::vector<Span>> hints = {unrelated, {}};
        for (const auto& [hint_q, hint_h] : {std::pair{q - 1, h}, std::pair{q + 1, h}, std::pair{q, (h + 1) % 3}}) {
          if (hint_q < 0 || hint_q >= e.n) continue;
          scanner.scan(hint_q, hint_h, 0, static_cast<int>(e.m), hints.emplace_back());
        }
        for (const std::vector<Span>& hint : hints) {
          for (const Span range : {Span{0, 17}, Span{3, 11}, Span{5, 6}}) {
            std::vector<Span> runs = {{-3, -2}};  // another row's run, kept apart
            scanner.scan_near(q, h, range.begin, range.end, hint, runs, 1);
            runs.erase(runs.begin());
            ASSERT_EQ(covered(runs, static_cast<int>(e.m)), visible(expression, e, q, h, range))
                << text << " q=" << q << " h=" << h << " hint of " << hint.size() << " runs, keys [" << range.begin
                << ", " << range.end << ")";
          }
        }
      }
    }
  }
}

TEST(MaskExpressionRuns, CostFollowsTheRunsNotTheKeys) {
  // The sinks pattern at 4096 keys: three edges per row, so a few dozen evaluations, not 4096.
  Environment e;
  e.n = 4096;
  e.m = 4096;
  const Expression expression = Expression::parse("k <= q && (k < 4 || q - k <= 8)");
  const RowScanner scanner(expression, e);  // NOLINT: both outlive it
  std::vector<Span> runs;
  scanner.scan(3000, 0, 0, 4096, runs);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].begin, 0);
  EXPECT_EQ(runs[0].end, 4);
  EXPECT_EQ(runs[1].begin, 2992);
  EXPECT_EQ(runs[1].end, 3001);
}

TEST(MaskExpressionRuns, KeepLeavesEarlierRunsAlone) {
  Environment e;
  e.n = 4;
  e.m = 8;
  const Expression always = Expression::parse("true");
  const RowScanner scanner(always, e);
  std::vector<Span> runs = {{0, 3}};
  scanner.scan(0, 0, 3, 8, runs, 1);  // another row's run ends at 3: not merged
  ASSERT_EQ(runs.size(), 2u);
  scanner.scan(0, 0, 8, 8, runs);
  EXPECT_EQ(runs.size(), 2u);
}

TEST(MaskExpressionDocuments, DocIsTheCountOfStartsAtOrBefore) {
  Environment e;
  e.documents = {2, 5};
  EXPECT_EQ(document_of(e, 0), -1);
  EXPECT_EQ(document_of(e, 2), 0);
  EXPECT_EQ(document_of(e, 4), 0);
  EXPECT_EQ(document_of(e, 5), 1);
  EXPECT_EQ(document_of(e, kIntMax), 1);
}

}  // namespace
}  // namespace attnviz::maskexpr
