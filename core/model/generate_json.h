#pragma once
// `attnviz generate`: a greedy generation as JSON (docs/design.md "Real models"):
// {"tokens", "ids", "prompt_length", "stop", "steps": [{"token", "id", "next_tokens",
//  "layers": [{"layer", "heads": [{"scores", "weights"}]}], ...}]}; each head's scores and
// weights are the step's one query row over the cached positions first_cached..query_position.

#include <string>

#include "core/model/generate.h"

namespace attnviz::model {

std::string generation_json(const Model& model, const Generation& generation);

}  // namespace attnviz::model
