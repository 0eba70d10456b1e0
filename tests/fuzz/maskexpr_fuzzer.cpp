// The mask expression parser (core/maskexpr) on arbitrary bytes: an Expression or an
// ExpressionError whose column lies inside the text (or just past its end), never a crash or a
// stack overflow. A parsed expression is then run on a few cells and key intervals, whose
// definite answers must agree with the cells (the interval evaluation is exact where definite),
// and its runs must be sorted, apart, inside the row and exactly the keys shown, with or without
// another row's runs as a hint.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "core/maskexpr/evaluate.h"
#include "core/maskexpr/expression.h"
#include "core/maskexpr/runs.h"

namespace {

struct Span {
  int begin = 0;
  int end = 0;
};

// Runs ascending, apart, non-empty, inside the row, and exactly the keys shown.
void check_runs(const attnviz::maskexpr::Expression& expression, const attnviz::maskexpr::Environment& environment,
                int q, int h, const std::vector<Span>& runs) {
  int last_end = 0;
  for (const Span& run : runs) {
    if (run.begin < last_end || (last_end > 0 && run.begin == last_end) || run.end <= run.begin ||
        run.end > environment.m) {
      std::abort();
    }
    for (int k = last_end; k < run.end; ++k) {
      if (attnviz::maskexpr::evaluate(expression, environment, q, k, h) != (k >= run.begin)) std::abort();
    }
    last_end = run.end;
  }
  for (int k = last_end; k < environment.m; ++k) {
    if (attnviz::maskexpr::evaluate(expression, environment, q, k, h)) std::abort();
  }
}

void check(const attnviz::maskexpr::Expression& expression) {
  using namespace attnviz::maskexpr;
  Environment environment;
  environment.n = 12;
  environment.m = 10;
  environment.documents = {0, 3, 7};
  environment.globals = {1, 8};
  const RowScanner scanner(expression, environment);
  const int n = static_cast<int>(environment.n);
  const int m = static_cast<int>(environment.m);
  for (int h = 0; h < 2; ++h) {
    for (int q = 0; q < n; q += 5) {
      for (int lo = 0; lo < m; lo += 3) {
        const int hi = lo + 4 < m ? lo + 4 : m - 1;
        const Truth truth = evaluate_keys(expression, environment, q, {lo, hi}, h);
        for (int k = lo; k <= hi; ++k) {
          const bool cell = evaluate(expression, environment, q, k, h);
          if ((truth == Truth::True && !cell) || (truth == Truth::False && cell)) std::abort();
        }
      }
      std::vector<Span> runs;
      scanner.scan(q, h, 0, m, runs);
      check_runs(expression, environment, q, h, runs);
      // Guided by the row after's runs, the same runs.
      std::vector<Span> hint;
      std::vector<Span> near;
      scanner.scan(q + 1, h, 0, m, hint);
      scanner.scan_near(q, h, 0, m, hint, near);
      if (near.size() != runs.size()) std::abort();
      for (std::size_t r = 0; r < runs.size(); ++r) {
        if (near[r].begin != runs[r].begin || near[r].end != runs[r].end) std::abort();
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    check(attnviz::maskexpr::Expression::parse(text));
  } catch (const attnviz::maskexpr::ExpressionError& error) {
    if (error.column() < 1 || static_cast<std::size_t>(error.column()) > size + 1) std::abort();
  }
  return 0;
}
