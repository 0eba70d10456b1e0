#pragma once
// A mask expression (docs/design.md "Mask expressions"): a condition over the query index q,
// the key index k, the query head h and the counts n and m that says whether query q of head
// h may see key k, e.g. "k <= q && (k < 4 || q - k <= 8)". Parsed once into a small postfix
// bytecode; evaluate.h runs it on one cell or, exactly, on a whole interval of keys.
//
//   expression  := or
//   or          := and ('||' and)*
//   and         := comparison ('&&' comparison)*
//   comparison  := sum (('<' | '<=' | '>' | '>=' | '==' | '!=') sum)?     (no chains)
//                  (== and != compare two numbers or two conditions, the others two numbers)
//   sum         := product (('+' | '-') product)*
//   product     := unary (('*' | '/' | '%') unary)*
//   unary       := ('-' | '+' | '!') unary | primary
//   primary     := integer | 'true' | 'false' | q | k | h | n | m | '(' or ')'
//                | abs(x) | min(x, y) | max(x, y) | doc(i) | global(i)
//
// Two types: integers (64-bit, saturating: core/maskexpr/saturating.h) and conditions.
// Arithmetic and comparisons take integers, && || ! conditions; the whole is a condition.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/maskexpr/saturating.h"

namespace attnviz::maskexpr {

// A parse or type error at a 1-based column, counted in characters (code points).
class ExpressionError : public std::runtime_error {
 public:
  ExpressionError(int column, std::string problem);
  [[nodiscard]] int column() const { return column_; }
  [[nodiscard]] const std::string& problem() const { return problem_; }

 private:
  int column_;
  std::string problem_;
};

enum class Op : std::uint8_t {
  Const,
  Q,
  K,
  H,
  N,
  M,  // push a value
  Neg,
  Abs,
  Not,
  Doc,
  Global,  // one operand
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Min,
  Max,  // two integers
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,  // two integers (Eq, Ne: or two conditions), a condition
  And,
  Or,  // two conditions
};

struct Instruction {
  Op op = Op::Const;
  Int value = 0;  // Const only
};

inline constexpr int kMaxExpressionLength = 4096;  // bytes
inline constexpr int kMaxExpressionDepth = 64;     // nested parentheses, calls and unary operators

class Expression {
 public:
  Expression() = default;  // "true": every key visible
  // Throws ExpressionError naming the column of the first problem.
  static Expression parse(std::string_view text);

  [[nodiscard]] const std::vector<Instruction>& code() const { return code_; }
  [[nodiscard]] int stack_size() const { return stack_size_; }  // values on the stack at most
  [[nodiscard]] bool uses_head() const { return uses_head_; }
  // Column of the first doc( call, 0 when there is none (it needs "documents").
  [[nodiscard]] int doc_column() const { return doc_column_; }
  [[nodiscard]] bool uses_global() const { return uses_global_; }

 private:
  friend class Parser;
  std::vector<Instruction> code_ = {{Op::Const, 1}};
  int stack_size_ = 1;
  bool uses_head_ = false;
  int doc_column_ = 0;
  bool uses_global_ = false;
};

}  // namespace attnviz::maskexpr
