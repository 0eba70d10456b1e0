#pragma once
// What attnviz heads, lens, attribute and patch share (docs/design.md "What the heads do"):
// their options, and a forward pass that keeps the residual stream.

#include <optional>
#include <string>
#include <vector>

#include "app/cli/args.h"
#include "core/model/forward.h"
#include "core/model/model.h"
#include "core/tokenizers/tokenizer.h"

namespace attnviz::cli {

// --model, --memory-limit, --out, --help and `own`.
std::vector<OptionSpec> heads_option_specs(const std::vector<OptionSpec>& own);
// Throws InputError naming the first positional argument, if any.
void reject_positionals(const ParsedArgs& parsed, const std::string& command);
// --target-id and --position: whole numbers from 0 (the model and the text bound them later).
std::optional<int> target_id_option(const ParsedArgs& parsed);
std::optional<int> position_option(const ParsedArgs& parsed);

}  // namespace attnviz::cli
