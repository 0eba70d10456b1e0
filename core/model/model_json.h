#pragma once
// `attnviz compute --model`: a forward pass as the result file's JSON (docs/design.md "Real
// models"), with "layers" in place of "heads" and the top next tokens. Streamed to a sink
// piece by piece like write_result_json, so the text is never held whole.

#include <functional>
#include <string_view>

#include "core/model/forward.h"
#include "core/model/model.h"

namespace attnviz::model {

void write_model_result_json(const Model& model, const ForwardResult& result,
                             const std::function<void(std::string_view)>& sink);

// `attnviz tokenize --model`: {"ids": [...], "tokens": [...]}.
std::string encoding_json(const tokenizers::Encoding& encoding);

}  // namespace attnviz::model
