// The mask expression language (docs/design.md "Mask expressions"): precedence, Python's floor
// division and modulo, saturating integers, and errors that name the column to blame.

#include <gtest/gtest.h>

#include <string>

#include "core/maskexpr/evaluate.h"
#include "core/maskexpr/expression.h"

namespace attnviz::maskexpr {
namespace {

// The value of an expression without variables (or at q = 5, k = 3, h = 1, n = 8, m = 6).
bool holds(const std::string& text) {
  Environment environment;
  environment.n = 8;
  environment.m = 6;
  environment.documents = {0, 4};
  environment.globals = {2};
  return evaluate(Expression::parse(text), environment, 5, 3, 1);
}

// The column and message of the error an expression raises.
ExpressionError error_of(const std::string& text) {
  try {
    (void)Expression::parse(text);
  } catch (const ExpressionError& error) {
    return error;
  }
  ADD_FAILURE() << "no error for " << text;
  return ExpressionError(0, "");
}

TEST(MaskExpressionParser, ProductsBindTighterThanSumsAndSumsGoLeftToRight) {
  EXPECT_TRUE(holds("1 + 2 * 3 == 7"));
  EXPECT_TRUE(holds("(1 + 2) * 3 == 9"));
  EXPECT_TRUE(holds("2 - 3 - 4 == -5"));
  EXPECT_TRUE(holds("12 / 3 / 2 == 2"));
  EXPECT_TRUE(holds("-2 * -3 == 6"));
  EXPECT_TRUE(holds("- - 4 == 4 && +4 == 4"));
}

TEST(MaskExpressionParser, AndBindsTighterThanOrAndNotTightest) {
  EXPECT_TRUE(holds("true || false && false"));
  EXPECT_FALSE(holds("(true || false) && false"));
  EXPECT_FALSE(holds("!false && false"));
  EXPECT_TRUE(holds("!(false && false)"));
  EXPECT_TRUE(holds("k < q && q < n"));
}

TEST(MaskExpressionParser, DivisionFloorsAndModuloTakesTheDivisorsSign) {
  EXPECT_TRUE(holds("7 / 2 == 3 && -7 / 2 == -4 && 7 / -2 == -4 && -7 / -2 == 3"));
  EXPECT_TRUE(holds("7 % 2 == 1 && -7 % 2 == 1 && 7 % -2 == -1 && -7 % -2 == -1"));
  EXPECT_TRUE(holds("(q - 9) / 4 == -1 && (q - 9) % 4 == 0"));  // q = 5
  EXPECT_TRUE(holds("(-7 / 2) * 2 + -7 % 2 == -7"));
}

TEST(MaskExpressionParser, DivisionByZeroIsZeroAndModuloByZeroKeepsTheNumber) {
  EXPECT_TRUE(holds("q / 0 == 0 && q % 0 == q && -3 % 0 == -3"));
  EXPECT_TRUE(holds("(q / 0) * 0 + q % 0 == q"));
}

TEST(MaskExpressionParser, IntegersSaturateInsteadOfOverflowing) {
  EXPECT_TRUE(holds("9223372036854775807 + 1 == 9223372036854775807"));
  EXPECT_TRUE(holds("-9223372036854775807 - 5 == -9223372036854775807"));
  EXPECT_TRUE(holds("9223372036854775807 * 2 == 9223372036854775807"));
  EXPECT_TRUE(holds("9223372036854775807 * -2 == -9223372036854775807"));
  EXPECT_TRUE(holds("abs(-9223372036854775807 - 1) == 9223372036854775807"));
  EXPECT_TRUE(holds("(-9223372036854775807 - 1) / -1 == 9223372036854775807"));
}

TEST(MaskExpressionParser, NamesAndFunctions) {
  // q = 5, k = 3, h = 1, n = 8, m = 6, documents start at 0 and 4, token 2 is global.
  EXPECT_TRUE(holds("q == 5 && k == 3 && h == 1 && n == 8 && m == 6"));
  EXPECT_TRUE(holds("abs(k - q) == 2 && min(q, k) == 3 && max(q, k) == 5"));
  EXPECT_TRUE(holds("doc(q) == 1 && doc(k) == 0 && doc(4) == 1 && doc(-1) == -1"));
  EXPECT_TRUE(holds("global(2) && !global(q) && !global(k)"));
}

TEST(MaskExpressionParser, RecordsWhatTheExpressionUses) {
  EXPECT_TRUE(Expression::parse("k < h").uses_head());
  EXPECT_FALSE(Expression::parse("k <= q").uses_head());
  EXPECT_EQ(Expression::parse("k <= q && doc(q) == doc(k)").doc_column(), 11);
  EXPECT_TRUE(Expression::parse("global(q)").uses_global());
}

TEST(MaskExpressionParser, ErrorsNameTheColumn) {
  struct Case {
    std::string text;
    int column;
    std::string words;
  };
  const Case cases[] = {
      {"k <= x", 6, "unknown name 'x'"},
      {"k <= q &&", 10, "ends too early"},
      {"(k <= q", 8, "expected ')'"},
      {"k <= q)", 7, "')' without a matching '('"},
      {"k < q < 3", 7, "do not chain"},
      {"q", 1, "needs a condition"},
      {"k + (q < 1)", 5, "'+' needs a number here"},
      {"k <= q && 3", 11, "'&&' needs a condition"},
      {"!k", 2, "'!' needs a condition"},
      {"k = q", 3, "write '=='"},
      {"k <= q & k > 1", 8, "write '&&'"},
      {"k <= q | k > 1", 8, "write '||'"},
      {"k \u2264 q", 3, "write <=, >= or != instead"},
      {"k <= q @ 1", 8, "unexpected character '@'"},
      {"abs(q, k) > 0", 6, "abs() takes 1 argument"},
      {"max(q) > 0", 6, "max() takes 2 arguments"},
      {"abs > 0", 5, "in parentheses"},
      {"q(1) > 0", 2, "'q' is not a function"},
      {"k <= 12q", 8, "cannot be followed by a letter"},
      {"k <= 99999999999999999999", 6, "too large"},
      {"", 1, "empty"},
      {"   ", 4, "empty"},
      {"k q", 3, "expected an operator"},
      {"global(q < 1)", 8, "global() needs a number here"},
  };
  for (const Case& c : cases) {
    const ExpressionError error = error_of(c.text);
    EXPECT_EQ(error.column(), c.column) << c.text << ": " << error.what();
    EXPECT_NE(error.problem().find(c.words), std::string::npos) << c.text << ": " << error.what();
  }
}

TEST(MaskExpressionParser, ColumnsCountCharactersNotBytes) {
  // "é" is two bytes of UTF-8 and one column.
  EXPECT_EQ(error_of("k <= q && \u00e9").column(), 11);
  EXPECT_EQ(error_of("\u00e9\u00e9 x").column(), 1);
}

TEST(MaskExpressionParser, DeepNestingIsAnErrorNotAStackOverflow) {
  const std::string deep_enough = std::string(64, '(') + "k" + std::string(64, ')') + " <= q";
  EXPECT_NO_THROW((void)Expression::parse(deep_enough));
  const ExpressionError too_deep = error_of(std::string(65, '(') + "k" + std::string(65, ')') + " <= q");
  EXPECT_EQ(too_deep.column(), 65);
  EXPECT_NE(too_deep.problem().find("nested too deeply"), std::string::npos);
  EXPECT_NE(error_of(std::string(4000, '(')).problem().find("nested too deeply"), std::string::npos);
  EXPECT_NE(error_of(std::string(4000, '!') + "true").problem().find("nested too deeply"), std::string::npos);
  EXPECT_NE(error_of(std::string(4000, '-') + "1 < q").problem().find("nested too deeply"), std::string::npos);
}

TEST(MaskExpressionParser, LongExpressionsAreRefusedWithTheLimit) {
  std::string long_chain = "k <= q";
  while (long_chain.size() <= static_cast<std::size_t>(kMaxExpressionLength)) long_chain += " && k <= q";
  const ExpressionError error = error_of(long_chain);
  EXPECT_NE(error.problem().find("too long"), std::string::npos);
  // A long flat chain within the limit parses (chains are loops, not recursion).
  std::string chain = "k";
  while (chain.size() < 4000) chain += " + 1";
  EXPECT_NO_THROW((void)Expression::parse(chain + " > q"));
}

}  // namespace
}  // namespace attnviz::maskexpr
