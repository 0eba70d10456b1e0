// attnviz trace decode: KV-cache decoding of a scenario's sentence as attnviz-decode-trace/1
// (docs/design.md "Traces", docs/decode.md).

#include <limits>
#include <ostream>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "app/cli/json_output.h"
#include "core/common/error.h"
#include "core/common/json_text.h"
#include "core/decode/decode_json.h"
#include "core/decode/decoder.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario_json.h"

namespace attnviz::cli {
namespace {

constexpr const char* kHelp =
    "Usage: attnviz trace decode --scenario FILE --prompt P [--head H] [--out FILE]\n"
    "\n"
    "Generates the scenario's sentence one token at a time under a causal mask, with a KV cache:\n"
    "the first P tokens (the prompt) in one pass, then one step per token. Writes the\n"
    "attnviz-decode-trace/1 JSON: per step the token, its q, k, v rows, the keys the cache holds\n"
    "(and their slots, and the rows evicted under a sliding window), the row of scaled scores\n"
    "and weights, the context, and the multiply-adds and bytes read with and without the cache.\n"
    "\n"
    "Options:\n"
    "  --scenario FILE   a scenario file, or preset:NAME for a bundled preset (not cross-attention)\n"
    "  --prompt P        how many tokens are prefilled at once, 1 to the sentence's length\n"
    "  --head H          the query head to follow, 0 (the default) to num_heads - 1\n"
    "  --out FILE        write the JSON to FILE instead of standard output\n"
    "\n"
    "Exit codes: 0 success, 2 bad input, 1 other errors.\n";

const std::vector<OptionSpec> kOptions = {{"--scenario"}, {"--prompt"}, {"--head"}, {"--out"}, {"--help", false}};

}  // namespace

int run_trace_decode_command(const Args& args, std::ostream& out, std::ostream& err) {
  const ParsedArgs parsed = parse_args(args, kOptions, "attnviz trace decode");
  if (parsed.has("--help")) {
    out << kHelp;
    return 0;
  }
  if (!parsed.positionals().empty()) {
    throw InputError("<command line>", parsed.positionals().front(),
                     "unexpected argument (see attnviz trace decode --help)");
  }
  const std::optional<std::string> scenario_path = parsed.get("--scenario");
  if (!scenario_path) throw InputError("<command line>", "--scenario", "is required (a file or preset:NAME)");
  if (!parsed.has("--prompt"))
    throw InputError("<command line>", "--prompt", "is required (how many tokens to prefill)");
  const int prompt = *parsed.get_int("--prompt", 1, std::numeric_limits<int>::max());
  const int head = parsed.get_int("--head", 0, std::numeric_limits<int>::max()).value_or(0);

  const LoadedScenario loaded = load_scenario(*scenario_path);
  for (const std::string& warning : loaded.warnings) err << "attnviz: warning: " << warning << "\n";
  const Problem problem = build_problem(loaded.scenario, *scenario_path);
  if (problem.cross_attention) {
    throw InputError(*scenario_path, "/source",
                     "decoding generates the sentence itself, so a cross-attention scenario cannot be decoded");
  }
  if (prompt > problem.n()) {
    throw InputError("<command line>", "--prompt",
                     std::to_string(prompt) + " is longer than the sentence, which has " + std::to_string(problem.n()) +
                         " tokens (the prompt holds 1 to " + std::to_string(problem.n()) + ")");
  }
  if (head >= problem.num_heads) {
    throw InputError("<command line>", "--head", missing_head_message(head, problem.num_heads));
  }

  const decode::DecodeTrace trace = decode::decode_head(problem, head, prompt);
  write_output(parsed.get("--out"), readable_json(decode::decode_trace_to_json(trace)) + "\n", out);
  return 0;
}

}  // namespace attnviz::cli
