// attnviz patch: activation patching of every head between two texts of the same length in
// tokens (docs/design.md "What the heads do").

#include <charconv>
#include <optional>
#include <ostream>
#include <string>

#include "app/cli/commands.h"
#include "app/cli/figure_language.h"
#include "app/cli/heads_options.h"
#include "app/cli/json_output.h"
#include "app/cli/model_options.h"
#include "core/common/error.h"
#include "core/export/heads_figures.h"
#include "core/cpu/cpu_backend.h"
#include "core/heads/heads_json.h"
#include "core/heads/patching.h"
#include "core/heads/unembedding.h"
#include "core/text/text_file.h"

namespace attnviz::cli {
namespace {

constexpr const char* kHelp =
    "Usage: attnviz patch --model PATH (--text A | --text-file FILE)\n"
    "                     (--corrupted-text B | --corrupted-text-file FILE) [--target-id ID]\n"
    "                     [--position P] [--patch-positions all|Q] [--out FILE]\n"
    "\n"
    "Activation patching: for every layer and head, the target token's logit at position P when\n"
    "text A is run with that head's output (its context before W_O, at every position or at\n"
    "position Q alone) taken from text B's run; its effect (patched - clean); and the logits of\n"
    "the two clean runs and their difference. A and B must make the same number of tokens (e.g.\n"
    "\"The Eiffel Tower is in\" and \"The Colosseum is in\" where both make 6).\n"
    "\n"
    "Options:\n"
    "  --model PATH           a Hugging Face model folder or a .gguf file\n"
    "  --text A               the clean text (UTF-8)\n"
    "  --text-file FILE       the clean text is this UTF-8 file's content\n"
    "  --corrupted-text B     the text the patched head's output is taken from\n"
    "  --corrupted-text-file FILE\n"
    "                         the corrupted text is this UTF-8 file's content\n"
    "  --target-id ID         the token whose logit is read (default: A's likeliest next token)\n"
    "  --position P           the position (default: the last)\n"
    "  --patch-positions all|Q\n"
    "                         the positions whose head outputs are patched: all (default), or\n"
    "                         position Q alone (0..P; for GPT-2 and Llama-family models only\n"
    "                         rows Q..P are rerun, so every head costs about a pass over them)\n"
    "  --memory-limit SIZE    the memory the model may take (e.g. 8G)\n"
    "  --out FILE             write the JSON (attnviz-patching/1) to FILE instead of standard output\n"
    "  --format F             json (default), csv, png or svg (png, svg need --out); without\n"
    "                         it, --out's extension decides\n"
    "  --lang LANG            en (default) or ko: the language of a png or svg figure's words\n"
    "\n"
    "Exit codes: 0 success, 2 bad input (the message names the option), 1 other errors.\n";

// --corrupted-text, or the content of --corrupted-text-file (not both).
std::string corrupted_text_option(const ParsedArgs& parsed) {
  const std::optional<std::string> text = parsed.get("--corrupted-text");
  const std::optional<std::string> file = parsed.get("--corrupted-text-file");
  if (text && file)
    throw InputError("<command line>", "--corrupted-text-file",
                     "give --corrupted-text or --corrupted-text-file, not both");
  if (file) {
    if (file->empty()) throw InputError("<command line>", "--corrupted-text-file", "needs a file name");
    return read_text_file(*file);
  }
  if (!text)
    throw InputError("<command line>", "--corrupted-text",
                     "is required: the text the patched heads come from (or --corrupted-text-file FILE)");
  return *text;
}

// The corrupted text's encoding, its errors naming --corrupted-text-file when it came from one.
tokenizers::Encoding encode_corrupted(const ParsedArgs& parsed, const model::Model& model, const std::string& text) {
  try {
    return model.tokenizer().encode(text, "--corrupted-text");
  } catch (const InputError& error) {
    const std::optional<std::string> file = parsed.get("--corrupted-text-file");
    if (!file || error.origin() != "<text>") throw;
    throw InputError(*file, "--corrupted-text-file", error.problem());
  }
}

// --patch-positions: all (the default: nullopt) or one position, a number; whether it lies in
// the text and before the target's position is patching's to say.
std::optional<int> patch_positions_option(const ParsedArgs& parsed) {
  const std::optional<std::string> value = parsed.get("--patch-positions");
  if (!value || *value == "all") return std::nullopt;
  int position = 0;
  const char* end = value->data() + value->size();
  const auto [stop, error] = std::from_chars(value->data(), end, position);
  if (error != std::errc() || stop != end || position < 0 || value->empty()) {
    throw InputError("<command line>", "--patch-positions",
                     "\"" + value->substr(0, 40) + "\" is neither all nor a position (a number from 0)");
  }
  return position;
}

}  // namespace

int run_patch_command(const Args& args, std::ostream& out, std::ostream& err) {
  const ParsedArgs parsed = parse_args(args,
                                       heads_option_specs({{"--text"},
                                                           {"--text-file"},
                                                           {"--corrupted-text"},
                                                           {"--corrupted-text-file"},
                                                           {"--target-id"},
                                                           {"--position"},
                                                           {"--patch-positions"}}),
                                       "attnviz patch");
  if (parsed.has("--help")) {
    out << kHelp;
    return 0;
  }
  reject_positionals(parsed, "patch");
  // Checked before the model runs, not after minutes of it.
  const Wording wording = figure_wording(parsed);
  heads::PatchingRequest request;
  request.target = target_id_option(parsed);
  request.position = position_option(parsed);
  request.patched_position = patch_positions_option(parsed);
  return naming_the_text_file(parsed, [&] {
    const std::string clean_text = model_text(parsed);
    const std::string corrupted_text = corrupted_text_option(parsed);
    const auto model = open_model(parsed, /*weights=*/true);
    heads::require_unembedding(*model, "patching");
    const tokenizers::Encoding clean = model->tokenizer().encode(clean_text, "--text");
    const tokenizers::Encoding corrupted = encode_corrupted(parsed, *model, corrupted_text);
    const auto backend = make_cpu_backend();
    const heads::Patching patching = heads::patch_every_head(*model, *backend, clean, corrupted, request);
    write_heads_output(
        parsed, heads::patching_json(clean, corrupted, patching), [&] { return exporting::patching_csv(patching); },
        [&] { return exporting::patching_figure(patching, clean.tokens, corrupted.tokens, wording); }, out, err);
    return 0;
  });
}

}  // namespace attnviz::cli
