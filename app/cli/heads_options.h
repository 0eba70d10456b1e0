#pragma once
// What attnviz heads, lens, attribute and patch share (docs/design.md "What the heads do"):
// their options, and a forward pass that keeps the residual stream.

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "app/cli/args.h"
#include "core/export/figure.h"
#include "core/model/forward.h"
#include "core/model/model.h"
#include "core/tokenizers/tokenizer.h"

namespace attnviz::cli {

// --model, --memory-limit, --out, --format, --help, --lang (figure_language.h) and `own`.
std::vector<OptionSpec> heads_option_specs(const std::vector<OptionSpec>& own);
// Throws InputError naming the first positional argument, if any.
void reject_positionals(const ParsedArgs& parsed, const std::string& command);
// --target-id and --position: whole numbers from 0 (the model and the text bound them later).
std::optional<int> target_id_option(const ParsedArgs& parsed);
std::optional<int> position_option(const ParsedArgs& parsed);

// Writes a command's result as --format asks (json, csv, png or svg; without it, --out's
// extension when it is one of them, else json): `json` as it is, `csv()` or `figure()` drawn
// (core/export/heads_figures.h). An image needs --out (exit 2 naming --format otherwise); the
// fonts' warnings go to `err`.
void write_heads_output(const ParsedArgs& parsed, const std::string& json, const std::function<std::string()>& csv,
                        const std::function<exporting::HeatmapFigure()>& figure, std::ostream& out, std::ostream& err);

}  // namespace attnviz::cli
