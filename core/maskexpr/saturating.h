#pragma once
// The integers of mask expressions: 64-bit, saturating at ±(2^63 − 1) (symmetric, so
// negation and abs never overflow), floor division and a modulo with the divisor's sign (as
// Python's // and %), and a defined division by zero: x / 0 = 0 and x % 0 = x (so that
// (x / y) · y + x % y = x still holds). docs/design.md "Mask expressions".

#include <cstdint>
#include <limits>

namespace attnviz::maskexpr {

using Int = std::int64_t;
inline constexpr Int kIntMax = std::numeric_limits<Int>::max();
inline constexpr Int kIntMin = -kIntMax;

constexpr Int saturate_sign(bool negative) { return negative ? kIntMin : kIntMax; }
constexpr Int clamp_int(Int value) { return value < kIntMin ? kIntMin : value; }

inline Int add(Int a, Int b) {
  Int r = 0;
  if (__builtin_add_overflow(a, b, &r)) return saturate_sign(b < 0);
  return clamp_int(r);
}
inline Int sub(Int a, Int b) {
  Int r = 0;
  if (__builtin_sub_overflow(a, b, &r)) return saturate_sign(b > 0);
  return clamp_int(r);
}
inline Int mul(Int a, Int b) {
  Int r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return saturate_sign((a < 0) != (b < 0));
  return clamp_int(r);
}
inline Int neg(Int a) { return -a; }  // a is within ±kIntMax
inline Int absolute(Int a) { return a < 0 ? -a : a; }
// Floor division; 0 when b is 0. |a| ≤ kIntMax, so a / −1 fits.
inline Int floor_div(Int a, Int b) {
  if (b == 0) return 0;
  Int q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}
// The remainder with the divisor's sign; a when b is 0.
inline Int floor_mod(Int a, Int b) {
  if (b == 0) return a;
  Int r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

}  // namespace attnviz::maskexpr
