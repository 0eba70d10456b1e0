#pragma once
// Running a mask expression's bytecode: on one cell (q, k, h), or on every key of an interval
// [k_lo, k_hi] at once with interval arithmetic. The interval answer is exact where it is
// definite: True means the condition holds for every key of the interval, False for none;
// Unknown means some of each, or that the bounds could not tell. On a single key it is always
// definite, so bisection (runs.h) ends at single cells at the latest.

#include <cstdint>
#include <vector>

#include "core/maskexpr/expression.h"

namespace attnviz::maskexpr {

// What the names mean for one problem.
struct Environment {
  Int n = 0;                   // queries
  Int m = 0;                   // keys
  std::vector<int> documents;  // ascending start indices: doc(i) = (starts ≤ i) − 1
  std::vector<int> globals;    // ascending, distinct: global(i) = i is listed
};

enum class Truth : std::uint8_t { False, True, Unknown };

struct Interval {
  Int lo = 0;
  Int hi = 0;
};

// doc(i): the number of document starts at or before i, minus one (−1 before the first).
Int document_of(const Environment& environment, Int i);

bool evaluate(const Expression& expression, const Environment& environment, Int q, Int k, Int h);
Truth evaluate_keys(const Expression& expression, const Environment& environment, Int q, Interval keys, Int h);

}  // namespace attnviz::maskexpr
