#include "core/scenario/mask_expression_check.h"

#include <algorithm>
#include <cctype>

#include "core/common/error.h"

namespace attnviz {

bool has_expression(const MaskSetting& mask) {
  return std::any_of(mask.expression.begin(), mask.expression.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)) == 0; });
}

maskexpr::Expression parse_mask_expression(const MaskSetting& mask, const std::string& origin) {
  if (!has_expression(mask)) return {};
  maskexpr::Expression expression;
  try {
    expression = maskexpr::Expression::parse(mask.expression);
  } catch (const maskexpr::ExpressionError& error) {
    throw InputError(origin, "/mask/expression", error.what());
  }
  if (expression.doc_column() != 0 && mask.documents.empty()) {
    throw InputError(
        origin, "/mask/expression",
        "column " + std::to_string(expression.doc_column()) +
            ": doc() needs the documents: add \"documents\": [0, ...] (each document's first token) to the mask");
  }
  return expression;
}

void check_mask_expression(const MaskSetting& mask, const std::string& origin) {
  for (std::size_t i = 0; i < mask.documents.size(); ++i) {
    const std::string pointer = "/mask/documents/" + std::to_string(i);
    if (mask.documents[i] < 0)
      throw InputError(origin, pointer, "token index must be 0 or more, got " + std::to_string(mask.documents[i]));
    if (i > 0 && mask.documents[i] <= mask.documents[i - 1]) {
      throw InputError(origin, pointer,
                       "document starts must ascend: " + std::to_string(mask.documents[i]) + " follows " +
                           std::to_string(mask.documents[i - 1]));
    }
  }
  (void)parse_mask_expression(mask, origin);
}

void check_document_starts(const MaskSetting& mask, int n, int m, const std::string& origin) {
  const int limit = std::max(n, m);
  for (std::size_t i = 0; i < mask.documents.size(); ++i) {
    if (mask.documents[i] >= limit) {
      throw InputError(origin, "/mask/documents/" + std::to_string(i),
                       "document start " + std::to_string(mask.documents[i]) + " is out of range: the tokens are 0.." +
                           std::to_string(limit - 1));
    }
  }
}

maskexpr::Environment mask_environment(const MaskSetting& mask, int n, int m) {
  maskexpr::Environment environment;
  environment.n = n;
  environment.m = m;
  environment.documents = mask.documents;
  std::sort(environment.documents.begin(), environment.documents.end());
  environment.globals = mask.global;
  std::sort(environment.globals.begin(), environment.globals.end());
  environment.globals.erase(std::unique(environment.globals.begin(), environment.globals.end()),
                            environment.globals.end());
  return environment;
}

}  // namespace attnviz
