// attnviz heads: every layer's and head's roles (docs/design.md "What the heads do"), on a
// repeated random probe or on the user's text.

#include <algorithm>
#include <climits>
#include <ostream>

#include "app/cli/commands.h"
#include "app/cli/figure_language.h"
#include "app/cli/heads_options.h"
#include "core/heads/stream_pass.h"
#include "app/cli/json_output.h"
#include "app/cli/model_options.h"
#include "core/common/error.h"
#include "core/export/heads_figures.h"
#include "core/heads/role_ranking.h"
#include "core/heads/head_roles.h"
#include "core/heads/heads_json.h"

namespace attnviz::cli {
namespace {

constexpr const char* kHelp =
    "Usage: attnviz heads --model PATH [--repeat K [--seed N] | --text TEXT | --text-file FILE]\n"
    "                     [--out FILE]\n"
    "\n"
    "What each attention head does: for every layer and head, scores read off its attention\n"
    "weights A (rows i counted from 1 for the first three):\n"
    "  previous_token  mean of A[i, i-1]      first_token  mean of A[i, 0] (attention sink)\n"
    "  self            mean of A[i, i]        entropy      mean over rows of -sum A ln A (nats)\n"
    "  mean_distance   mean over rows of sum_j A[i,j](i - j)\n"
    "  induction       on the probe, mean of A[i, i-K+1] over the second copy (null on a text)\n"
    "  duplicate       the same of A[i, i-K]\n"
    "The probe (--repeat K, the default with K = 32 or what the model's positions allow): the\n"
    "special tokens the model adds itself (Llama's <s>), K random ids (uniform over the vocabulary\n"
    "without its special tokens, seeded), then the same K again. The ids used are written.\n"
    "\n"
    "Options:\n"
    "  --model PATH       a Hugging Face model folder or a .gguf file\n"
    "  --repeat K         the repeated random probe of 2K tokens (K >= 1)\n"
    "  --seed N           the probe's random seed (default 0)\n"
    "  --text TEXT        score the heads on this text instead (induction and duplicate null)\n"
    "  --text-file FILE   the text is this UTF-8 file's content\n"
    "  --memory-limit SIZE  the memory the model may take (e.g. 8G)\n"
    "  --out FILE         write the JSON (attnviz-heads/1) to FILE instead of standard output\n"
    "  --format F         json (default), csv, png or svg (png, svg need --out); without it,\n"
    "                     --out's extension decides\n"
    "  --lang LANG        en (default) or ko: the language of a png or svg figure's words\n"
    "  --role R           the role a png or svg shows (previous_token, first_token, self,\n"
    "                     induction, duplicate, entropy, mean_distance; default: induction\n"
    "                     on the probe, previous_token on a text)\n"
    "\n"
    "Exit codes: 0 success, 2 bad input (the message names the option), 1 other errors.\n";

// --role: a role's key; default induction on the probe, previous_token on a text.
heads::Role role_option(const ParsedArgs& parsed, bool on_probe) {
  const std::optional<std::string> name = parsed.get("--role");
  if (!name) return on_probe ? heads::Role::Induction : heads::Role::PreviousToken;
  for (const heads::Role role : heads::kRoles)
    if (*name == heads::role_key(role)) return role;
  throw InputError("<command line>", "--role",
                   "\"" + name->substr(0, 40) +
                       "\" is no role: previous_token, first_token, self, induction, duplicate, entropy or "
                       "mean_distance");
}

}  // namespace

int run_heads_command(const Args& args, std::ostream& out, std::ostream& err) {
  const ParsedArgs parsed = parse_args(
      args, heads_option_specs({{"--repeat"}, {"--seed"}, {"--text"}, {"--text-file"}, {"--role"}}), "attnviz heads");
  if (parsed.has("--help")) {
    out << kHelp;
    return 0;
  }
  reject_positionals(parsed, "heads");
  // Checked before the model runs, not after minutes of it.
  const Wording wording = figure_wording(parsed);
  const bool on_text = parsed.has("--text") || parsed.has("--text-file");
  if (on_text && parsed.has("--repeat"))
    throw InputError("<command line>", "--repeat", "give --repeat or --text, not both");
  if (on_text && parsed.has("--seed"))
    throw InputError("<command line>", "--seed", "applies to the --repeat probe, not to --text");
  const std::optional<int> repeat = parsed.get_int("--repeat", 1, tokenizers::kMaxModelTokens);
  (void)role_option(parsed, !on_text);  // a bad --role is refused before the model opens
  const int seed = parsed.get_int("--seed", 0, INT_MAX).value_or(0);
  return naming_the_text_file(parsed, [&] {
    const auto model = open_model(parsed, /*weights=*/true);
    std::optional<heads::RepeatProbe> probe;
    tokenizers::Encoding text;
    if (on_text) {
      text = model->tokenizer().encode(model_text(parsed), "--text");
    } else {
      probe = heads::make_repeat_probe(*model, repeat.value_or(heads::default_repeat(*model)),
                                       static_cast<std::uint64_t>(seed));
      text = heads::probe_encoding(*model, *probe);
    }
    heads::StreamPassOptions with_attention;
    with_attention.keep_attention = true;
    const auto streamed = heads::run_keeping_stream(*model, text, with_attention);
    const model::ForwardResult& result = *streamed;
    const heads::RepeatProbe* used = probe ? &*probe : nullptr;
    std::vector<int> layers;
    for (const model::LayerAttention& layer : result.layers) layers.push_back(layer.layer);
    const heads::LayerRoles roles = heads::head_roles(result, used);
    const heads::Role role = role_option(parsed, used != nullptr);
    write_heads_output(
        parsed, heads::heads_json(text, used, layers, roles), [&] { return exporting::roles_csv(roles, layers); },
        [&] { return exporting::roles_figure(roles, layers, role, wording); }, out, err);
    return 0;
  });
}

}  // namespace attnviz::cli
