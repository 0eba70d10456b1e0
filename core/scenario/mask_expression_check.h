#pragma once
// The mask's expression and documents as a scenario carries them (docs/design.md "Mask
// expressions"): parsed and checked with errors naming /mask/expression and its column, or
// /mask/documents/i; and the Environment the expression is evaluated in for a problem.

#include <string>

#include "core/maskexpr/evaluate.h"
#include "core/maskexpr/expression.h"
#include "core/scenario/scenario.h"

namespace attnviz {

// Something other than white space in `expression`.
bool has_expression(const MaskSetting& mask);

// The parsed expression ("true" without one). Throws InputError at /mask/expression whose
// problem starts with "column C: ", also for doc() without "documents".
maskexpr::Expression parse_mask_expression(const MaskSetting& mask, const std::string& origin);

// The expression parses, doc() has documents, the documents are ascending and not negative.
void check_mask_expression(const MaskSetting& mask, const std::string& origin);

// Every document start inside the problem: below max(N, M).
void check_document_starts(const MaskSetting& mask, int n, int m, const std::string& origin);

// n, m, the documents and the global tokens (sorted, distinct) for evaluating the expression.
maskexpr::Environment mask_environment(const MaskSetting& mask, int n, int m);

}  // namespace attnviz
