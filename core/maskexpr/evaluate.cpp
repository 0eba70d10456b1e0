#include "core/maskexpr/evaluate.h"

#include <algorithm>
#include <array>
#include <vector>

namespace attnviz::maskexpr {
namespace {

// Conditions are the integers 0 and 1; an interval [0, 1] is a condition not yet known.
Interval point(Int v) { return {v, v}; }
bool is_point(Interval a) { return a.lo == a.hi; }

Interval add_i(Interval a, Interval b) { return {add(a.lo, b.lo), add(a.hi, b.hi)}; }
Interval sub_i(Interval a, Interval b) { return {sub(a.lo, b.hi), sub(a.hi, b.lo)}; }
Interval neg_i(Interval a) { return {neg(a.hi), neg(a.lo)}; }

Interval hull(std::initializer_list<Int> values) {
  return {*std::min_element(values.begin(), values.end()), *std::max_element(values.begin(), values.end())};
}
Interval join(Interval a, Interval b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }

// Saturating multiplication is monotone in each argument for a fixed sign of the other, so
// the extremes are at the corners.
Interval mul_i(Interval a, Interval b) {
  if (is_point(a) && is_point(b)) return point(mul(a.lo, b.lo));  // a cell: one product, not four
  return hull({mul(a.lo, b.lo), mul(a.lo, b.hi), mul(a.hi, b.lo), mul(a.hi, b.hi)});
}

// Floor division by a divisor of one sign is monotone in each argument: corners again. A
// divisor interval holding 0 is split into its negative and positive parts, plus x / 0 = 0.
Interval div_i(Interval a, Interval b) {
  if (is_point(a) && is_point(b)) return point(floor_div(a.lo, b.lo));
  auto corners = [&](Int lo, Int hi) {
    return hull({floor_div(a.lo, lo), floor_div(a.lo, hi), floor_div(a.hi, lo), floor_div(a.hi, hi)});
  };
  if (b.lo > 0 || b.hi < 0) return corners(b.lo, b.hi);
  Interval out = point(0);
  if (b.lo < 0) out = join(out, corners(b.lo, -1));
  if (b.hi > 0) out = join(out, corners(1, b.hi));
  return out;
}

// The remainder by one divisor d rises with x within a period of d; across periods it spans
// [0, d − 1] (or [d + 1, 0]). A divisor interval holding 0 adds x % 0 = x.
Interval mod_by(Interval a, Int d) {
  if (d == 0) return a;
  if (is_point(a)) return point(floor_mod(a.lo, d));  // a cell: one division, not four
  if (floor_div(a.lo, d) == floor_div(a.hi, d)) return {floor_mod(a.lo, d), floor_mod(a.hi, d)};
  if (d > 0) return {0, a.lo >= 0 ? std::min(d - 1, a.hi) : d - 1};
  return {a.hi <= 0 ? std::max(d + 1, a.lo) : d + 1, 0};
}

Interval mod_i(Interval a, Interval b) {
  if (is_point(b)) return mod_by(a, b.lo);
  bool any = false;
  Interval out{};
  auto add_part = [&](Interval part) {
    out = any ? join(out, part) : part;
    any = true;
  };
  if (b.hi > 0) add_part({0, a.lo >= 0 ? std::min(b.hi - 1, a.hi) : b.hi - 1});
  if (b.lo < 0) add_part({a.hi <= 0 ? std::max(b.lo + 1, a.lo) : b.lo + 1, 0});
  if (b.lo <= 0 && b.hi >= 0) add_part(a);
  return out;
}

Interval min_i(Interval a, Interval b) { return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)}; }
Interval max_i(Interval a, Interval b) { return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)}; }

Interval abs_i(Interval a) {
  if (a.lo >= 0) return a;
  if (a.hi <= 0) return {absolute(a.hi), absolute(a.lo)};
  return {0, std::max(absolute(a.lo), a.hi)};
}

Interval truth(bool always, bool never) { return always ? point(1) : (never ? point(0) : Interval{0, 1}); }

