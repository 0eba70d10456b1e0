// Recursive descent straight into postfix bytecode, checking types as it goes. Every error
// names the column (in code points) of the character to blame.

#include <algorithm>
#include <array>
#include <cctype>
#include <span>
#include <string>

#include "core/maskexpr/expression.h"

namespace attnviz::maskexpr {
namespace {

enum class Type { Integer, Condition };

struct Token {
  enum class Kind { Integer, Name, Symbol, End };
  Kind kind = Kind::End;
  std::string_view text;
  std::size_t offset = 0;  // bytes into the expression
  Int value = 0;           // Integer only
};

struct Function {
  std::string_view name;
  Op op;
  int arguments;
  Type argument;
  Type result;
};

constexpr std::array<Function, 5> kFunctions = {{
    {"abs", Op::Abs, 1, Type::Integer, Type::Integer},
    {"min", Op::Min, 2, Type::Integer, Type::Integer},
    {"max", Op::Max, 2, Type::Integer, Type::Integer},
    {"doc", Op::Doc, 1, Type::Integer, Type::Integer},
    {"global", Op::Global, 1, Type::Integer, Type::Condition},
}};

struct BinaryOperator {
  std::string_view symbol;
  Op op;
};

// The left-associative levels, loosest first.
constexpr std::array<BinaryOperator, 1> kOr = {{{"||", Op::Or}}};
constexpr std::array<BinaryOperator, 1> kAnd = {{{"&&", Op::And}}};
constexpr std::array<BinaryOperator, 2> kSums = {{{"+", Op::Add}, {"-", Op::Sub}}};
constexpr std::array<BinaryOperator, 3> kProducts = {{{"*", Op::Mul}, {"/", Op::Div}, {"%", Op::Mod}}};

struct Variable {
  std::string_view name;
  Op op;
};
constexpr std::array<Variable, 5> kVariables = {{{"q", Op::Q}, {"k", Op::K}, {"h", Op::H}, {"n", Op::N}, {"m", Op::M}}};

constexpr std::string_view kNames = "q, k, h, n, m, true, false, abs, min, max, doc, global";

// Two-character symbols first, so that "<=" is not read as "<".
constexpr std::array<std::string_view, 19> kSymbols = {"&&", "||", "<=", ">=", "==", "!=", "<", ">", "+", "-",
                                                       "*",  "/",  "%",  "!",  "(",  ")",  ",", "&", "|"};

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool is_name_part(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// The character (a whole UTF-8 sequence) at `offset`, for messages.
std::string character_at(std::string_view text, std::size_t offset) {
  std::size_t end = offset + 1;
  while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80 && end - offset < 4) ++end;
  return std::string(text.substr(offset, end - offset));
}

}  // namespace

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Expression parse() {
    if (text_.size() > static_cast<std::size_t>(kMaxExpressionLength)) {
      throw ExpressionError(column(static_cast<std::size_t>(kMaxExpressionLength)),
                            "the expression is too long: at most " + std::to_string(kMaxExpressionLength) +
                                " characters, it has " + std::to_string(text_.size()));
    }
    advance();
    if (current_.kind == Token::Kind::End) throw ExpressionError(column(current_.offset), "the expression is empty");
    out_.code_.clear();
    const Token first = current_;
    const Type type = parse_or();
    if (current_.kind != Token::Kind::End) {
      if (current_.text == ")") throw ExpressionError(column(current_.offset), "')' without a matching '('");
      throw ExpressionError(column(current_.offset),
                            "expected an operator (such as && or <=) before '" + std::string(current_.text) + "'");
    }
    if (type != Type::Condition) {
      throw ExpressionError(column(first.offset),
                            "this is a number, but the mask needs a condition: compare it, for example k <= q");
    }
    out_.stack_size_ = max_depth_;
    return std::move(out_);
  }

 private:
  [[nodiscard]] int column(std::size_t offset) const {
    int characters = 1;
    for (std::size_t i = 0; i < offset && i < text_.size(); ++i) {
      if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++characters;
    }
    return characters;
  }

