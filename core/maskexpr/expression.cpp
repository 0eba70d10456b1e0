#include "core/maskexpr/expression.h"

#include <utility>

namespace attnviz::maskexpr {

ExpressionError::ExpressionError(int column, std::string problem)
    : std::runtime_error("column " + std::to_string(column) + ": " + problem),
      column_(column),
      problem_(std::move(problem)) {}

}  // namespace attnviz::maskexpr
