// attnviz attribute: direct logit attribution with the final norm's scale frozen (docs/design.md
// "What the heads do").

#include <ostream>

#include "app/cli/commands.h"
#include "app/cli/figure_language.h"
#include "app/cli/heads_options.h"
#include "core/heads/stream_pass.h"
#include "app/cli/json_output.h"
#include "app/cli/model_options.h"
#include "core/heads/attribution.h"
#include "core/export/heads_figures.h"
#include "core/heads/heads_json.h"
#include "core/heads/unembedding.h"

namespace attnviz::cli {
namespace {

constexpr const char* kHelp =
    "Usage: attnviz attribute --model PATH (--text TEXT | --text-file FILE) [--target-id ID]\n"
    "                         [--position P] [--out FILE]\n"
    "\n"
    "Direct logit attribution: how much each part of the final residual stream at position P adds\n"
    "to the target token's logit: the embeddings, each head (its context times its rows of W_O),\n"
    "each attention's output bias, each MLP, and the final norm's bias. The final norm's scale is\n"
    "frozen at its value for the whole residual, so the parts sum to the logit. GPT-2 and the\n"
    "Llama family; BERT (post-norm) and models without an LM head exit 2 saying why.\n"
    "\n"
    "Options:\n"
    "  --model PATH       a Hugging Face model folder or a .gguf file\n"
    "  --text TEXT        the text (UTF-8)\n"
    "  --text-file FILE   the text is this UTF-8 file's content\n"
    "  --target-id ID     the token whose logit is attributed (default: the likeliest next token)\n"
    "  --position P       the position (token index from 0; default: the last)\n"
    "  --memory-limit SIZE  the memory the model may take (e.g. 8G)\n"
    "  --out FILE         write the JSON (attnviz-attribution/1) to FILE instead of standard output\n"
    "  --format F         json (default), csv, png or svg (png, svg need --out); without it,\n"
    "                     --out's extension decides\n"
    "  --lang LANG        en (default) or ko: the language of a png or svg figure's words\n"
    "\n"
    "Exit codes: 0 success, 2 bad input (the message names the option), 1 other errors.\n";

}  // namespace

int run_attribute_command(const Args& args, std::ostream& out, std::ostream& err) {
  const ParsedArgs parsed = parse_args(
      args, heads_option_specs({{"--text"}, {"--text-file"}, {"--target-id"}, {"--position"}}), "attnviz attribute");
  if (parsed.has("--help")) {
    out << kHelp;
    return 0;
  }
  reject_positionals(parsed, "attribute");
  // Checked before the model runs, not after minutes of it.
  const Wording wording = figure_wording(parsed);
  heads::AttributionRequest request;
  request.target = target_id_option(parsed);
  request.position = position_option(parsed);
  return naming_the_text_file(parsed, [&] {
    const std::string text_value = model_text(parsed);
    const auto model = open_model(parsed, /*weights=*/true);
    heads::require_additive_stream(*model, "direct logit attribution");
    const tokenizers::Encoding text = model->tokenizer().encode(text_value, "--text");
    if (request.target) heads::check_target(*model, *request.target, "--target-id");
    if (request.position) heads::check_position(*request.position, static_cast<int>(text.ids.size()), "--position");
    const auto streamed = heads::run_keeping_stream(*model, text);
    const model::ForwardResult& result = *streamed;
    const heads::Attribution attribution = heads::attribute_logit(*model, result, request);
    write_heads_output(
        parsed, heads::attribution_json(attribution), [&] { return exporting::attribution_csv(attribution); },
        [&] { return exporting::attribution_figure(attribution, wording); }, out, err);
    return 0;
  });
}

}  // namespace attnviz::cli
