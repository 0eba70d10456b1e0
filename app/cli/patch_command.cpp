// attnviz patch: activation patching of every head between two texts of the same length in
// tokens (docs/design.md "What the heads do").

#include <ostream>

#include "app/cli/commands.h"
#include "app/cli/heads_options.h"
#include "app/cli/json_output.h"
#include "app/cli/model_options.h"
#include "core/common/error.h"
#include "core/cpu/cpu_backend.h"
#include "core/heads/heads_json.h"
#include "core/heads/patching.h"
#include "core/heads/unembedding.h"

namespace attnviz::cli {
namespace {

constexpr const char* kHelp =
    "Usage: attnviz patch --model PATH --text A --corrupted-text B [--target-id ID]\n"
    "                     [--position P] [--out FILE]\n"
    "\n"
    "Activation patching: for every layer and head, the target token's logit at position P when\n"
    "text A is run with that head's output (its context before W_O, at every position) taken from\n"
    "text B's run; its effect (patched - clean); and the logits of the two clean runs and their\n"
    "difference. A and B must make the same number of tokens (e.g. \"The Eiffel Tower is in\" and\n"
    "\"The Colosseum is in\" where both make 6).\n"
    "\n"
    "Options:\n"
    "  --model PATH           a Hugging Face model folder or a .gguf file\n"
    "  --text A               the clean text (UTF-8)\n"
    "  --corrupted-text B     the text the patched head's output is taken from\n"
    "  --target-id ID         the token whose logit is read (default: A's likeliest next token)\n"
    "  --position P           the position (default: the last)\n"
    "  --memory-limit SIZE    the memory the model may take (e.g. 8G)\n"
    "  --out FILE             write the JSON (attnviz-patching/1) to FILE instead of standard output\n"
    "\n"
    "Exit codes: 0 success, 2 bad input (the message names the option), 1 other errors.\n";

}  // namespace

int run_patch_command(const Args& args, std::ostream& out, std::ostream& err) {
  (void)err;
  const ParsedArgs parsed = parse_args(
      args, heads_option_specs({{"--text"}, {"--corrupted-text"}, {"--target-id"}, {"--position"}}), "attnviz patch");
  if (parsed.has("--help")) {
    out << kHelp;
    return 0;
  }
  reject_positionals(parsed, "patch");
  heads::PatchingRequest request;
  request.target = target_id_option(parsed);
  request.position = position_option(parsed);
  const std::optional<std::string> clean_text = parsed.get("--text");
  const std::optional<std::string> corrupted_text = parsed.get("--corrupted-text");
  if (!clean_text) throw InputError("<command line>", "--text", "is required: the clean text");
  if (!corrupted_text)
    throw InputError("<command line>", "--corrupted-text", "is required: the text the patched heads come from");
  const auto model = open_model(parsed, /*weights=*/true);
  heads::require_unembedding(*model, "patching");
  const tokenizers::Encoding clean = model->tokenizer().encode(*clean_text, "--text");
  const tokenizers::Encoding corrupted = model->tokenizer().encode(*corrupted_text, "--corrupted-text");
  const auto backend = make_cpu_backend();
  const heads::Patching patching = heads::patch_every_head(*model, *backend, clean, corrupted, request);
  write_output(parsed.get("--out"), heads::patching_json(clean, corrupted, patching), out);
  return 0;
}

}  // namespace attnviz::cli
