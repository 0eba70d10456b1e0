// attnviz generate: greedy generation with a pretrained model's KV cache, each step's new query
// row of attention over the cache (docs/design.md "Real models").

#include <ostream>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "app/cli/json_output.h"
#include "app/cli/model_options.h"
#include "core/common/error.h"
#include "core/model/generate.h"
#include "core/model/generate_json.h"

namespace attnviz::cli {
namespace {

constexpr const char* kHelp =
    "Usage: attnviz generate --model PATH (--text TEXT | --text-file FILE) --tokens N [--layer L | --layers all|0,3]\n"
    "                        [--top K] [--head-scale L:H[=F],...] [--out FILE]\n"
    "\n"
    "Generates N tokens after TEXT, greedily (the likeliest token each time), the way a decoder\n"
    "runs in production: the text is prefilled at once and every layer's keys and values are\n"
    "cached; each new token then runs as one position through every layer, its query attending\n"
    "over the cache (a rolling buffer with Mistral's sliding window). Writes JSON:\n"
    "  {\"tokens\": [...], \"ids\": [...], \"prompt_length\": P, \"stop\": \"tokens\"|\"end of text\"|\"position table\",\n"
    "   \"steps\": [{\"token\", \"id\", \"query_position\", \"query_token\", \"first_cached\", \"cache_length\",\n"
    "              \"cache_bytes\", \"next_tokens\": [{\"id\", \"token\", \"p\", \"logit\"}],\n"
    "              \"layers\": [{\"layer\", \"heads\": [{\"scores\", \"weights\"}]}]}]}\n"
    "Step s is the query at position P-1+s (the last prompt token, then each generated token fed\n"
    "back) and the token it predicts; scores (raw q.k) and weights are over the cached positions\n"
    "first_cached..query_position. Generation stops at N tokens, at the model's end-of-text token\n"
    "or at the end of its position table.\n"
    "\n"
    "Options:\n"
    "  --model PATH         a GPT-2 or Llama-family model folder or .gguf file (BERT does not generate)\n"
    "  --text TEXT          the prompt (UTF-8)\n"
    "  --text-file FILE     the prompt is this UTF-8 file's content\n"
    "  --tokens N           how many tokens to generate, 1-1024\n"
    "  --layer L            keep layer L's attention only (same as --layers L)\n"
    "  --layers all|0,3     the layers whose attention each step keeps (default: all)\n"
    "  --top K              the likeliest next tokens listed per step (default 10)\n"
    "  --head-scale L:H[=F] switch heads off (or scale them) while generating, as compute --model\n"
    "  --memory-limit SIZE  refuse a model whose weights need more (e.g. 8G)\n"
    "  --out FILE           write the JSON to FILE instead of standard output\n"
    "\n"
    "Exit codes: 0 success, 2 bad input (the message names the file or option), 1 other errors.\n";

const std::vector<OptionSpec> kOptions = {{"--model"},        {"--text"},   {"--text-file"},  {"--tokens"},
                                          {"--layer"},        {"--layers"}, {"--top"},        {"--head-scale"},
                                          {"--memory-limit"}, {"--out"},    {"--help", false}};

// Steps × kept layers × heads × cache entries, each a score and a weight: at most ~64 M numbers.
constexpr long long kMaxCells = 1LL << 25;

void check_output_size(const model::ModelConfig& c, const model::GenerateOptions& options, int prompt_length) {
  const long long layers = options.layers ? static_cast<long long>(options.layers->size()) : c.num_layers;
  const long long entries = c.sliding_window ? *c.sliding_window : prompt_length + options.max_new_tokens;
  const long long cells = layers * c.num_heads * entries * options.max_new_tokens;
  if (cells > kMaxCells) {
    throw InputError("<command line>", "--layers",
                     "keeping " + std::to_string(layers) + " layers × " + std::to_string(c.num_heads) + " heads of " +
                         std::to_string(options.max_new_tokens) + " steps writes up to " + std::to_string(cells * 2) +
                         " numbers; keep fewer layers (--layer 0) or generate fewer tokens");
  }
}

// The generation after the text, as JSON to --out or `out`.
int generate(const ParsedArgs& parsed, std::ostream& out) {
  const std::string text = model_text(parsed);
  const std::optional<int> tokens = parsed.get_int("--tokens", 1, model::kMaxGeneratedTokens);
  if (!tokens)
    throw InputError("<command line>", "--tokens",
                     "is required: how many tokens to generate (1-" + std::to_string(model::kMaxGeneratedTokens) + ")");
  const model::ForwardOptions forward = forward_options(parsed);  // --layers, --top, --head-scale
  model::GenerateOptions options;
  options.max_new_tokens = *tokens;
  options.layers = forward.layers;
  if (const auto layer = parsed.get_int("--layer", 0, 100000)) options.layers = std::vector<int>{*layer};
  options.top_k = forward.top_k;
  options.edits = forward.edits;

  const auto model = open_model(parsed, /*weights=*/true);
  check_head_scales(model->config(), forward);
  const tokenizers::Encoding prompt = model->tokenizer().encode(text, "--text");
  check_output_size(model->config(), options, static_cast<int>(prompt.ids.size()));
  model::Generator generator(*model);
  const model::Generation generation = generator.run(prompt, options);
  write_output(parsed.get("--out"), model::generation_json(*model, generation), out);
  return 0;
}

}  // namespace

int run_generate_command(const Args& args, std::ostream& out, std::ostream& err) {
  (void)err;
  const ParsedArgs parsed = parse_args(args, kOptions, "attnviz generate");
  if (parsed.has("--help")) {
    out << kHelp;
    return 0;
  }
  if (!parsed.positionals().empty()) {
    throw InputError("<command line>", parsed.positionals().front(),
                     "unexpected argument (see attnviz generate --help)");
  }
  if (parsed.has("--layer") && parsed.has("--layers"))
    throw InputError("<command line>", "--layer", "give --layer or --layers, not both");
  return naming_the_text_file(parsed, [&] { return generate(parsed, out); });
}

}  // namespace attnviz::cli