  void advance() {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_])) != 0) ++position_;
    current_ = Token{};
    current_.offset = position_;
    if (position_ >= text_.size()) return;
    const char c = text_[position_];
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) return read_integer();
    if (is_name_start(c)) {
      std::size_t end = position_;
      while (end < text_.size() && is_name_part(text_[end])) ++end;
      current_.kind = Token::Kind::Name;
      current_.text = text_.substr(position_, end - position_);
      position_ = end;
      return;
    }
    for (const std::string_view symbol : kSymbols) {
      if (text_.substr(position_, symbol.size()) == symbol) {
        current_.kind = Token::Kind::Symbol;
        current_.text = symbol;
        position_ += symbol.size();
        if (symbol == "&" || symbol == "|") {
          throw ExpressionError(column(current_.offset), "'" + std::string(symbol) +
                                                             "' alone is not an operator: write '" +
                                                             std::string(symbol) + std::string(symbol) + "'");
        }
        return;
      }
    }
    if (c == '=') throw ExpressionError(column(position_), "'=' alone is not an operator: write '==' to compare");
    const std::string found = character_at(text_, position_);
    std::string hint;
    if (found == "\u2264" || found == "\u2265" || found == "\u2260") hint = ": write <=, >= or != instead";
    throw ExpressionError(column(position_), "unexpected character '" + found + "'" + hint);
  }

  void read_integer() {
    std::size_t end = position_;
    Int value = 0;
    bool too_large = false;
    while (end < text_.size() && std::isdigit(static_cast<unsigned char>(text_[end])) != 0) {
      const Int digit = text_[end] - '0';
      if (value > (kIntMax - digit) / 10) too_large = true;
      if (!too_large) value = value * 10 + digit;
      ++end;
    }
    if (end < text_.size() && is_name_part(text_[end])) {
      throw ExpressionError(column(end), "a number cannot be followed by a letter ('" +
                                             std::string(text_.substr(position_, end + 1 - position_)) + "')");
    }
    if (too_large) {
      throw ExpressionError(column(position_),
                            "the number " +
                                std::string(text_.substr(position_, std::min<std::size_t>(end - position_, 30))) +
                                " is too large: at most " + std::to_string(kIntMax));
    }
    current_.kind = Token::Kind::Integer;
    current_.text = text_.substr(position_, end - position_);
    current_.value = value;
    position_ = end;
  }

  [[nodiscard]] bool at(std::string_view symbol) const {
    return current_.kind == Token::Kind::Symbol && current_.text == symbol;
  }

  void emit(Op op, Int value = 0) {
    out_.code_.push_back({op, value});
    switch (op) {
      case Op::Const:
      case Op::Q:
      case Op::K:
      case Op::H:
      case Op::N:
      case Op::M: ++depth_; break;
      case Op::Neg:
      case Op::Abs:
      case Op::Not:
      case Op::Doc:
      case Op::Global: break;
      default: --depth_;
    }
    max_depth_ = std::max(max_depth_, depth_);
  }

  void require(const Token& token, Type type, Type wanted, std::string_view role) const {
    if (type == wanted) return;
    const std::string what = wanted == Type::Integer ? "a number" : "a condition";
    const std::string got = type == Type::Integer ? "a number" : "a condition";
    throw ExpressionError(column(token.offset), std::string(role) + " needs " + what + " here, this is " + got);
  }

  // Guards the recursion: deeply nested input is an error, never a stack overflow.
  struct Nesting {
    Nesting(Parser& parser, const Token& token) : parser_(parser) {
      if (++parser_.nesting_ > kMaxExpressionDepth) {
        throw ExpressionError(parser_.column(token.offset), "nested too deeply: at most " +
                                                                std::to_string(kMaxExpressionDepth) +
                                                                " levels of parentheses, calls and unary operators");
      }
    }
    ~Nesting() { --parser_.nesting_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    Parser& parser_;
  };

  Type parse_or() { return parse_chain(kOr, Type::Condition, &Parser::parse_and); }
  Type parse_and() { return parse_chain(kAnd, Type::Condition, &Parser::parse_comparison); }

  // `operand` (operator `operand`)*, left to right: || and && join conditions, + - * / %
  // numbers; each operator's two sides must be of the `operands` type, and so is the result.
  Type parse_chain(std::span<const BinaryOperator> operators, Type operands, Type (Parser::*operand)()) {
    const Token first = current_;
    Type left = (this->*operand)();
    for (const BinaryOperator* found = match(operators); found != nullptr; found = match(operators)) {
      const std::string role = "'" + std::string(found->symbol) + "'";
      require(first, left, operands, role);
      advance();
      const Token right_token = current_;
      require(right_token, (this->*operand)(), operands, role);
      emit(found->op);
      left = operands;
    }
    return left;
  }

  [[nodiscard]] const BinaryOperator* match(std::span<const BinaryOperator> operators) const {
    for (const BinaryOperator& candidate : operators) {
      if (at(candidate.symbol)) return &candidate;
    }
    return nullptr;
  }

  Type parse_comparison() {
    static constexpr std::array<std::pair<std::string_view, Op>, 6> kComparisons = {
        {{"<", Op::Lt}, {"<=", Op::Le}, {">", Op::Gt}, {">=", Op::Ge}, {"==", Op::Eq}, {"!=", Op::Ne}}};
    const Token first = current_;
    const Type left = parse_sum();
    for (const auto& [symbol, op] : kComparisons) {
      if (!at(symbol)) continue;
      const std::string name(symbol);
      // == and != also compare two conditions (global(q) == global(k)); the rest numbers.
      const bool equality = op == Op::Eq || op == Op::Ne;
      const Type operands = equality ? left : Type::Integer;
      require(first, left, operands, "'" + name + "'");
      advance();
      const Token right_token = current_;
      require(right_token, parse_sum(), operands, "'" + name + "'");
      emit(op);
      for (const auto& [again, unused] : kComparisons) {
        if (at(again)) {
          throw ExpressionError(column(current_.offset),
                                "comparisons do not chain: write a < b && b < c instead of a < b < c");
        }
      }
      return Type::Condition;
    }
    return left;
  }

  Type parse_sum() { return parse_chain(kSums, Type::Integer, &Parser::parse_product); }
  Type parse_product() { return parse_chain(kProducts, Type::Integer, &Parser::parse_unary); }

  Type parse_unary() {
    if (at("-") || at("+") || at("!")) {
      const Token op = current_;
      const Nesting nesting(*this, op);
      advance();
      const Token operand = current_;
      const Type type = parse_unary();
      if (op.text == "!") {
        require(operand, type, Type::Condition, "'!'");
        emit(Op::Not);
        return Type::Condition;
      }
      require(operand, type, Type::Integer, "'" + std::string(op.text) + "'");
      if (op.text == "-") emit(Op::Neg);
      return Type::Integer;
    }
    return parse_primary();
  }

  Type parse_primary() {
    const Token token = current_;
    switch (token.kind) {
      case Token::Kind::End:
        throw ExpressionError(column(token.offset),
                              "the expression ends too early: a number, a name or '(' is missing");
      case Token::Kind::Integer:
        advance();
        emit(Op::Const, token.value);
        return Type::Integer;
      case Token::Kind::Name: return parse_name();
      case Token::Kind::Symbol: break;
    }
    if (at("(")) {
      const Nesting nesting(*this, token);
      advance();
      const Type inside = parse_or();
      if (!at(")")) {
        throw ExpressionError(column(current_.offset),
                              "expected ')' to close the '(' at column " + std::to_string(column(token.offset)));
      }
      advance();
      return inside;
    }
    throw ExpressionError(column(token.offset),
                          "expected a number, a name or '(' here, found '" + std::string(token.text) + "'");
  }

  Type parse_name() {
    const Token token = current_;
    advance();
    if (token.text == "true" || token.text == "false") {
      emit(Op::Const, token.text == "true" ? 1 : 0);
      return Type::Condition;
    }
    for (const Variable& variable : kVariables) {
      if (token.text != variable.name) continue;
      if (at("("))
        throw ExpressionError(column(current_.offset), "'" + std::string(token.text) + "' is not a function");
      if (variable.op == Op::H) out_.uses_head_ = true;
      emit(variable.op);
      return Type::Integer;
    }
    for (const Function& function : kFunctions) {
      if (token.text == function.name) return parse_call(token, function);
    }
    throw ExpressionError(column(token.offset), "unknown name '" + std::string(token.text.substr(0, 40)) +
                                                    "': the names are " + std::string(kNames));
  }

  Type parse_call(const Token& name, const Function& function) {
    const Nesting nesting(*this, name);
    const std::string call = std::string(function.name) + "()";
    if (!at("("))
      throw ExpressionError(column(current_.offset),
                            call + " needs its argument in parentheses: " + std::string(function.name) + "(...)");
    advance();
    for (int a = 0; a < function.arguments; ++a) {
      if (a > 0) {
        if (!at(",")) {
          throw ExpressionError(column(current_.offset),
                                call + " takes " + std::to_string(function.arguments) + " arguments: a ',' is missing");
        }
        advance();
      }
      const Token argument = current_;
      if (at(")")) {
        throw ExpressionError(column(current_.offset), call + " takes " + std::to_string(function.arguments) +
                                                           (function.arguments == 1 ? " argument" : " arguments"));
      }
      require(argument, parse_or(), function.argument, call);
    }
    if (at(",")) {
      throw ExpressionError(column(current_.offset), call + " takes " + std::to_string(function.arguments) +
                                                         (function.arguments == 1 ? " argument" : " arguments"));
    }
    if (!at(")")) throw ExpressionError(column(current_.offset), "expected ')' to close " + call);
    advance();
    if (function.op == Op::Doc && out_.doc_column_ == 0) out_.doc_column_ = column(name.offset);
    if (function.op == Op::Global) out_.uses_global_ = true;
    emit(function.op);
    return function.result;
  }

  std::string_view text_;
  std::size_t position_ = 0;
  Token current_;
  Expression out_;
  int nesting_ = 0;
  int depth_ = 0;
  int max_depth_ = 0;
};

Expression Expression::parse(std::string_view text) { return Parser(text).parse(); }

}  // namespace attnviz::maskexpr
