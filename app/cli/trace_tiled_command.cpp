// attnviz trace tiled: one head walked through the tiled (FlashAttention-2) algorithm of
// core/tiled, tile by tile, as JSON (docs/design.md "Traces").

#include <ostream>
#include <stdexcept>
#include <string>

#include "app/cli/args.h"
#include "app/cli/backend_choice.h"
#include "app/cli/commands.h"
#include "app/cli/json_output.h"
#include "core/common/error.h"
#include "core/common/json_text.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario_json.h"
#include "core/tiled/tiled_attention.h"
#include "core/tiled/tiled_trace_json.h"

namespace attnviz::cli {
namespace {

constexpr const char* kOrigin = "<command line>";

constexpr const char* kTiledHelp =
    "Usage: attnviz trace tiled --scenario FILE --block-q BR --block-k BC [options]\n"
    "\n"
    "Runs the tiled (FlashAttention-2) algorithm on the CPU and writes the attnviz-tiled-trace/1\n"
    "JSON: for each block of BR query rows, the blocks of BC keys from left to right; per tile\n"
    "whether the mask hides it entirely (skipped), and each row's running maximum m of the scaled\n"
    "visible scores and running sum l of exp(s - m) after it (m is null while a row has seen no\n"
    "visible key); then the head's context, N x d_v (a row that sees no key is 0).\n"
    "\n"
    "Options:\n"
    "  --scenario FILE   a scenario file, or preset:NAME for a bundled preset\n"
    "  --block-q BR      query rows per tile (Br), at least 1; need not divide N\n"
    "  --block-k BC      keys per tile (Bc), at least 1; need not divide the number of keys\n"
    "  --head H          the query head to trace (default 0)\n"
    "  --backend KIND    cpu (the default) or vulkan: the context then comes from the Vulkan\n"
    "                    tiled kernel (the tiles' m and l from the CPU run of the same tiles:\n"
    "                    the kernel keeps no per-tile record)\n"
    "  --device N        the Vulkan device to use (see attnviz devices; or ATTNVIZ_DEVICE)\n"
    "  --out FILE        write the JSON to FILE instead of standard output\n"
    "\n"
    "Exit codes: 0 success, 2 bad input, 3 backend unavailable, 1 other errors.\n";

const std::vector<OptionSpec> kTiledOptions = {{"--scenario"}, {"--block-q"}, {"--block-k"}, {"--head"},
                                               {"--out"},      {"--backend"}, {"--device"},  {"--help", false}};

// A trace holds O (d_v floats) per row for every tile: refuse one that would not fit in memory.
constexpr std::int64_t kMaxTraceFloats = std::int64_t{1} << 27;

int required_block(const ParsedArgs& parsed, const std::string& option) {
  const std::optional<int> value = parsed.get_int(option, 1, 1 << 20);
  if (!value) throw InputError(kOrigin, option, "is required (a block size of at least 1)");
  return *value;
}

Matrix vulkan_context(const Problem& problem, const tiled::TiledOptions& options, std::optional<int> device) {
  const auto runner = make_tiled_runner("vulkan", device);
  try {
    return runner->run(problem, options).trace->context;
  } catch (const std::invalid_argument& error) {
    throw InputError(kOrigin, "--block-q", error.what());  // a tile too large for the device
  }
}

}  // namespace

int run_trace_tiled_command(const Args& args, std::ostream& out, std::ostream& err) {
  const ParsedArgs parsed = parse_args(args, kTiledOptions, "attnviz trace tiled");
  if (parsed.has("--help")) {
    out << kTiledHelp;
    return 0;
  }
  if (!parsed.positionals().empty()) {
    throw InputError(kOrigin, parsed.positionals().front(), "unexpected argument (see attnviz trace tiled --help)");
  }
  const std::optional<std::string> scenario_path = parsed.get("--scenario");
  if (!scenario_path) throw InputError(kOrigin, "--scenario", "is required (a file or preset:NAME)");
  tiled::TiledOptions options;
  options.block_q = required_block(parsed, "--block-q");
  options.block_k = required_block(parsed, "--block-k");
  const int head = parsed.get_int("--head", 0, 1 << 20).value_or(0);
  const std::string backend = parsed.get_or("--backend", "cpu");
  require_choice("--backend", backend, {"cpu", "vulkan"});
  const std::optional<int> device = parsed.get_int("--device", 0, 1023);

  const LoadedScenario loaded = load_scenario(*scenario_path);
  for (const std::string& warning : loaded.warnings) err << "attnviz: warning: " << warning << "\n";
  const Problem problem = build_problem(loaded.scenario, *scenario_path);
  if (head >= problem.num_heads) {
    throw InputError(kOrigin, "--head", missing_head_message(head, problem.num_heads));
  }
  if (tiled::trace_floats(problem.n(), problem.m(), options.block_q, options.block_k, problem.d_v) > kMaxTraceFloats) {
    throw InputError(kOrigin, "--block-k",
                     "the trace of " + std::to_string(problem.n()) + " x " + std::to_string(problem.m()) +
                         " scores in tiles this small would be too large: choose larger blocks");
  }
  options.trace_head = head;
  const std::optional<std::string> out_path = parsed.get("--out");
  tiled::TiledResult result = tiled::make_cpu_tiled()->run(problem, options);
  if (backend == "vulkan") result.trace->context = vulkan_context(problem, options, device);
  write_output(out_path, readable_json(tiled::tiled_trace_to_json(*result.trace)) + "\n", out);
  return 0;
}

}  // namespace attnviz::cli
