// attnviz lens: the logit lens, every layer's residual stream through the final norm and the
// unembedding (docs/design.md "What the heads do").

#include <ostream>

#include "app/cli/commands.h"
#include "app/cli/figure_language.h"
#include "app/cli/heads_options.h"
#include "core/heads/stream_pass.h"
#include "app/cli/json_output.h"
#include "app/cli/model_options.h"
#include "core/export/heads_figures.h"
#include "core/heads/heads_json.h"
#include "core/heads/logit_lens.h"
#include "core/heads/unembedding.h"

namespace attnviz::cli {
namespace {

constexpr const char* kHelp =
    "Usage: attnviz lens --model PATH (--text TEXT | --text-file FILE) [--top K] [--out FILE]\n"
    "\n"
    "The logit lens: the residual stream after every layer put through the model's final norm and\n"
    "unembedding, as if the model ended there. Layer 0 is the embeddings, layer l >= 1 the stream\n"
    "after block l-1 (the last layer is the model's own prediction). For every layer and position:\n"
    "the top K tokens with their probabilities, and the probability (p_next) and rank (rank_next,\n"
    "0 = best) of the text's actual next token (null at the last position).\n"
    "A model without an LM head (BERT without its masked-LM head) has no lens: exit 2 saying so.\n"
    "\n"
    "Options:\n"
    "  --model PATH       a Hugging Face model folder or a .gguf file\n"
    "  --text TEXT        the text (UTF-8)\n"
    "  --text-file FILE   the text is this UTF-8 file's content\n"
    "  --top K            tokens per cell (1 to 1000, default 5)\n"
    "  --memory-limit SIZE  the memory the model may take (e.g. 8G)\n"
    "  --out FILE         write the JSON (attnviz-lens/1) to FILE instead of standard output\n"
    "  --format F         json (default), csv, png or svg (png, svg need --out); without it,\n"
    "                     --out's extension decides\n"
    "  --lang LANG        en (default) or ko: the language of a png or svg figure's words\n"
    "\n"
    "Exit codes: 0 success, 2 bad input (the message names the option), 1 other errors.\n";

}  // namespace

int run_lens_command(const Args& args, std::ostream& out, std::ostream& err) {
  const ParsedArgs parsed =
      parse_args(args, heads_option_specs({{"--text"}, {"--text-file"}, {"--top"}}), "attnviz lens");
  if (parsed.has("--help")) {
    out << kHelp;
    return 0;
  }
  reject_positionals(parsed, "lens");
  // Checked before the model runs, not after minutes of it.
  const Wording wording = figure_wording(parsed);
  const int top = parsed.get_int("--top", 1, 1000).value_or(5);
  return naming_the_text_file(parsed, [&] {
    const std::string text_value = model_text(parsed);
    const auto model = open_model(parsed, /*weights=*/true);
    heads::require_unembedding(*model, "the logit lens");
    const tokenizers::Encoding text = model->tokenizer().encode(text_value, "--text");
    const auto streamed = heads::run_keeping_stream(*model, text);
    const model::ForwardResult& result = *streamed;
    const heads::LogitLens lens = heads::logit_lens(*model, result, top);
    write_heads_output(
        parsed, heads::lens_json(text, lens), [&] { return exporting::lens_csv(lens, text.tokens); },
        [&] { return exporting::lens_figure(lens, text.tokens, wording); }, out, err);
    return 0;
  });
}

}  // namespace attnviz::cli
