#pragma once
// What the commands that take --model share: opening the model (with --memory-limit), --text,
// --layers and the forward pass's options.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/args.h"
#include "core/model/forward.h"
#include "core/model/model.h"

namespace attnviz::cli {

// The options every --model command accepts besides its own.
const std::vector<OptionSpec>& model_option_specs();

// Opens --model (its weights too unless `weights` is false). Throws InputError naming the file.
std::unique_ptr<model::Model> open_model(const ParsedArgs& parsed, bool weights);
// --text, or the content of --text-file FILE (one of them required).
std::string model_text(const ParsedArgs& parsed);
// Runs `command`; an error in the text ("<text>: --text: makes 594 tokens but …") of a
// --text-file names the file instead ("essay.txt: --text-file: makes 594 tokens but …").
int naming_the_text_file(const ParsedArgs& parsed, const std::function<int()>& command);
// --layers all | 0,3: nullopt for all.
std::optional<std::vector<int>> parse_layer_list(const ParsedArgs& parsed);
// --query, --top, --head-scale into forward options.
model::ForwardOptions forward_options(const ParsedArgs& parsed);
// Every --head-scale LAYER:HEAD names a head the model has; else InputError naming --head-scale,
// the item and the model's layers or heads (the forward pass's own check would name "<edit>").
void check_head_scales(const model::ModelConfig& config, const model::ForwardOptions& options);
// "2G", "512M", "1048576" → bytes.
std::uint64_t parse_byte_size(const std::string& option, const std::string& text);

}  // namespace attnviz::cli