Interval less(Interval a, Interval b) { return truth(a.hi < b.lo, a.lo >= b.hi); }
Interval less_equal(Interval a, Interval b) { return truth(a.hi <= b.lo, a.lo > b.hi); }
Interval equal(Interval a, Interval b) {
  return truth(is_point(a) && is_point(b) && a.lo == b.lo, a.hi < b.lo || b.hi < a.lo);
}
Interval not_i(Interval a) { return {1 - a.hi, 1 - a.lo}; }

Interval doc_i(const Environment& e, Interval a) { return {document_of(e, a.lo), document_of(e, a.hi)}; }

Interval global_i(const Environment& e, Interval a) {
  const auto first = std::lower_bound(e.globals.begin(), e.globals.end(), a.lo);
  const auto last = std::upper_bound(e.globals.begin(), e.globals.end(), a.hi);
  const auto listed = static_cast<Int>(last - first);
  // Every integer of [lo, hi] listed: the interval is no longer than the list.
  const bool all = sub(a.hi, a.lo) < static_cast<Int>(e.globals.size()) && listed == a.hi - a.lo + 1;
  return truth(all, listed == 0);
}

// The interval machine; a cell is the interval of one key.
template <std::size_t kInline>
Interval run(const Expression& expression, const Environment& e, Int q, Interval keys, Int h) {
  std::array<Interval, kInline> fixed{};
  std::vector<Interval> grown;
  Interval* stack = fixed.data();
  if (static_cast<std::size_t>(expression.stack_size()) > kInline) {
    grown.resize(static_cast<std::size_t>(expression.stack_size()));
    stack = grown.data();
  }
  int top = -1;
  // One dispatch an instruction: a binary operation pops b and rewrites a in place.
  auto binary = [&](auto op) {
    const Interval b = stack[top--];
    stack[top] = op(stack[top], b);
  };
  for (const Instruction& in : expression.code()) {
    switch (in.op) {
      case Op::Const: stack[++top] = point(in.value); break;
      case Op::Q: stack[++top] = point(q); break;
      case Op::K: stack[++top] = keys; break;
      case Op::H: stack[++top] = point(h); break;
      case Op::N: stack[++top] = point(e.n); break;
      case Op::M: stack[++top] = point(e.m); break;
      case Op::Neg: stack[top] = neg_i(stack[top]); break;
      case Op::Abs: stack[top] = abs_i(stack[top]); break;
      case Op::Not: stack[top] = not_i(stack[top]); break;
      case Op::Doc: stack[top] = doc_i(e, stack[top]); break;
      case Op::Global: stack[top] = global_i(e, stack[top]); break;
      case Op::Add: binary(add_i); break;
      case Op::Sub: binary(sub_i); break;
      case Op::Mul: binary(mul_i); break;
      case Op::Div: binary(div_i); break;
      case Op::Mod: binary(mod_i); break;
      case Op::Min: binary(min_i); break;
      case Op::Max: binary(max_i); break;
      case Op::Lt: binary(less); break;
      case Op::Le: binary(less_equal); break;
      case Op::Gt: binary([](Interval a, Interval b) { return less(b, a); }); break;
      case Op::Ge: binary([](Interval a, Interval b) { return less_equal(b, a); }); break;
      case Op::Eq: binary(equal); break;
      case Op::Ne: binary([](Interval a, Interval b) { return not_i(equal(a, b)); }); break;
      // Conditions are 0 and 1: "and" is the smaller, "or" the larger.
      case Op::And: binary(min_i); break;
      case Op::Or: binary(max_i); break;
    }
  }
  return stack[0];
}

}  // namespace

Int document_of(const Environment& environment, Int i) {
  const auto& starts = environment.documents;
  return static_cast<Int>(std::upper_bound(starts.begin(), starts.end(), i) - starts.begin()) - 1;
}

bool evaluate(const Expression& expression, const Environment& environment, Int q, Int k, Int h) {
  return run<32>(expression, environment, q, point(k), h).lo != 0;
}

Truth evaluate_keys(const Expression& expression, const Environment& environment, Int q, Interval keys, Int h) {
  const Interval result = run<32>(expression, environment, q, keys, h);
  if (result.lo != 0) return Truth::True;
  if (result.hi == 0) return Truth::False;
  return Truth::Unknown;
}

}  // namespace attnviz::maskexpr
